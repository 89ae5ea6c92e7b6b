// Compare Runs on OmniBehavior in the real workbench, on a copy of sample/omnibehavior with a second run beside the
// sample's demo-sim (the sample has one run; the second is made from it here: some answers set right, some wrong,
// watch times nearer the truth, judge scores moved, and the last test actions left out). The compare view shows each
// run's figures, B − A and its 95 % interval over users as the core computes them, says what is left out, lists the
// answers whose outcome changed, and one opens its test action in the trace view. Swap A and B turns it round, and
// the view comes back after Reload Window.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareOmniRuns, omniCompareTexts, type OmniComparison } from '../../src/core/omni/compare';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import type { OmniBenchmark } from '../../src/core/omni/types';
import type { Workbench } from './harness';
import { omniSampleWorkbench } from './support/omniCopy';
import type { RawQuestion } from './traceExpected';
import { reloadToPair, summaryCells, swapRuns } from './comparePage';
import { treePage } from './treePage';

const [A, B] = ['demo-sim', 'demo-tuned'];
/** Test actions at the end of demo-sim that demo-tuned leaves out. */
const DROPPED = 12;

type RawLine = { user_id: string; index: number; questions: (RawQuestion & { judge_score?: number })[] };

/** demo-tuned: demo-sim with every fourth binary answer set right and every ninth set wrong, and so on. */
function writeTunedRun(root: string): void {
  const lines = readFileSync(join(root, 'results', A, 'predictions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  let n = 0;
  const out = lines.slice(0, lines.length - DROPPED).flatMap((line) => {
    let o: RawLine;
    try {
      o = JSON.parse(line) as RawLine;
    } catch {
      return [];
    }
    for (const q of o.questions) {
      n++;
      if (q.type === 'binary' && (q.true_value === 'Yes' || q.true_value === 'No') && (n % 4 === 0 || n % 9 === 0)) {
        const right = n % 4 === 0;
        const yes = (q.true_value === 'Yes') === right;
        q.predicted_value = yes ? 'Yes' : 'No';
        q.predicted_label = yes ? 1 : 0;
      } else if (q.field === 'video_watch_seconds' && typeof q.true_value === 'number') {
        q.predicted_value = q.true_value + (n % 3) * 2;
      } else if (q.field === 'next_user_message' && typeof q.judge_score === 'number') {
        q.judge_score = n % 2 ? Math.min(10, q.judge_score + 2) : Math.max(1, q.judge_score - 1);
      }
    }
    return [JSON.stringify(o)];
  });
  mkdirSync(join(root, 'results', B), { recursive: true });
  writeFileSync(join(root, 'results', B, 'predictions.jsonl'), out.join('\n') + '\n');
}

function expectedCells(cmp: OmniComparison) {
  return cmp.rows.map((r) => {
    const t = omniCompareTexts(r);
    return {
      slice: r.slice,
      cells: {
        measure: r.measure,
        a: t.a,
        b: t.b,
        diff: t.diff,
        interval: t.interval,
        users: `${r.units} (${r.win} / ${r.tie} / ${r.loss})${r.undecided ? ` · ${r.undecided} undecided` : ''}`,
        answers: String(r.answers),
      },
    };
  });
}

describe('Compare Runs on OmniBehavior in the real workbench', () => {
  let wb: Workbench;
  let bench: OmniBenchmark;
  let cmp: OmniComparison;
  let swapped: OmniComparison;
  let frame: Frame;
  const { waitRow } = treePage(() => wb);

  omniSampleWorkbench('omnicompare', 'omnicompare-e2e', {
    prepare: async (root) => {
      writeTunedRun(root);
      bench = await loadOmniBenchmark(root);
      const [ra, rb] = [bench.runs.get(A)!, bench.runs.get(B)!];
      cmp = compareOmniRuns(bench, ra, rb);
      swapped = compareOmniRuns(bench, rb, ra);
    },
    started: (w) => (wb = w),
  });

  beforeAll(() => {
    // the made run differs from the sample's both ways, leaves test actions out, and covers several users
    const changes = new Set(cmp.changed.map((c) => c.change));
    expect([...changes]).toEqual(expect.arrayContaining(['lost', 'gained', 'better']));
    expect(cmp.scope.actionsA - cmp.scope.paired).toBe(DROPPED);
    expect(cmp.scope.users).toBeGreaterThan(1);
  });

  it('compares two OmniBehavior runs picked from the palette', async () => {
    await wb.openView('Persona Lab');
    await waitRow(
      'omnibehavior',
      1,
      (r) => r.description.includes(`run: ${A} · OmniBehavior`),
      'the OmniBehavior root with its run',
    );
    await wb.runWithPicks('Persona Lab: Compare Runs…', [A, B]);
    frame = await wb.findWebviewFrame(`#omnicompare-root[data-state="shown"][data-runs="${A} ${B}"]`, {
      timeout: 60_000,
    });
    await wb.waitForExtensionHostLine(
      new RegExp(`OmniBehavior compare view: ${A} vs ${B}: ${cmp.scope.paired} paired test action\\(s\\)`),
    );
  });

  it('shows each figure, the difference and its interval over users as the core computes them', async () => {
    const shown = await summaryCells(frame);
    expect(shown).toEqual(expectedCells(cmp));
    // every kind of question has its rows, and the intervals are there (several users)
    expect(new Set(cmp.rows.map((r) => r.kind))).toEqual(new Set(['mixed', 'binary', 'continuous', 'text']));
    expect(shown.find((r) => r.slice === 'overall')?.cells.interval).toMatch(/^\[/);
    const method = await frame.locator('.method').innerText();
    expect(method).toContain(`${cmp.rows[0].resamples} resamples of users`);
    const scope = await frame.locator('.scope').innerText();
    expect(scope).toContain(`${cmp.scope.paired} test actions both runs answered, of ${cmp.scope.users} users`);
    expect(scope).toContain(`${DROPPED} test action(s) predicted by ${A} only`);
    await wb.screenshot('omnicompare-summary');
  });

  it('lists the answers whose outcome changed, and one opens its test action in the trace view', async () => {
    const rows = frame.locator('.changed-table tbody tr');
    const keys = await rows.evaluateAll((trs) =>
      trs.map((tr) => `${tr.getAttribute('data-action')} ${tr.getAttribute('data-field')}`),
    );
    expect(keys).toEqual(cmp.changed.map((c) => `${c.userId} #${c.index} ${c.field}`));
    const target = cmp.changed[0];
    expect(target.change).toBe('lost');
    const row = rows.first();
    expect(await row.getAttribute('data-change')).toBe('lost');
    expect(await row.locator('[data-col="a"]').innerText()).toBe(target.a);
    expect(await row.locator('[data-col="b"]').innerText()).toBe(target.b);
    await row.locator('button.action').click();
    await wb.findWebviewFrame(`#trace-root[data-trace="${target.userId}#${target.index}"]`, { timeout: 60_000 });
    await wb.waitForExtensionHostLine(`OmniBehavior compare view: opening ${target.userId} #${target.index}`);
  });

  it('Swap A and B turns the difference round', async () => {
    frame = await swapRuns(wb, 'omnicompare-root', A, B);
    expect(await summaryCells(frame)).toEqual(expectedCells(swapped));
    expect(omniCompareTexts(swapped.rows[0]).diff).not.toBe(omniCompareTexts(cmp.rows[0]).diff);
  });

  it('comes back after Reload Window with the pair last compared', async () => {
    frame = await reloadToPair(wb, 'omnicompare-root', B, A);
    expect(await summaryCells(frame)).toEqual(expectedCells(swapped));
    await wb.waitForExtensionHostLine('personaLab.omni.compare: restored');
  });
});
