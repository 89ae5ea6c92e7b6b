// Agreement among three annotators in the real workbench (code-server) on a fresh copy of sample/: three authors'
// labels imported through the CLI from a JSONL file, then the Label Agreement view's table per label among all
// authors (Fleiss' κ, n, raters, po, pe, disagreements) cell by cell as `labels summary --json` gives it, and its
// Disagreements list (everyone's labels side by side) whose rows open their step in the step view beside the table.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MISSING } from '../../src/core/glossary';
import { defaultLabelSet, labelNames } from '../../src/core/labels/taxonomy';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { resultFor } from '../../src/core/spb/score/run';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { cli, importLine, labelsPage } from './labelsPage';

interface CliLabelKappa {
  kind: string;
  kappa: number | null;
  po: number | null;
  pe: number | null;
  n: number;
  raters: number;
  disagreements: number;
}
interface CliLabelAgreement {
  benchmark: string;
  units: number;
  authors: string[];
  perLabel: Record<string, CliLabelKappa>;
  disagreements: { platform: string; userId: string; stepId: number; run: string; labels: Record<string, string[]> }[];
}

describe('agreement among three annotators in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let db: string;
  let page: Frame;
  let twelfth: { userId: string; stepId: number };
  const names = labelNames(defaultLabelSet());
  const { palette } = labelsPage(() => wb);

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-agreement-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    const bench = await loadBenchmark(root);
    const run = bench.runs.get([...bench.runs.keys()][0])!;
    const steps = [...bench.users.get('weibo')!.values()]
      .flatMap((u) => u.steps.filter((s) => resultFor(run, u, s.stepId)).map((s) => ({ u, stepId: s.stepId })))
      .slice(0, 12);
    expect(steps).toHaveLength(12);
    // alice, bob and carol on the first eleven steps, alice and bob alone on the twelfth: Fleiss' κ over twelve
    // units with three raters on most and two on one. Each gives one label a step, from a rule of its own.
    const pick: Record<string, (i: number) => string> = {
      alice: (i) => (i % 3 === 0 || i === 11 ? 'pi-leak' : 'decay-error'),
      bob: (i) => (i % 4 === 0 ? 'pi-leak' : 'decay-error'),
      carol: (i) => (i % 5 === 0 ? 'format-error' : 'decay-error'),
    };
    const lines = steps.flatMap(({ u, stepId }, i) =>
      (i < 11 ? ['alice', 'bob', 'carol'] : ['alice', 'bob']).map((author) =>
        importLine(u.userId, run.name, { step_id: stepId, author, label: pick[author](i) }),
      ),
    );
    twelfth = { userId: steps[11].u.userId, stepId: steps[11].stepId };
    const file = join(tmp, 'three.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    mkdirSync(join(root, '.personalab'), { recursive: true });
    db = join(root, '.personalab', 'labels.db');
    cli(['labels', 'import', db, file]);
    wb = await startWorkbench({ folder: root, theme: 'dark', viewport: { width: 1600, height: 1000 } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await wb?.screenshot(`labels-agreement-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('shows κ per label among the three authors cell by cell as `labels summary --json` gives it', async () => {
    await wb.openView('Persona Lab');
    await wb.sideBar.benchmarks.rows().first().waitFor({ state: 'visible', timeout: 60_000 });
    await palette('Persona Lab: Label Summary');
    page = await wb.findWebviewFrame('#agreement-root section.all-authors table.per-label', { timeout: 60_000 });

    const json = JSON.parse(cli(['labels', 'summary', db, '--json'])) as { labelAgreement: CliLabelAgreement[] };
    expect(json.labelAgreement.map((b) => [b.benchmark, b.units, b.authors.join('+')])).toEqual([
      ['sample', 12, 'alice+bob+carol'],
    ]);
    const b = json.labelAgreement[0];
    const fixed = (x: number | null) => (x === null ? MISSING : x.toFixed(3));
    const expected = Object.entries(b.perLabel)
      .map(([label, k]) => [
        label,
        b.units < 10 ? 'n/a†' : k.kappa === null ? 'n/a' : k.kappa.toFixed(3),
        k.kind,
        String(k.n),
        String(k.raters),
        fixed(k.po),
        fixed(k.pe),
        String(k.disagreements),
      ])
      .sort((x, y) => x[0].localeCompare(y[0]));
    const section = page.locator('section.benchmark[data-benchmark="sample"] section.all-authors');
    const shown = (
      await section
        .locator('table.per-label tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [
            (tr as HTMLElement).dataset.label ?? '',
            ...['kappa', 'kind', 'n', 'raters', 'po', 'pe', 'disagreements'].map(
              (c) => tr.querySelector(`td.${c}`)?.textContent?.trim() ?? '',
            ),
          ]),
        )
    ).sort((x, y) => x[0].localeCompare(y[0]));
    expect(shown).toEqual(expected);
    expect(shown.map((r) => r[0])).toEqual(['decay-error', 'format-error', 'pi-leak']);
    // Twelve units, so κ is a number; three raters, so it is Fleiss'.
    for (const r of shown)
      expect([r[1], r[2], r[3], r[4]]).toEqual([expect.stringMatching(/^-?\d\.\d{3}$/), 'Fleiss', '12', '3']);
    expect(await section.locator('h3').innerText()).toContain('All authors (alice, bob, carol)');
    expect(await section.locator('th[data-col="kappa"]').getAttribute('title')).toContain('Fleiss’ κ (Fleiss’ kappa');
  });

  it("lists the disagreements with everyone's labels side by side, and a row opens its step beside the table", async () => {
    const b = (JSON.parse(cli(['labels', 'summary', db, '--json'])) as { labelAgreement: CliLabelAgreement[] })
      .labelAgreement[0];
    const section = page.locator('section.benchmark[data-benchmark="sample"] section.all-authors');
    const list = section.locator('table.unit-disagreements');
    expect(await list.locator('thead th.author').allInnerTexts()).toEqual(['alice', 'bob', 'carol']);
    const rows = list.locator('tbody tr.disagreement');
    expect(await rows.count()).toBe(b.disagreements.length);
    expect(b.disagreements.length).toBeGreaterThan(1);
    // Every row: the unit, then each author's labels (names), or — where the author did not label the unit.
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())),
    );
    expect(shown).toEqual(
      b.disagreements.map((d) => [
        `weibo · ${d.userId} · step ${d.stepId} · run ${d.run}`,
        ...b.authors.map((a) => (d.labels[a] ? d.labels[a].map((l) => names.get(l) ?? l).join(', ') : MISSING)),
      ]),
    );
    // The twelfth step, which carol did not label, disagrees: — under carol.
    const last = shown.find(
      (r) => r[0] === `weibo · ${twelfth.userId} · step ${twelfth.stepId} · run ${b.disagreements[0].run}`,
    );
    expect(last?.slice(1)).toEqual([names.get('pi-leak'), names.get('decay-error'), MISSING]);

    // A click opens the second row's step in the step view and marks the row as the open one.
    const second = b.disagreements[1];
    await rows.nth(1).click();
    await wb.findWebviewFrame(`#step-root[data-step="weibo/${second.userId}/${second.stepId}"] .labels-bar`, {
      timeout: 60_000,
    });
    await waitFor(async () => (await rows.nth(1).getAttribute('data-current')) === 'true', {
      message: 'the clicked row to be the open one',
    });
    expect(await rows.nth(0).getAttribute('data-current')).toBe('false');
    await palette('Notifications: Clear All Notifications');
    await wb.screenshot('labels-agreement-fleiss');

    // The keyboard: Enter on the first row opens its step, ArrowDown the next one's.
    const first = b.disagreements[0];
    await rows.nth(0).focus();
    await pressIn(rows.nth(0), 'Enter');
    await wb.findWebviewFrame(`#step-root[data-step="weibo/${first.userId}/${first.stepId}"]`, { timeout: 60_000 });
    await rows.nth(0).focus();
    await pressIn(rows.nth(0), 'ArrowDown');
    await wb.findWebviewFrame(`#step-root[data-step="weibo/${second.userId}/${second.stepId}"]`, { timeout: 60_000 });
    expect(await rows.nth(1).getAttribute('data-current')).toBe('true');
  });
});
