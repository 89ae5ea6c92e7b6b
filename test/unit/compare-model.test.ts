import { describe, expect, it } from 'vitest';
import { pairedSummary } from '../../src/core/spb/score/pairedSummary';
import { compareRuns } from '../../src/core/spb/score/runCompare';
import { compareModel, regressedSteps } from '../../src/extension/benchmarks/spb/compare/model';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/spb/dashboardProtocol';
import { memBench, split } from './compare-fixture';

const s = split({ tKeep: ['k'], tNew: ['n'], dDecay: ['d'], dPeer: ['p'], dViral: ['v'], dRandom: ['r'] });
const onlyKeep = split({ tKeep: ['k'], dDecay: ['d'] });
const bench = memBench(
  [
    { platform: 'weibo', userId: 'we_1', steps: [s, onlyKeep] },
    { platform: 'zhihu', userId: 'zh_1', steps: [s] },
  ],
  {
    A: { we_1: { 1: ['k', 'n'], 2: ['k'] }, zh_1: { 1: ['d'] } },
    B: { we_1: { 1: ['k', 'p'], 2: ['d'] }, zh_1: { 1: ['k', 'n'] } },
  },
);
const cmp = compareRuns(bench, bench.runs.get('A')!, bench.runs.get('B')!);

describe('compare view model', () => {
  it('sorts the rows of the scope and sends undefined metrics as null', () => {
    const m = compareModel(cmp, pairedSummary(cmp, 'all', { resamples: 20 }), ['A', 'B'], ['all', 'weibo', 'zhihu'], {
      scope: 'all',
      sortMetric: 'Recall',
      order: 'regression',
    });
    // ΔRecall: we_1/1 −0.5, we_1/2 −1, zh_1/1 +1
    expect(m.rows.map((r) => `${r.userId}/${r.stepId}`)).toEqual(['we_1/2', 'we_1/1', 'zh_1/1']);
    expect(m.rows[0].delta[0]).toBe(-1);
    expect(m.rows[0].delta[1]).toBeNull(); // R_nov: T_new empty
    expect(m.rows[1].lost).toEqual([{ tag: 'n', cls: 'tNew' }]);
    expect(m.rows[1].newWrong).toEqual([{ tag: 'p', cls: 'dPeer' }]);
    expect(m.paired).toBe(3);
    const recall = m.summary.find((r) => r.metric === 'Recall')!;
    // weibo: user mean A (1 + 1)/2 = 1, B (0.5 + 0)/2 = 0.25 -> −0.75; zhihu: 0 -> 1: +1; "all": (−0.75 + 1) / 2
    expect(recall.diff).toBeCloseTo(0.125, 12);
    expect(recall.userWtl).toEqual([1, 0, 1]);
    expect(recall.stepWtl).toEqual([1, 0, 2]);
    expect(m.summary.find((r) => r.metric === 'Error_Peer')!.higherIsBetter).toBe(false);
    // JSON round trip keeps everything (no NaN left to become null silently)
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
    expect(isExtensionToWebview({ type: 'compare', model: m })).toBe(true);
  });

  it("carries the two runs' origin marks, and only theirs", () => {
    const opts = { scope: 'all' as const, sortMetric: 'Recall' as const, order: 'regression' as const };
    const marks = { B: "Persona Lab's template, not the benchmark's prompt", C: 'another run' };
    const m = compareModel(cmp, [], ['A', 'B', 'C'], ['all'], opts, marks);
    expect(m.marks).toEqual({ B: marks.B });
    expect(isExtensionToWebview({ type: 'compare', model: m })).toBe(true);
    expect(isExtensionToWebview({ type: 'compare', model: { ...m, marks: { B: 1 } } })).toBe(false);
  });

  it('keeps one platform in a platform scope', () => {
    const m = compareModel(cmp, pairedSummary(cmp, 'zhihu', { resamples: 20 }), ['A', 'B'], ['all', 'weibo', 'zhihu'], {
      scope: 'zhihu',
      sortMetric: 'Recall',
      order: 'gain',
    });
    expect(m.rows.map((r) => r.userId)).toEqual(['zh_1']);
    expect(m.summary.find((r) => r.metric === 'Recall')!.diff).toBe(1);
  });

  it('lists the regressed steps for the tree badges', () => {
    expect([...regressedSteps(cmp).entries()]).toEqual([
      ['weibo/we_1/1', -0.5],
      ['weibo/we_1/2', -1],
    ]);
  });
});

describe('protocol guards', () => {
  it('accepts well-formed webview messages', () => {
    const ok: unknown[] = [
      { type: 'ready' },
      { type: 'setRuns', runs: ['a', 'b'] },
      { type: 'listSteps', filter: { run: 'a', scope: 'weibo', errorKey: 'Error_Peer', sort: 'Error_Peer' } },
      { type: 'listSteps', filter: { run: 'a', scope: 'all', stepId: 2 } },
      { type: 'openStep', ref: { platform: 'douban', userId: 'do_1', stepId: 1 }, run: 'a' },
      { type: 'openPair', ref: { platform: 'douban', userId: 'do_1', stepId: 1 } },
      { type: 'copyTable', table: 't6', format: 'csv' },
      { type: 'compareOptions', scope: 'all', sortMetric: 'Error_Random', order: 'gain' },
      { type: 'swapRuns' },
    ];
    for (const m of ok) expect(isWebviewToExtension(m), JSON.stringify(m)).toBe(true);
  });

  it('rejects malformed ones', () => {
    const bad: unknown[] = [
      null,
      'ready',
      { type: 'nope' },
      { type: 'setRuns', runs: ['a', 1] },
      { type: 'listSteps', filter: { run: 'a', scope: 'twitter' } },
      { type: 'listSteps', filter: { run: 'a', scope: 'all', stepId: 1.5 } },
      { type: 'listSteps', filter: { run: 'a', scope: 'all', errorKey: 'Recall' } },
      { type: 'openStep', ref: { platform: 'weibo', userId: 'x', stepId: '1' }, run: 'a' },
      { type: 'openPair', ref: { platform: 'weibo', userId: 'x' } },
      { type: 'copyTable', table: 't7', format: 'csv' },
      { type: 'copyTable', table: 't4', format: 'html' },
      { type: 'compareOptions', scope: 'all', sortMetric: 'F1NS', order: 'gain' },
    ];
    for (const m of bad) expect(isWebviewToExtension(m), JSON.stringify(m)).toBe(false);
    expect(
      isExtensionToWebview({
        type: 'steps',
        title: 't',
        note: '',
        filter: { run: 'a', scope: 'all' },
        rows: [{ platform: 'x' }],
      }),
    ).toBe(false);
    expect(isExtensionToWebview({ type: 'empty', message: 3 })).toBe(false);
  });
});
