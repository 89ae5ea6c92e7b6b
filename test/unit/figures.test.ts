import { describe, expect, it } from 'vitest';
import {
  constraintSegment,
  get,
  harmonic,
  isoF1Curve,
  macroMean,
  operatingPoint,
  platformFigures,
  recallByStep,
  runTable,
  COLUMNS,
  scopeMean,
  scoredSteps,
} from '../../src/core/spb/score/figures';
import { mulberry32 } from '../../src/core/stats/random';
import { scoreAndDiagnose, scoreStep, stepDiagnostics } from '../../src/core/spb/score/step';
import { POOL_CLASSES, type PoolSplit } from '../../src/core/spb/types';
import {
  dashboardModel,
  filterSteps,
  filterTitle,
  runFigures,
  type FiguresCache,
} from '../../src/extension/benchmarks/spb/dashboard/model';
import { memBench, split } from './compare-fixture';

// weibo we_1: two scored steps and one unscored; we_2: one scored step; douban do_1: one scored step.
// K = |C+|; δ = picks in C−; B = 1 − δ/K; α = |T_keep| / K.
const sa = split({ tKeep: ['k1'], tNew: ['n1'], dDecay: ['d1', 'd2'], dPeer: ['p1'], dViral: ['v1'], dRandom: ['r1'] }); // K = 2, α = 1/2
const sb = split({
  tKeep: ['k1', 'k2', 'k3'],
  tNew: ['n1'],
  dDecay: ['d1'],
  dPeer: ['p1'],
  dViral: ['v1'],
  dRandom: ['r1', 'r2', 'r3', 'r4', 'r5'],
}); // K = 4, α = 3/4
const sc = split({ tKeep: ['k1'], dDecay: ['d1', 'd2', 'd3'] }); // K = 1, α = 1, T_new empty: ρ undefined
const none = split({ dRandom: ['r1'] });

const bench = memBench(
  [
    { platform: 'weibo', userId: 'we_1', steps: [sa, sb, none] },
    { platform: 'weibo', userId: 'we_2', steps: [sc] },
    { platform: 'douban', userId: 'do_1', steps: [sa] },
  ],
  {
    run: {
      we_1: { 1: ['k1', 'n1'], 2: ['k1', 'n1', 'd1', 'r1'], 3: ['r1'] }, // step 1: B = 1, ρ = 1; step 2: δ = 2, B = 1/2, R_stab 1/3, R_nov 1, ρ = 3
      we_2: { 1: ['d1'] }, // δ = 1, K = 1: B = 0
      do_1: { 1: ['d1', 'p1'] }, // δ = 2, K = 2: B = 0; R_stab = R_nov = 0: ρ undefined
    },
  },
);
const points = scoredSteps(bench, bench.runs.get('run')!);

describe('per-step points and means', () => {
  it('keeps the scored steps with a result, with their diagnostics', () => {
    expect(points.map((p) => `${p.platform}/${p.userId}/${p.stepId}`)).toEqual([
      'weibo/we_1/1',
      'weibo/we_1/2',
      'weibo/we_2/1',
      'douban/do_1/1',
    ]);
    expect(points.map((p) => p.diag.budget)).toEqual([1, 0.5, 0, 0]);
    expect(points.map((p) => p.diag.alpha)).toEqual([0.5, 0.75, 1, 0.5]);
    expect(points.map(get.ratio)).toEqual([1, 3, NaN, NaN]);
  });

  it('macro-averages per user first, then over users', () => {
    const weibo = points.filter((p) => p.platform === 'weibo');
    // we_1: (1 + 0.5) / 2 = 0.75; we_2: 0 -> 0.375 (the plain step mean would be 0.5)
    expect(macroMean(weibo, get.budget)).toBe(0.375);
    // ᾱ: we_1 (0.5 + 0.75) / 2 = 0.625, we_2 1 -> 0.8125
    expect(macroMean(weibo, get.alpha)).toBe(0.8125);
    // ρ̄: we_1 (1 + 3) / 2 = 2; we_2 undefined, skipped -> 2
    expect(macroMean(weibo, get.ratio)).toBe(2);
    // "all": mean of the platform figures (0.375 and douban 0)
    expect(scopeMean(points, 'all', get.budget)).toBe(0.1875);
    expect(scopeMean(points, 'douban', get.budget)).toBe(0);
  });

  it('builds the run table with the same numbers as macroMean, per platform and column', () => {
    const table = runTable(points);
    expect([...table.keys()]).toEqual(['weibo', 'douban']);
    for (const [platform, row] of table) {
      const mine = points.filter((p) => p.platform === platform);
      COLUMNS.forEach((c, i) => {
        const fn = c === 'budget' || c === 'alpha' || c === 'ratio' ? get[c] : get.metric(c);
        expect(row.means[i], `${platform} ${c}`).toBe(macroMean(mine, fn));
      });
    }
    expect(table.get('weibo')).toMatchObject({ steps: 3, ratioSteps: 2 });
  });

  it('gives the operating point of a scope', () => {
    const op = operatingPoint(points, 'weibo');
    // R_stab: we_1 (1 + 1/3) / 2 = 2/3, we_2 0 -> 1/3; R_nov: we_1 (1 + 1) / 2 = 1, we_2 undefined -> 1
    expect(op.rStab).toBeCloseTo(1 / 3, 15);
    expect(op.rNov).toBe(1);
    // F1 of the point: 2 · (1/3) · 1 / (4/3) = 1/2
    expect(op.f1).toBeCloseTo(0.5, 15);
    expect(op.steps).toBe(3);
    expect(op.ratioSteps).toBe(2);
    const all = operatingPoint(points, 'all');
    expect(all.steps).toBe(4);
    expect(all.budget).toBe(0.1875);
    expect(all.ratio).toBe(2); // douban has no defined ρ: the mean over platforms skips it
  });

  it('takes Recall by step index over the scored steps at that index', () => {
    // step 1: we_1 R = 1, we_2 R = 0, do_1 R = 0 -> 1/3; step 2: we_1 R = 2/4
    const by = recallByStep(points, 'all');
    expect(by.map((b) => b.stepId)).toEqual([1, 2]);
    expect(by[0].recall).toBeCloseTo(1 / 3, 15);
    expect(by[0].steps).toBe(3);
    expect(by[1]).toEqual({ stepId: 2, recall: 0.5, steps: 1 });
    expect(recallByStep(points, 'weibo')[0]).toEqual({ stepId: 1, recall: 0.5, steps: 2 });
  });

  it('gives error rates and ᾱ per platform', () => {
    const [weibo, douban] = platformFigures(points);
    expect(weibo.platform).toBe('weibo');
    // Error_Decay: we_1 (0 + 1) / 2 = 0.5, we_2 1/3 -> 5/12
    expect(weibo.errors.Error_Decay).toBeCloseTo(5 / 12, 15);
    // Error_Random: we_1 (0 + 1/5) / 2 = 0.1, we_2 undefined (no D_random) -> 0.1
    expect(weibo.errors.Error_Random).toBeCloseTo(0.1, 15);
    expect(weibo.alpha).toBe(0.8125);
    expect(douban.errors.Error_Decay).toBe(0.5);
    expect(douban.errors.Error_Peer).toBe(1);
  });
});

/** The spec's rules written the plain way (sets per class), to check the indexed scorer against. */
function naiveScore(sp: PoolSplit, prediction: unknown[]) {
  const picks = new Set(prediction.filter((p): p is string => typeof p === 'string'));
  const rate = (tags: string[]) => {
    const set = new Set(tags);
    return set.size === 0 ? NaN : [...set].filter((t) => picks.has(t)).length / set.size;
  };
  const positives = new Set([...sp.tNew, ...sp.tKeep]);
  if (positives.size === 0) return null;
  const negatives = new Set([...sp.dDecay, ...sp.dPeer, ...sp.dViral, ...sp.dRandom]);
  const delta = [...picks].filter((p) => negatives.has(p) && !positives.has(p)).length;
  const metrics = {
    Recall: rate([...positives]),
    Recall_Novelty: rate(sp.tNew),
    Recall_Stability: rate(sp.tKeep),
    Error_Decay: rate(sp.dDecay),
    Error_Peer: rate(sp.dPeer),
    Error_Viral: rate(sp.dViral),
    Error_Random: rate(sp.dRandom),
  };
  const rho =
    Number.isNaN(metrics.Recall_Novelty) || Number.isNaN(metrics.Recall_Stability) || metrics.Recall_Stability === 0
      ? NaN
      : metrics.Recall_Novelty / metrics.Recall_Stability;
  const K = positives.size;
  return { metrics, diag: { K, delta, budget: 1 - delta / K, alpha: new Set(sp.tKeep).size / K, ratio: rho } };
}

describe('scoreAndDiagnose', () => {
  it("gives the plain set-based rules' metrics and diagnostics on 3000 random pools and predictions", () => {
    // Small alphabet, so classes overlap and repeat (broken invariants must score as the reference does).
    const rng = mulberry32(2024);
    const tags = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', '__proto__', '#话题#'];
    const some = (max: number) =>
      Array.from({ length: Math.floor(rng() * (max + 1)) }, () => tags[Math.floor(rng() * tags.length)]);
    let scored = 0;
    for (let n = 0; n < 3000; n++) {
      const sp = Object.fromEntries(POOL_CLASSES.map((c) => [c, some(3)])) as PoolSplit;
      const prediction: unknown[] = [...some(5), ...(rng() < 0.2 ? [7, null, 'zzz'] : [])];
      const fused = scoreAndDiagnose(sp, prediction);
      const expected = naiveScore(sp, prediction);
      expect(fused, JSON.stringify({ sp, prediction })).toEqual(expected);
      expect(scoreStep(sp, prediction)).toEqual(expected?.metrics ?? null);
      expect(stepDiagnostics(sp, prediction)).toEqual(expected?.diag ?? null);
      // Once indexed, the split scores another prediction right too (the index is shared by runs).
      expect(scoreAndDiagnose(sp, ['a', 'b'])).toEqual(naiveScore(sp, ['a', 'b']));
      if (expected) scored++;
    }
    expect(scored).toBeGreaterThan(2000);
  });
});

describe('Figure 4 geometry', () => {
  it('clips the constraint line to the unit square', () => {
    expect(constraintSegment(0.5, 0.5)).toEqual([
      { x: 0, y: 1 },
      { x: 1, y: 0 },
    ]);
    // 0.25x + 0.75y = 0.9: y = 1 at x = 0.6; x = 1 at y = 0.65 / 0.75
    const s = constraintSegment(0.25, 0.9);
    expect(s).toHaveLength(2);
    expect(s[0].x).toBeCloseTo(0.6, 12);
    expect(s[0].y).toBe(1);
    expect(s[1].x).toBe(1);
    expect(s[1].y).toBeCloseTo(0.65 / 0.75, 12);
    // α = 1: vertical at x = B; α = 0: horizontal at y = B
    expect(constraintSegment(1, 0.7)).toEqual([
      { x: 0.7, y: 0 },
      { x: 0.7, y: 1 },
    ]);
    expect(constraintSegment(0, 0.4)).toEqual([
      { x: 0, y: 0.4 },
      { x: 1, y: 0.4 },
    ]);
    // B = 1, α = 0.5: touches the corner (1, 1) only; B < 0 misses the square
    expect(constraintSegment(0.5, 1)).toEqual([{ x: 1, y: 1 }]);
    expect(constraintSegment(0.5, -0.5)).toEqual([]);
    expect(constraintSegment(NaN, 0.5)).toEqual([]);
  });

  it('draws iso-F1 curves from (f/(2−f), 1) to (1, f/(2−f))', () => {
    const c = isoF1Curve(0.5, 11);
    expect(c).toHaveLength(11);
    expect(c[0].x).toBeCloseTo(1 / 3, 12);
    expect(c[0].y).toBeCloseTo(1, 12);
    expect(c[10]).toEqual({ x: 1, y: expect.closeTo(1 / 3, 12) });
    for (const p of c) expect(harmonic(p.x, p.y)).toBeCloseTo(0.5, 12);
    expect(isoF1Curve(1)).toEqual([{ x: 1, y: 1 }]);
    expect(isoF1Curve(0)).toEqual([]);
    expect(isoF1Curve(NaN)).toEqual([]);
  });
});

describe('dashboard figure data and step lists', () => {
  it("puts each scope's operating point with its line and contour, NaN as null", () => {
    const f = runFigures('run', points, ['all', 'weibo', 'douban']);
    expect(f.scopes.douban?.op.ratio).toBeNull();
    expect(f.scopes.douban?.op.rStab).toBe(0);
    expect(f.scopes.douban?.op.contour).toEqual([]); // F1 of (0, 0) is undefined
    expect(f.scopes.weibo?.op.segment).toEqual(constraintSegment(0.8125, 0.375));
    expect(f.platforms.map((p) => p.platform)).toEqual(['weibo', 'douban']);
  });

  it("reuses a run's figure data while its points and scopes stay the same", () => {
    const cache: FiguresCache = new Map();
    const input = {
      benchmark: 'b',
      runs: ['run'],
      selected: ['run'],
      focus: 'run',
      scores: [],
      points: new Map([['run', points]]),
      cache,
    };
    const first = dashboardModel(input);
    expect(first.scopes).toEqual(['all', 'weibo', 'douban']);
    expect(dashboardModel(input).figures[0]).toBe(first.figures[0]);
    const copy = [...points];
    expect(dashboardModel({ ...input, points: new Map([['run', copy]]) }).figures[0]).not.toBe(first.figures[0]);
  });

  it('filters and sorts the steps behind a click', () => {
    const key = (rows: ReturnType<typeof filterSteps>) => rows.map((r) => `${r.userId}/${r.stepId}`);
    expect(key(filterSteps(points, { run: 'run', scope: 'weibo', sort: 'budget' }))).toEqual([
      'we_2/1',
      'we_1/2',
      'we_1/1',
    ]);
    expect(key(filterSteps(points, { run: 'run', scope: 'all', stepId: 1 }))).toEqual(['we_2/1', 'do_1/1', 'we_1/1']);
    // Err decay > 0: we_1/2 (1), we_2/1 (1/3), do_1/1 (1/2), highest first
    expect(
      key(filterSteps(points, { run: 'run', scope: 'all', errorKey: 'Error_Decay', sort: 'Error_Decay' })),
    ).toEqual(['we_1/2', 'do_1/1', 'we_2/1']);
    // ρ undefined sorts last
    expect(key(filterSteps(points, { run: 'run', scope: 'all', sort: 'ratio' }))).toEqual([
      'we_1/1',
      'we_1/2',
      'we_2/1',
      'do_1/1',
    ]);
    expect(filterTitle({ run: 'run', scope: 'zhihu', errorKey: 'Error_Peer' })).toBe('run · Zhihu · Err_peer > 0');
    expect(filterTitle({ run: 'r', scope: 'all', stepId: 3 })).toBe('r · all platforms · step 3');
  });
});
