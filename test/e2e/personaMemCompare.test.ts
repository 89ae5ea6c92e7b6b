// Compare Runs on PersonaMem in the real workbench on sample/ (which holds all three benchmarks): the command's
// first pick offers the runs of every open benchmark, the second only PersonaMem runs of A's split; the compare view
// shows each run's accuracy on the paired questions, B − A and its 95 % interval over personas, overall and per
// question type, as the core computes them; it lists the questions whose answer changed, and one opens in the
// question view. Swap A and B turns the difference round, and the view comes back after Reload Window. Compare mode
// badges the questions the compared pair lost in the Benchmarks tree, and counts them on their persona's row.
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { comparePersonaMemRuns, pmCompareTexts, type PmComparison } from '../../src/core/personamem/compare';
import { personaMem } from '../../src/core/personamem/format';
import { scorePersonaMemRun } from '../../src/core/personamem/score';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { SKILL_HEADS } from '../../src/core/personamem/types';
import { personaQuestions } from '../../src/core/personamem/view';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { reloadToPair, summaryCells, swapRuns } from './comparePage';
import { expandRow, rowBadge } from './support/sideBar';
import { treePage } from './treePage';

const sample = join(repoRoot, 'sample');
/** A answers part of the split, B all of it: the view compares the questions both answered. */
const [A, B] = ['32k_demo-weak', '32k_demo-strong'];

function expectedCells(cmp: PmComparison) {
  return [cmp.overall, ...cmp.byType].map((r) => {
    const t = pmCompareTexts(r);
    return {
      slice: r.slice,
      cells: {
        a: t.a,
        b: t.b,
        diff: t.diff,
        interval: t.interval,
        personas: `${r.units} (${r.win} / ${r.tie} / ${r.loss})`,
        questions: String(r.items),
      },
    };
  });
}

describe('Compare Runs on PersonaMem in the real workbench', () => {
  let wb: Workbench;
  let bench: PersonaMemBench;
  let cmp: PmComparison;
  let swapped: PmComparison;
  let frame: Frame;
  const { waitRow } = treePage(() => wb);

  beforeAll(async () => {
    bench = (await personaMem.load(join(sample, 'personamem'))).bench as PersonaMemBench;
    const [a, b] = [A, B].map((name) => scorePersonaMemRun(bench, bench.runs.get(name)!));
    cmp = comparePersonaMemRuns(bench, a, b);
    swapped = comparePersonaMemRuns(bench, b, a);
    wb = await startWorkbench({ folder: sample, theme: 'dark', viewport: { width: 1600, height: 1000 } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`pmcompare-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
  });

  it('compares two PersonaMem runs picked from the palette', async () => {
    // the sample's runs differ on some paired questions and A covers part of the split: both are shown
    expect(cmp.differing.length).toBeGreaterThan(0);
    expect(cmp.onlyB).toBeGreaterThan(0);
    await wb.openView('Persona Lab');
    await waitRow('personamem', 1, (r) => r.description.includes('run:'), 'the PersonaMem root with its run');
    await wb.runWithPicks('Persona Lab: Compare Runs…', [A, B]);
    frame = await wb.findWebviewFrame(`#pmcompare-root[data-state="shown"][data-runs="${A} ${B}"]`, {
      timeout: 60_000,
    });
    await wb.waitForExtensionHostLine(
      new RegExp(`PersonaMem compare view: ${A} vs ${B}: ${cmp.overall.items} paired question\\(s\\)`),
    );
  });

  it('shows each accuracy, the difference and its interval over personas as the core computes them', async () => {
    const shown = await summaryCells(frame);
    expect(shown).toEqual(expectedCells(cmp));
    // per question type too, and the interval's method is named
    expect(shown.length).toBe(1 + cmp.byType.length);
    expect(cmp.byType.length).toBeGreaterThan(1);
    const method = await frame.locator('.method').innerText();
    expect(method).toContain(`${cmp.overall.resamples} resamples of personas`);
    const scope = await frame.locator('.scope').innerText();
    expect(scope).toContain(`${cmp.overall.items} questions both runs answered, of ${cmp.overall.units} personas`);
    expect(scope).toContain(`${cmp.onlyB} by ${B} only`);
    await wb.screenshot('pmcompare-summary');
  });

  it('lists the questions where the runs differ, and one opens in the question view', async () => {
    const rows = frame.locator('.differing-table tbody tr');
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-question')));
    expect(ids).toEqual(cmp.differing.map((d) => d.questionId));
    const target = cmp.differing[0];
    const row = frame.locator(`tr[data-question="${target.questionId}"]`);
    expect(await row.getAttribute('data-change')).toBe(target.change);
    const pick = (x: string | null) => (x === null ? 'none read' : `(${x})`);
    expect(await row.locator('[data-col="pickA"]').innerText()).toBe(pick(target.pickA));
    expect(await row.locator('[data-col="pickB"]').innerText()).toBe(pick(target.pickB));
    await row.locator('button.question').click();
    await wb.findWebviewFrame(`#question-root[data-question="${target.questionId}"]`, { timeout: 60_000 });
    await wb.waitForExtensionHostLine(new RegExp(`PersonaMem compare view: opening 32k ${target.questionId}`));
  });

  it('Swap A and B turns the difference round', async () => {
    frame = await swapRuns(wb, 'pmcompare-root', A, B);
    expect(await summaryCells(frame)).toEqual(expectedCells(swapped));
    expect(pmCompareTexts(swapped.overall).diff).not.toBe(pmCompareTexts(cmp.overall).diff);
  });

  it('comes back after Reload Window with the pair last compared', async () => {
    frame = await reloadToPair(wb, 'pmcompare-root', B, A);
    expect(await summaryCells(frame)).toEqual(expectedCells(swapped));
    await wb.waitForExtensionHostLine('personaLab.personamem.compare: restored');
  });

  it('compare mode badges the questions B lost in the tree, and counts them on their persona', async () => {
    // the pair compared now is B vs A: "lost" is right in B, wrong in A
    const lost = swapped.differing.filter((d) => d.change === 'lost');
    expect(lost.length).toBeGreaterThan(0);
    await wb.runCommand('Persona Lab: Compare Mode: Badge Regressed Steps');
    await wb.waitForExtensionHostLine(
      new RegExp(`compare mode: ${lost.length} regressed question\\(s\\) of ${B} vs ${A}`),
    );
    await wb.statusBar.part(`${B} vs ${A}: ${lost.length} regressed`).waitFor();
    const target = lost[0];
    const mine = lost.filter((d) => d.personaId === target.personaId).length;
    // The tree came back from Reload Window with the other benchmarks expanded, which can push the PersonaMem row out
    // of the pane (its list draws only the rows in sight): collapse them first.
    await wb.sideBar.benchmarks.collapseAll();
    await expandRow(wb.sideBar.benchmarks.row('personamem', 1).first());
    const persona = wb.sideBar.benchmarks.row(`persona ${target.personaId}`, 2).first();
    await persona.waitFor({ timeout: 30_000 });
    await waitFor(async () => (await rowBadge(persona)) === String(mine), {
      timeout: 30_000,
      message: `persona ${target.personaId}'s badge ${mine}`,
    });
    await expandRow(persona);
    const questions = personaQuestions(bench, '32k', target.personaId);
    const at = questions.findIndex((q) => q.questionId === target.questionId);
    const q = questions[at];
    const row = wb.sideBar.benchmarks.row(`Q${at + 1} ${SKILL_HEADS[q.skill] ?? q.skill}`, 3).first();
    await waitFor(async () => (await rowBadge(row)) === '↓', { timeout: 30_000, message: 'the question’s ↓' });
    // a question both runs got right carries none
    const kept = questions.findIndex((x) => !swapped.differing.some((d) => d.questionId === x.questionId));
    if (kept >= 0) {
      const k = questions[kept];
      expect(
        await rowBadge(wb.sideBar.benchmarks.row(`Q${kept + 1} ${SKILL_HEADS[k.skill] ?? k.skill}`, 3).first()),
      ).toBe('');
    }
    // the README's picture: the badged rows with their descriptions, and no toast over the view
    await wb.sideBar.widen(520);
    await wb.reset();
    await wb.screenshot('pmcompare-mode-badges');
    await wb.runCommand('Persona Lab: Compare Mode: Turn Off');
    await waitFor(async () => (await rowBadge(persona)) === '', { timeout: 30_000, message: 'the badges to go' });
  });
});
