import { describe, expect, it } from 'vitest';
import {
  aggregateUsers,
  kForPool,
  roundHalfEven,
  scoreStep,
  scoreUser,
  stepDiagnostics,
  userF1ns,
} from '../../src/core/spb/score/step';
import type { PoolSplit, StepMetrics } from '../../src/core/spb/types';

const split = (s: Partial<PoolSplit>): PoolSplit => ({
  tKeep: [],
  tNew: [],
  dDecay: [],
  dPeer: [],
  dViral: [],
  dRandom: [],
  ...s,
});

describe('k', () => {
  it('is max(1, round(0.25 * |C|)) with Python round-half-even, for every pool size 1..40', () => {
    // Hand table: 0.25n has a .5 fraction for n = 2, 6, 10, ...; Python rounds those to the even neighbour.
    const expected: Record<number, number> = {
      1: 1,
      2: 1,
      3: 1,
      4: 1,
      5: 1,
      6: 2,
      7: 2,
      8: 2,
      9: 2,
      10: 2,
      11: 3,
      12: 3,
      13: 3,
      14: 4,
      15: 4,
      16: 4,
      17: 4,
      18: 4,
      19: 5,
      20: 5,
      21: 5,
      22: 6,
      23: 6,
      24: 6,
      25: 6,
      26: 6,
      27: 7,
      28: 7,
      29: 7,
      30: 8,
      31: 8,
      32: 8,
      33: 8,
      34: 8,
      35: 9,
      36: 9,
      37: 9,
      38: 10,
      39: 10,
      40: 10,
    };
    for (let n = 1; n <= 40; n++) expect(kForPool(n), `|C| = ${n}`).toBe(expected[n]);
  });
  it('rounds halves to even like Python', () => {
    expect([0.5, 1.5, 2.5, 3.5, 4.5, 0.75, 1.25].map(roundHalfEven)).toEqual([0, 2, 2, 4, 4, 1, 1]);
  });
});

describe('scoreStep', () => {
  const s = split({
    tKeep: ['k1', 'k2'],
    tNew: ['n1'],
    dDecay: ['d1', 'd2'],
    dPeer: ['p1'],
    dViral: ['v1', 'v2', 'v3'],
    dRandom: [],
  });

  it('computes the seven metrics on sets', () => {
    const m = scoreStep(s, ['k1', 'n1', 'd1', 'v1'])!;
    expect(m.Recall).toBeCloseTo(2 / 3, 15);
    expect(m.Recall_Novelty).toBe(1);
    expect(m.Recall_Stability).toBe(0.5);
    expect(m.Error_Decay).toBe(0.5);
    expect(m.Error_Peer).toBe(0);
    expect(m.Error_Viral).toBeCloseTo(1 / 3, 15);
    expect(m.Error_Random).toBeNaN();
  });
  it('collapses duplicate picks and never matches out-of-pool or non-string picks', () => {
    const m = scoreStep(s, ['k1', 'k1', 'k1', 'zzz', 7, null, 'n1 '])!;
    expect(m.Recall).toBeCloseTo(1 / 3, 15);
    expect(m.Recall_Stability).toBe(0.5);
    expect(m.Recall_Novelty).toBe(0);
  });
  it('does not score a step with no positives', () => {
    expect(scoreStep(split({ dDecay: ['d'] }), ['d'])).toBeNull();
    expect(stepDiagnostics(split({ dDecay: ['d'] }), ['d'])).toBeNull();
  });
  it('gives NaN novelty when T_new is empty', () => {
    const m = scoreStep(split({ tKeep: ['a'], dDecay: ['b', 'c', 'd'] }), ['a'])!;
    expect(m.Recall_Novelty).toBeNaN();
    expect(m.Recall_Stability).toBe(1);
  });
});

describe('diagnostics', () => {
  it('computes K, delta, budget, alpha and ratio, and the identity holds for exactly K in-pool picks', () => {
    const s = split({
      tKeep: ['k1', 'k2', 'k3'],
      tNew: ['n1'],
      dDecay: ['d1', 'd2', 'd3', 'd4'],
      dPeer: ['p1', 'p2', 'p3', 'p4'],
      dViral: ['v1', 'v2', 'v3', 'v4'],
    });
    const picks = ['k1', 'k2', 'd1', 'p2'];
    const d = stepDiagnostics(s, picks)!;
    expect(d).toEqual({ K: 4, delta: 2, budget: 0.5, alpha: 0.75, ratio: 0 });
    const m = scoreStep(s, picks)!;
    expect(d.alpha * m.Recall_Stability + (1 - d.alpha) * m.Recall_Novelty).toBeCloseTo(d.budget, 12);
    const d2 = stepDiagnostics(s, ['k1', 'n1', 'd1', 'd2'])!;
    expect(d2.ratio).toBeCloseTo(1 / (1 / 3), 12);
  });
});

const m = (nov: number, stab: number, recall = 0.5): StepMetrics => ({
  Recall: recall,
  Recall_Novelty: nov,
  Recall_Stability: stab,
  Error_Decay: 0,
  Error_Peer: NaN,
  Error_Viral: 0.25,
  Error_Random: 0,
});

describe('aggregation', () => {
  it('averages per user skipping NaN, then over users skipping NaN', () => {
    const u1 = scoreUser([m(NaN, 1, 1), m(0.5, 0, 0.2)])!;
    const u2 = scoreUser([m(1, 1, 0.9)])!;
    expect(u1.metrics.Recall).toBeCloseTo(0.6, 15);
    expect(u1.metrics.Recall_Novelty).toBe(0.5);
    expect(u1.metrics.Recall_Stability).toBe(0.5);
    expect(u1.metrics.Error_Peer).toBeNaN();
    const agg = aggregateUsers([u1, u2]);
    expect(agg.users).toBe(2);
    expect(agg.steps).toBe(3);
    expect(agg.metrics.Recall).toBeCloseTo(0.75, 15);
    expect(agg.metrics.Error_Peer).toBeNaN();
    // per-user F1: u1 = 2*.5*.5/1 = .5, u2 = 1 -> mean .75
    expect(agg.f1ns).toBeCloseTo(0.75, 15);
    // harmonic of macro means: nov .75, stab .75 -> .75 (equal here by construction)
    expect(agg.f1nsHarmonicOfMeans).toBeCloseTo(0.75, 15);
  });
  it('leaves a user with a = b = 0 out of F1^NS instead of scoring 0, and the two readings differ', () => {
    const zero = scoreUser([m(0, 0)])!;
    const good = scoreUser([m(1, 0.5)])!;
    expect(userF1ns(zero)).toBeNaN();
    const agg = aggregateUsers([zero, good]);
    expect(agg.f1ns).toBeCloseTo((2 * 1 * 0.5) / 1.5, 15);
    // second reading: nov mean .5, stab mean .25 -> 2*.5*.25/.75
    expect(agg.f1nsHarmonicOfMeans).toBeCloseTo(1 / 3, 15);
  });
  it('leaves out a user whose novelty is undefined on every step', () => {
    const noNew = scoreUser([m(NaN, 1)])!;
    const agg = aggregateUsers([noNew]);
    expect(agg.f1ns).toBeNaN();
    expect(agg.metrics.Recall_Stability).toBe(1);
  });
  it('gives no user score for no scored steps', () => {
    expect(scoreUser([])).toBeNull();
  });
});
