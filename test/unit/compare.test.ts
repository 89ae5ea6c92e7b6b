import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/core/stats/random';
import { PairedBootstrap, pairedSummary, quantile } from '../../src/core/spb/score/pairedSummary';
import {
  compareRuns,
  improvement,
  mergeComparisons,
  sortStepDeltas,
  tagFlips,
  type RunComparison,
  type UserPair,
} from '../../src/core/spb/score/runCompare';
import { METRIC_KEYS, type Platform } from '../../src/core/spb/types';
import { memBench, split } from './compare-fixture';

const s1 = split({ tKeep: ['k1', 'k2'], tNew: ['n1'], dDecay: ['d1'], dPeer: ['p1'], dViral: ['v1'], dRandom: ['r1'] });
const s2 = split({
  tKeep: ['k1'],
  tNew: ['n2'],
  dDecay: ['d1'],
  dPeer: ['p1', 'p2'],
  dViral: ['v1'],
  dRandom: ['r1', 'r2'],
});
const s3 = split({ tKeep: ['k1'], dDecay: ['d1', 'd2', 'd3'] });
const empty = split({ dDecay: ['d1'], dRandom: ['r1', 'r2', 'r3'] });

function fixture() {
  return memBench(
    [
      { platform: 'weibo', userId: 'we_1', steps: [s1, s2, empty] },
      { platform: 'weibo', userId: 'we_2', steps: [s3, s3] },
    ],
    {
      A: { we_1: { 1: ['k1', 'n1', 'd1'], 2: [], 3: ['d1'] }, we_2: { 1: ['k1'], 2: ['d1'] } },
      // B has no result for we_2 step 2: left out of the comparison, counted in onlyA
      B: { we_1: { 1: ['k1', 'k2', 'v1', 'k2', 'zzz'], 2: ['k1', 'n2'], 3: [] }, we_2: { 1: ['d2'] } },
    },
  );
}

describe('compareRuns', () => {
  const bench = fixture();
  const cmp = compareRuns(bench, bench.runs.get('A')!, bench.runs.get('B')!);

  it('pairs the scored steps both runs have, and counts the others', () => {
    expect(cmp.steps.map((s) => `${s.userId}/${s.stepId}`)).toEqual(['we_1/1', 'we_1/2', 'we_2/1']);
    expect(cmp.onlyA).toBe(1);
    expect(cmp.onlyB).toBe(0);
  });

  it('computes per-step deltas B − A by hand', () => {
    const [a, b, c] = cmp.steps;
    // we_1/1: A hits k1, n1 and picks d1; B hits k1, k2 and picks v1 (duplicates and out-of-pool ignored)
    expect(a.a.Recall).toBeCloseTo(2 / 3, 15);
    expect(a.b.Recall).toBeCloseTo(2 / 3, 15);
    expect(a.delta.Recall).toBeCloseTo(0, 15);
    expect(a.delta.Recall_Stability).toBe(0.5);
    expect(a.delta.Recall_Novelty).toBe(-1);
    expect(a.delta.Error_Decay).toBe(-1);
    expect(a.delta.Error_Viral).toBe(1);
    expect(a.delta.Error_Peer).toBe(0);
    // we_1/2: A picks nothing, B hits both positives
    expect(b.delta.Recall).toBe(1);
    // we_2/1: A hits k1 (R = 1), B picks only a decay distractor; T_new is empty: R_nov undefined for both
    expect(c.delta.Recall).toBe(-1);
    expect(c.delta.Error_Decay).toBeCloseTo(1 / 3, 15);
    expect(c.delta.Recall_Novelty).toBeNaN();
  });

  it('concatenates per-platform comparisons into the whole one', () => {
    const two = memBench(
      [
        { platform: 'weibo', userId: 'we_1', steps: [s1] },
        { platform: 'douban', userId: 'do_1', steps: [s2] },
      ],
      { A: { we_1: { 1: ['k1'] }, do_1: { 1: [] } }, B: { we_1: { 1: ['n1'] }, do_1: { 1: ['k1'] } } },
    );
    const [a, b] = [two.runs.get('A')!, two.runs.get('B')!];
    const whole = compareRuns(two, a, b);
    expect(whole.users.map((u) => u.platform)).toEqual(['weibo', 'douban']);
    expect(mergeComparisons([compareRuns(two, a, b, ['weibo']), compareRuns(two, a, b, ['douban'])])).toEqual(whole);
  });

  it('lists the flipped tags with their class', () => {
    expect(cmp.steps[0].flips).toEqual({
      gained: [{ tag: 'k2', cls: 'tKeep' }],
      lost: [{ tag: 'n1', cls: 'tNew' }],
      newWrong: [{ tag: 'v1', cls: 'dViral' }],
      droppedWrong: [{ tag: 'd1', cls: 'dDecay' }],
    });
    expect(cmp.steps[1].flips.gained.map((t) => t.tag)).toEqual(['k1', 'n2']);
    expect(cmp.steps[1].flips.lost).toEqual([]);
  });

  it('a tag listed as positive and as distractor flips only as a positive', () => {
    const f = tagFlips(split({ tKeep: ['x'], dDecay: ['x', 'y'] }), [], ['x', 'y']);
    expect(f.gained).toEqual([{ tag: 'x', cls: 'tKeep' }]);
    expect(f.newWrong).toEqual([{ tag: 'y', cls: 'dDecay' }]);
  });

  it('keeps per-user means over the paired steps only', () => {
    const u2 = cmp.users.find((u) => u.userId === 'we_2')!;
    expect(u2.steps).toBe(1);
    expect(u2.a.Recall).toBe(1);
    expect(u2.b.Recall).toBe(0);
    const u1 = cmp.users.find((u) => u.userId === 'we_1')!;
    // A: R_nov mean of (1, 0) = 0.5, R_stab mean of (0.5, 0) = 0.25 -> F1 = 2·0.5·0.25/0.75 = 1/3
    expect(u1.a.F1NS).toBeCloseTo(1 / 3, 15);
    // B: R_nov (0, 1) -> 0.5, R_stab (1, 1) -> 1 -> F1 = 2·0.5/1.5 = 2/3
    expect(u1.b.F1NS).toBeCloseTo(2 / 3, 15);
  });

  it('sorts by the biggest regression, or gain, with error rates reversed', () => {
    const key = (list: typeof cmp.steps) => list.map((s) => `${s.userId}/${s.stepId}`);
    expect(key(sortStepDeltas(cmp.steps, 'Recall', 'regression'))).toEqual(['we_2/1', 'we_1/1', 'we_1/2']);
    expect(key(sortStepDeltas(cmp.steps, 'Recall', 'gain'))).toEqual(['we_1/2', 'we_1/1', 'we_2/1']);
    // Error_Decay: we_2/1 got worse (+1/3), we_1/1 better (−1), we_1/2 unchanged (0)
    expect(key(sortStepDeltas(cmp.steps, 'Error_Decay', 'regression'))).toEqual(['we_2/1', 'we_1/2', 'we_1/1']);
    // R_nov is undefined for we_2/1: last in both orders
    expect(key(sortStepDeltas(cmp.steps, 'Recall_Novelty', 'regression'))).toEqual(['we_1/1', 'we_1/2', 'we_2/1']);
    expect(key(sortStepDeltas(cmp.steps, 'Recall_Novelty', 'gain'))).toEqual(['we_1/2', 'we_1/1', 'we_2/1']);
    expect(improvement('Error_Peer', 0.25)).toBe(-0.25);
    expect(improvement('F1NS', 0.25)).toBe(0.25);
  });
});

const values = (recall: number, extra: Partial<Record<string, number>> = {}) => {
  const v = Object.fromEntries([...METRIC_KEYS, 'F1NS'].map((k) => [k, NaN])) as UserPair['a'];
  return { ...v, Recall: recall, ...extra };
};
function pairs(platform: Platform, diffs: number[], base = 0.5): UserPair[] {
  return diffs.map((d, i) => ({
    platform,
    userId: `${platform}_${i}`,
    steps: 1,
    a: values(base, { Error_Decay: 0.2 }),
    b: values(base + d, { Error_Decay: 0.2 + d }),
  }));
}
const comparison = (users: UserPair[]): RunComparison => ({
  runA: 'A',
  runB: 'B',
  steps: [],
  users,
  onlyA: 0,
  onlyB: 0,
});

describe('pairedSummary', () => {
  it('gives a zero-width interval for a constant difference, stratified by platform', () => {
    // weibo: 3 users, +0.1 each; douban: 1 user, +0.3. Scope "all" averages the platforms: (0.1 + 0.3) / 2 = 0.2
    // (pooling the users would give 0.15).
    const cmp = comparison([...pairs('weibo', [0.1, 0.1, 0.1]), ...pairs('douban', [0.3])]);
    const r = pairedSummary(cmp, 'all', { resamples: 200, seed: 7 }).find((x) => x.metric === 'Recall')!;
    expect(r.diff).toBeCloseTo(0.2, 12);
    expect(r.meanA).toBeCloseTo(0.5, 12);
    expect(r.meanB).toBeCloseTo(0.7, 12);
    expect(r.ciLow).toBeCloseTo(0.2, 12);
    expect(r.ciHigh).toBeCloseTo(0.2, 12);
    expect(r.userWtl).toEqual({ win: 4, tie: 0, loss: 0 });
    const w = pairedSummary(cmp, 'weibo', { resamples: 50 }).find((x) => x.metric === 'Recall')!;
    expect(w.diff).toBeCloseTo(0.1, 12);
    expect(w.users).toBe(3);
  });

  it('counts an error rate that went up as a loss', () => {
    const cmp = comparison(pairs('weibo', [0.1, -0.1, 0]));
    const e = pairedSummary(cmp, 'all', { resamples: 10 }).find((x) => x.metric === 'Error_Decay')!;
    expect(e.userWtl).toEqual({ win: 1, tie: 1, loss: 1 });
    const r = pairedSummary(cmp, 'all', { resamples: 10 }).find((x) => x.metric === 'Recall')!;
    expect(r.userWtl).toEqual({ win: 1, tie: 1, loss: 1 });
  });

  it('is deterministic for a seed, contains the mean, and narrows with more users', () => {
    const diffs = [0.317, -0.093, 0.051, 0.229, -0.247, 0.163, 0.004, 0.118, -0.061, 0.402];
    const small = comparison(pairs('zhihu', diffs));
    const run = (seed: number) =>
      pairedSummary(small, 'all', { resamples: 500, seed }).find((x) => x.metric === 'Recall')!;
    const a = run(42);
    expect(run(42)).toEqual(a);
    expect(run(43).ciLow).not.toBe(a.ciLow);
    expect(a.diff).toBeCloseTo(diffs.reduce((s, d) => s + d, 0) / diffs.length, 12);
    expect(a.ciLow).toBeLessThan(a.diff);
    expect(a.ciHigh).toBeGreaterThan(a.diff);
    expect(a.ciLow).toBeGreaterThanOrEqual(Math.min(...diffs));
    expect(a.ciHigh).toBeLessThanOrEqual(Math.max(...diffs));
    // The same differences, sixteen times as many users: the interval is about four times narrower.
    const big = comparison(pairs('zhihu', Array.from({ length: 16 }, () => diffs).flat()));
    const b = pairedSummary(big, 'all', { resamples: 500, seed: 42 }).find((x) => x.metric === 'Recall')!;
    expect(b.diff).toBeCloseTo(a.diff, 12);
    expect(b.ciHigh - b.ciLow).toBeLessThan((a.ciHigh - a.ciLow) / 2);
  });

  it('gives the same result when the resamples run in chunks', () => {
    const cmp = comparison([...pairs('zhihu', [0.31, -0.12, 0.07, 0.22]), ...pairs('weibo', [-0.4, 0.05, 0.19])]);
    const boot = new PairedBootstrap(cmp, 'all', { resamples: 300, seed: 5 });
    let chunks = 0;
    while (!boot.run(37)) chunks++;
    expect(chunks).toBe(8); // 37 · 8 = 296 < 300: the ninth call finishes
    expect(boot.result()).toEqual(pairedSummary(cmp, 'all', { resamples: 300, seed: 5 }));
  });

  it('skips metrics that are undefined for every user', () => {
    const cmp = comparison(pairs('weibo', [0.1, 0.2]));
    const nov = pairedSummary(cmp, 'all', { resamples: 20 }).find((x) => x.metric === 'Recall_Novelty')!;
    expect(nov.diff).toBeNaN();
    expect(nov.ciLow).toBeNaN();
    expect(nov.users).toBe(0);
    expect(nov.stepWtl).toEqual({ win: 0, tie: 0, loss: 0 });
    expect(pairedSummary(cmp, 'all', { resamples: 20 }).find((x) => x.metric === 'F1NS')!.stepWtl).toBeNull();
  });
});

describe('helpers', () => {
  it('mulberry32 repeats for a seed and stays in [0, 1)', () => {
    const a = mulberry32(123);
    const b = mulberry32(123);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    // roughly uniform: the mean of 1000 draws is within 0.05 of 0.5
    expect(Math.abs(xs.reduce((s, x) => s + x, 0) / xs.length - 0.5)).toBeLessThan(0.05);
  });
  it('quantile interpolates like numpy (type 7)', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
    expect(quantile([5], 0.975)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
