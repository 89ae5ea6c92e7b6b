// Scoring exactly as the StreamProfileBench reference runner (spec section 5). Python semantics where JS differs.
import { METRIC_KEYS, POOL_CLASSES, type MetricKey, type PoolClass, type PoolSplit, type StepMetrics } from './types';

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

/**
 * Per split, built once and shared by every run scored on it: each tag's classes as a bit mask (bit i =
 * POOL_CLASSES[i]) and the distinct size of each class. Sets, as the reference: duplicates in meta lists collapse.
 */
export interface SplitIndex {
  classes: Map<string, number>;
  sizes: number[];
  /** K = |T_new ∪ T_keep| (distinct) */
  K: number;
}
const POSITIVE = 0b000011; // tKeep, tNew
const NEGATIVE = 0b111100; // dDecay, dPeer, dViral, dRandom
const CLASS_BIT = Object.fromEntries(POOL_CLASSES.map((c, i) => [c, i])) as Record<PoolClass, number>;
const indexes = new WeakMap<PoolSplit, SplitIndex>();

/** The split's index, built once per split object and cached. */
export function splitIndex(split: PoolSplit): SplitIndex {
  let ix = indexes.get(split);
  if (ix) return ix;
  const classes = new Map<string, number>();
  const sizes = POOL_CLASSES.map((cls, i) => {
    const tags = new Set(split[cls]);
    for (const t of tags) classes.set(t, (classes.get(t) ?? 0) | (1 << i));
    return tags.size;
  });
  let K = 0;
  for (const mask of classes.values()) if (mask & POSITIVE) K++;
  ix = { classes, sizes, K };
  indexes.set(split, ix);
  return ix;
}

/** Per-step diagnostics of the paper's appendix B.1. */
export interface StepDiagnostics {
  /** K = |C+| */
  K: number;
  /** δ = picks that fall in C- (and not in C+) */
  delta: number;
  /** B = 1 - δ/K */
  budget: number;
  /** α = |T_keep| / K */
  alpha: number;
  /** ρ = Recall_Novelty / Recall_Stability; NaN where either is undefined or R_stab = 0 */
  ratio: number;
}

/** The ratio is a diagnostic, so x/0 is reported as NaN rather than Infinity. */
export function ratio(novelty: number, stability: number): number {
  if (Number.isNaN(novelty) || Number.isNaN(stability) || stability === 0) return NaN;
  return novelty / stability;
}

/**
 * The seven metrics and the diagnostics of one step in one pass over the distinct picks; null when T_new and
 * T_keep are both empty (the step is not scored). Non-string and out-of-pool picks never match.
 */
export function scoreAndDiagnose(
  split: PoolSplit,
  prediction: readonly unknown[],
): { metrics: StepMetrics; diag: StepDiagnostics } | null {
  const ix = splitIndex(split);
  if (ix.K === 0) return null;
  const hit = [0, 0, 0, 0, 0, 0];
  let positives = 0;
  let delta = 0;
  for (const pick of pickSet(prediction)) {
    const mask = ix.classes.get(pick);
    if (!mask) continue;
    for (let i = 0; i < 6; i++) if (mask & (1 << i)) hit[i]++;
    if (mask & POSITIVE) positives++;
    else if (mask & NEGATIVE) delta++;
  }
  const rate = (cls: PoolClass) => {
    const i = CLASS_BIT[cls];
    return ix.sizes[i] === 0 ? NaN : hit[i] / ix.sizes[i];
  };
  const metrics: StepMetrics = {
    Recall: positives / ix.K,
    Recall_Novelty: rate('tNew'),
    Recall_Stability: rate('tKeep'),
    Error_Decay: rate('dDecay'),
    Error_Peer: rate('dPeer'),
    Error_Viral: rate('dViral'),
    Error_Random: rate('dRandom'),
  };
  const diag: StepDiagnostics = {
    K: ix.K,
    delta,
    budget: 1 - delta / ix.K,
    alpha: ix.sizes[CLASS_BIT.tKeep] / ix.K,
    ratio: ratio(metrics.Recall_Novelty, metrics.Recall_Stability),
  };
  return { metrics, diag };
}

/** The seven metrics of one step, or null when T_new and T_keep are both empty (the step is not scored). */
export function scoreStep(split: PoolSplit, prediction: readonly unknown[]): StepMetrics | null {
  return scoreAndDiagnose(split, prediction)?.metrics ?? null;
}

export function stepDiagnostics(split: PoolSplit, prediction: readonly unknown[]): StepDiagnostics | null {
  return scoreAndDiagnose(split, prediction)?.diag ?? null;
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
