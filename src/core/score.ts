// Scoring exactly as the StreamProfileBench reference runner (spec section 5). Python semantics where JS differs.
import { METRIC_KEYS, type MetricKey, type PoolSplit, type StepMetrics } from './types';

/** Python's round(): half to even. 0.25 * n is exact in binary floating point, so ties are real ties. */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** k = max(1, round(0.25 * |C|)), with Python's round. */
export function kForPool(poolSize: number): number {
  return Math.max(1, roundHalfEven(0.25 * poolSize));
}

/** The distinct string picks; non-strings are never matched, as in the reference's set intersection. */
export function pickSet(prediction: readonly unknown[]): Set<string> {
  const picks = new Set<string>();
  for (const p of prediction) if (typeof p === 'string') picks.add(p);
  return picks;
}

function hits(picks: Set<string>, tags: readonly string[]): number {
  let n = 0;
  for (const t of new Set(tags)) if (picks.has(t)) n++;
  return n;
}

function rate(picks: Set<string>, tags: readonly string[]): number {
  const size = new Set(tags).size;
  return size === 0 ? NaN : hits(picks, tags) / size;
}

/** The seven metrics of one step, or null when T_new and T_keep are both empty (the step is not scored). */
export function scoreStep(split: PoolSplit, prediction: readonly unknown[]): StepMetrics | null {
  const positives = [...split.tNew, ...split.tKeep];
  if (positives.length === 0) return null;
  const picks = pickSet(prediction);
  return {
    Recall: rate(picks, positives),
    Recall_Novelty: rate(picks, split.tNew),
    Recall_Stability: rate(picks, split.tKeep),
    Error_Decay: rate(picks, split.dDecay),
    Error_Peer: rate(picks, split.dPeer),
    Error_Viral: rate(picks, split.dViral),
    Error_Random: rate(picks, split.dRandom),
  };
}

/** Per-step diagnostics of the paper's appendix B.1. */
export interface StepDiagnostics {
  /** K = |C+| */
  K: number;
  /** δ = picks that fall in C- */
  delta: number;
  /** B = 1 - δ/K */
  budget: number;
  /** α = |T_keep| / K */
  alpha: number;
  /** ρ = Recall_Novelty / Recall_Stability (NaN or ±Infinity where Python would not divide: see ratio()) */
  ratio: number;
}

/** Python float division semantics are not needed here: the ratio is a diagnostic, so x/0 is reported as NaN. */
export function ratio(novelty: number, stability: number): number {
  if (Number.isNaN(novelty) || Number.isNaN(stability) || stability === 0) return NaN;
  return novelty / stability;
}

export function stepDiagnostics(split: PoolSplit, prediction: readonly unknown[]): StepDiagnostics | null {
  const metrics = scoreStep(split, prediction);
  if (!metrics) return null;
  const positives = new Set([...split.tNew, ...split.tKeep]);
  const negatives = new Set([...split.dDecay, ...split.dPeer, ...split.dViral, ...split.dRandom]);
  const picks = pickSet(prediction);
  let delta = 0;
  for (const p of picks) if (negatives.has(p) && !positives.has(p)) delta++;
  const K = positives.size;
  return {
    K,
    delta,
    budget: 1 - delta / K,
    alpha: new Set(split.tKeep).size / K,
    ratio: ratio(metrics.Recall_Novelty, metrics.Recall_Stability),
  };
}

/** Mean skipping NaN, summing in order as Python's sum(); NaN when nothing is left. */
export function nanMean(values: readonly number[]): number {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? NaN : sum / n;
}

export type MetricsTable = Record<MetricKey, number>;

export interface UserScore {
  steps: number; // scored steps
  metrics: MetricsTable; // per-user mean of each metric over scored steps, NaN-skipping
}

export function scoreUser(stepMetrics: readonly StepMetrics[]): UserScore | null {
  if (stepMetrics.length === 0) return null;
  const metrics = {} as MetricsTable;
  for (const key of METRIC_KEYS) metrics[key] = nanMean(stepMetrics.map((m) => m[key]));
  return { steps: stepMetrics.length, metrics };
}

/** F1^NS of one user as the reference computes it: undefined unless a and b are defined and a + b > 0. */
export function userF1ns(user: UserScore): number {
  const a = user.metrics.Recall_Novelty;
  const b = user.metrics.Recall_Stability;
  if (Number.isNaN(a) || Number.isNaN(b) || !(a + b > 0)) return NaN;
  return (2 * a * b) / (a + b);
}

export interface AggregateScore {
  /** users with at least one scored step */
  users: number;
  /** scored steps */
  steps: number;
  /** M̄: two-level macro average (mean over users of per-user means), NaN-skipping at both levels */
  metrics: MetricsTable;
  /** F1^NS, reference reading: plain mean of per-user F1 over the users that count */
  f1ns: number;
  /** F1^NS, second reading (paper section 3.2): harmonic mean of macro R_nov and macro R_stab. Not the headline. */
  f1nsHarmonicOfMeans: number;
}

export function aggregateUsers(users: readonly UserScore[]): AggregateScore {
  const metrics = {} as MetricsTable;
  for (const key of METRIC_KEYS) metrics[key] = nanMean(users.map((u) => u.metrics[key]));
  const f1s = users.map(userF1ns);
  const a = metrics.Recall_Novelty;
  const b = metrics.Recall_Stability;
  const harmonic = Number.isNaN(a) || Number.isNaN(b) || !(a + b > 0) ? NaN : (2 * a * b) / (a + b);
  return {
    users: users.length,
    steps: users.reduce((s, u) => s + u.steps, 0),
    metrics,
    f1ns: nanMean(f1s),
    f1nsHarmonicOfMeans: harmonic,
  };
}
