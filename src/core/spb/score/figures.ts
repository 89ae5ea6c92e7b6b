// Data of the paper's figures for one run: budget B vs ratio ρ (Figure 3), the constraint line with iso-F1 contours
// (Figure 4), Recall by step index (Figure 5), error rates and the stability ratio α per platform. Pure TypeScript.
//
// Means, stated once: a platform's figure is the two-level macro average M̄ of the per-step values (per user the
// NaN-skipping mean over the user's scored steps, then the NaN-skipping mean over users), as the reference does for
// the metrics; the scope "all" is the mean of the platform figures, as the paper's "Avg." column.
import { resultFor } from './run';
import { nanMean, scoreAndDiagnose, type StepDiagnostics } from './step';
import { inSubset, type UserSubset } from './userSubset';
import {
  METRIC_KEYS,
  PLATFORMS,
  type Benchmark,
  type MetricKey,
  type Platform,
  type Run,
  type StepMetrics,
} from '../types';

export type Scope = 'all' | Platform;

/** One scored step of a run that has a result for it. */
export interface StepPoint {
  platform: Platform;
  userId: string;
  stepId: number;
  metrics: StepMetrics;
  diag: StepDiagnostics;
}

/** The scored steps the run has results for, in benchmark order; of the subset's users only when given one. */
export function scoredSteps(bench: Benchmark, run: Run, subset?: UserSubset): StepPoint[] {
  const out: StepPoint[] = [];
  for (const platform of PLATFORMS) {
    for (const user of bench.users.get(platform)?.values() ?? []) {
      if (!inSubset(subset, platform, user.userId)) continue;
      for (const step of user.steps) {
        const result = resultFor(run, user, step.stepId);
        if (!result) continue;
        const scored = scoreAndDiagnose(step.split, result.prediction);
        if (scored) out.push({ platform, userId: user.userId, stepId: step.stepId, ...scored });
      }
    }
  }
  return out;
}

export type Getter = (p: StepPoint) => number;

export const get = {
  metric:
    (key: MetricKey): Getter =>
    (p) =>
      p.metrics[key],
  budget: ((p) => p.diag.budget) as Getter,
  alpha: ((p) => p.diag.alpha) as Getter,
  /** NaN where undefined, and also where infinite (never: ratio() reports x/0 as NaN) */
  ratio: ((p) => (Number.isFinite(p.diag.ratio) ? p.diag.ratio : NaN)) as Getter,
};

/** Two-level macro mean over the points (all of one platform, or any set): per user, then over users; NaN-skipping. */
export function macroMean(points: readonly StepPoint[], fn: Getter): number {
  const byUser = new Map<string, number[]>();
  for (const p of points) {
    const key = `${p.platform}\u0000${p.userId}`;
    let list = byUser.get(key);
    if (!list) byUser.set(key, (list = []));
    list.push(fn(p));
  }
  return nanMean([...byUser.values()].map(nanMean));
}

/** The platform figure of each platform that has points. */
export function platformMeans(points: readonly StepPoint[], fn: Getter): Map<Platform, number> {
  const out = new Map<Platform, number>();
  for (const platform of PLATFORMS) {
    const mine = points.filter((p) => p.platform === platform);
    if (mine.length) out.set(platform, macroMean(mine, fn));
  }
  return out;
}

/** A platform's figure, or for "all" the mean of the platform figures (the tables' Avg. convention). */
export function scopeMean(points: readonly StepPoint[], scope: Scope, fn: Getter): number {
  if (scope !== 'all')
    return macroMean(
      points.filter((p) => p.platform === scope),
      fn,
    );
  return nanMean([...platformMeans(points, fn).values()]);
}

/** A run's operating point in a scope: mean diagnostics (Figure 3) and the macro recalls (Figure 4). */
export interface OperatingPoint {
  /** B̄: mean budget */
  budget: number;
  /** ρ̄: mean of the per-step ratios over the steps where ρ is defined (R_stab > 0 and both recalls defined) */
  ratio: number;
  /** ᾱ: mean stability ratio |T_keep| / K */
  alpha: number;
  rStab: number;
  rNov: number;
  /** 2·R_stab·R_nov / (R_stab + R_nov) of the point: the F1 whose contour passes through it */
  f1: number;
  /** scored steps in the scope, and those with a defined ρ */
  steps: number;
  ratioSteps: number;
}

export function harmonic(x: number, y: number): number {
  return Number.isNaN(x) || Number.isNaN(y) || !(x + y > 0) ? NaN : (2 * x * y) / (x + y);
}

/** The columns a run table holds per platform: the seven metrics and the three diagnostics B, α, ρ. */
export const COLUMNS = [...METRIC_KEYS, 'budget', 'alpha', 'ratio'] as const;
export type Column = (typeof COLUMNS)[number];

export interface PlatformRow {
  /** two-level macro mean of each column (index as COLUMNS) */
  means: number[];
  steps: number;
  ratioSteps: number;
}
export type RunTable = Map<Platform, PlatformRow>;

/**
 * Every platform figure of every column in one pass over the points: the same sums in the same order as
 * macroMean (per user in step order, then over users in order of appearance), so the same numbers.
 */
export function runTable(points: readonly StepPoint[]): RunTable {
  const n = COLUMNS.length;
  const users = new Map<Platform, Map<string, number[]>>();
  const rows: RunTable = new Map();
  const values: number[] = new Array<number>(n);
  for (const p of points) {
    let byUser = users.get(p.platform);
    if (!byUser) users.set(p.platform, (byUser = new Map()));
    // acc: n sums, then n counts
    let acc = byUser.get(p.userId);
    if (!acc) byUser.set(p.userId, (acc = new Array<number>(2 * n).fill(0)));
    const m = p.metrics;
    const d = p.diag;
    values[0] = m.Recall;
    values[1] = m.Recall_Novelty;
    values[2] = m.Recall_Stability;
    values[3] = m.Error_Decay;
    values[4] = m.Error_Peer;
    values[5] = m.Error_Viral;
    values[6] = m.Error_Random;
    values[7] = d.budget;
    values[8] = d.alpha;
    values[9] = Number.isFinite(d.ratio) ? d.ratio : NaN;
    for (let c = 0; c < n; c++) {
      const v = values[c];
      if (v !== v) continue;
      acc[c] += v;
      acc[n + c]++;
    }
    let row = rows.get(p.platform);
    if (!row) rows.set(p.platform, (row = { means: [], steps: 0, ratioSteps: 0 }));
    row.steps++;
    if (values[9] === values[9]) row.ratioSteps++;
  }
  for (const [platform, byUser] of users) {
    const accs = [...byUser.values()];
    rows.get(platform)!.means = COLUMNS.map((_, c) => nanMean(accs.map((a) => (a[n + c] ? a[c] / a[n + c] : NaN))));
  }
  // In the paper's platform order.
  return new Map(PLATFORMS.filter((p) => rows.has(p)).map((p) => [p, rows.get(p)!]));
}

const col = (name: Column) => COLUMNS.indexOf(name);

/** The operating point of a scope, from a run table (or the points, when no table is at hand). */
export function operatingPoint(source: readonly StepPoint[] | RunTable, scope: Scope): OperatingPoint {
  const table = source instanceof Map ? source : runTable(source);
  const rows = scope === 'all' ? [...table.values()] : table.has(scope) ? [table.get(scope)!] : [];
  const mean = (name: Column) => nanMean(rows.map((r) => r.means[col(name)]));
  const rStab = mean('Recall_Stability');
  const rNov = mean('Recall_Novelty');
  return {
    budget: mean('budget'),
    ratio: mean('ratio'),
    alpha: mean('alpha'),
    rStab,
    rNov,
    f1: harmonic(rStab, rNov),
    steps: rows.reduce((s, r) => s + r.steps, 0),
    ratioSteps: rows.reduce((s, r) => s + r.ratioSteps, 0),
  };
}

export interface Pt {
  x: number;
  y: number;
}

const EPS = 1e-12;
const inUnit = (v: number) => v >= -EPS && v <= 1 + EPS;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/**
 * The constraint line α·x + (1−α)·y = B (x = R_stab, y = R_nov) clipped to the unit square, as its two end points
 * ordered by x (then y). Empty when the line misses the square or α, B are undefined; one point when it only
 * touches a corner.
 */
export function constraintSegment(alpha: number, budget: number): Pt[] {
  if (!Number.isFinite(alpha) || !Number.isFinite(budget)) return [];
  const candidates: Pt[] = [];
  const beta = 1 - alpha;
  // Crossings with x = 0 and x = 1 (need beta ≠ 0), and with y = 0 and y = 1 (need alpha ≠ 0).
  if (Math.abs(beta) > EPS) {
    for (const x of [0, 1]) candidates.push({ x, y: (budget - alpha * x) / beta });
  }
  if (Math.abs(alpha) > EPS) {
    for (const y of [0, 1]) candidates.push({ x: (budget - beta * y) / alpha, y });
  }
  const inside = candidates
    .filter((p) => inUnit(p.x) && inUnit(p.y))
    .map((p) => ({ x: clamp01(p.x), y: clamp01(p.y) }));
  const unique: Pt[] = [];
  for (const p of inside)
    if (!unique.some((q) => Math.abs(q.x - p.x) < 1e-9 && Math.abs(q.y - p.y) < 1e-9)) unique.push(p);
  unique.sort((p, q) => p.x - q.x || p.y - q.y);
  return unique.length > 2 ? [unique[0], unique[unique.length - 1]] : unique;
}

/**
 * The iso-F1 curve 2xy/(x+y) = f inside the unit square: y = f·x / (2x − f) for x from f/(2−f) (where y = 1) to 1
 * (where y = f/(2−f)). `samples` points, spaced evenly in x. Empty for f outside (0, 1]; f = 1 is the point (1, 1).
 */
export function isoF1Curve(f: number, samples = 48): Pt[] {
  if (!(f > 0 && f <= 1)) return [];
  const x0 = f / (2 - f);
  if (1 - x0 < EPS) return [{ x: 1, y: 1 }];
  const out: Pt[] = [];
  for (let i = 0; i < samples; i++) {
    const x = x0 + ((1 - x0) * i) / (samples - 1);
    out.push({ x, y: Math.min(1, (f * x) / (2 * x - f)) });
  }
  return out;
}

export interface StepIndexPoint {
  stepId: number;
  /** mean Recall over the scored steps with this step_id (one per user) */
  recall: number;
  steps: number;
}

/** Figure 5: Recall by step index. Plain mean over the scored steps at index n: each user has at most one. */
export function recallByStep(points: readonly StepPoint[], scope: Scope): StepIndexPoint[] {
  const by = new Map<number, number[]>();
  for (const p of points) {
    if (scope !== 'all' && p.platform !== scope) continue;
    let list = by.get(p.stepId);
    if (!list) by.set(p.stepId, (list = []));
    list.push(p.metrics.Recall);
  }
  return [...by.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([stepId, list]) => ({ stepId, recall: nanMean(list), steps: list.length }));
}

export const ERROR_KEYS = ['Error_Decay', 'Error_Peer', 'Error_Viral', 'Error_Random'] as const;
export type ErrorKey = (typeof ERROR_KEYS)[number];

/** Per platform: the four error rates (M̄, the Table 6 figures) and ᾱ. */
export interface PlatformFigures {
  platform: Platform;
  errors: Record<ErrorKey, number>;
  alpha: number;
  steps: number;
}

export function platformFigures(source: readonly StepPoint[] | RunTable): PlatformFigures[] {
  const table = source instanceof Map ? source : runTable(source);
  return [...table.entries()].map(([platform, row]) => {
    const errors = {} as Record<ErrorKey, number>;
    for (const key of ERROR_KEYS) errors[key] = row.means[col(key)];
    return { platform, errors, alpha: row.means[col('alpha')], steps: row.steps };
  });
}
