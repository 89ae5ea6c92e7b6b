// Data of the paper's figures for one run: budget B vs ratio ρ (Figure 3), the constraint line with iso-F1 contours
// (Figure 4), Recall by step index (Figure 5), error rates and the stability ratio α per platform. Pure TypeScript.
//
// Means, stated once: a platform's figure is the two-level macro average M̄ of the per-step values (per user the
// NaN-skipping mean over the user's scored steps, then the NaN-skipping mean over users), as the reference does for
// the metrics; the scope "all" is the mean of the platform figures, as the paper's "Avg." column.
import { resultFor } from './runScore';
import { nanMean, scoreStep, stepDiagnostics, type StepDiagnostics } from './score';
import { PLATFORMS, type Benchmark, type MetricKey, type Platform, type Run, type StepMetrics } from './types';

export type Scope = 'all' | Platform;

/** One scored step of a run that has a result for it. */
export interface StepPoint {
  platform: Platform;
  userId: string;
  stepId: number;
  metrics: StepMetrics;
  diag: StepDiagnostics;
}

/** The scored steps the run has results for, in benchmark order. */
export function scoredSteps(bench: Benchmark, run: Run): StepPoint[] {
  const out: StepPoint[] = [];
  for (const platform of PLATFORMS) {
    for (const user of bench.users.get(platform)?.values() ?? []) {
      for (const step of user.steps) {
        const result = resultFor(run, user, step.stepId);
        if (!result) continue;
        const metrics = scoreStep(step.split, result.prediction);
        const diag = stepDiagnostics(step.split, result.prediction);
        if (metrics && diag) out.push({ platform, userId: user.userId, stepId: step.stepId, metrics, diag });
      }
    }
  }
  return out;
}

export type Getter = (p: StepPoint) => number;

export const get = {
  metric: (key: MetricKey): Getter => (p) => p.metrics[key],
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
  if (scope !== 'all') return macroMean(points.filter((p) => p.platform === scope), fn);
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

export function operatingPoint(points: readonly StepPoint[], scope: Scope): OperatingPoint {
  const mine = scope === 'all' ? points : points.filter((p) => p.platform === scope);
  const rStab = scopeMean(mine, scope, get.metric('Recall_Stability'));
  const rNov = scopeMean(mine, scope, get.metric('Recall_Novelty'));
  return {
    budget: scopeMean(mine, scope, get.budget),
    ratio: scopeMean(mine, scope, get.ratio),
    alpha: scopeMean(mine, scope, get.alpha),
    rStab,
    rNov,
    f1: harmonic(rStab, rNov),
    steps: mine.length,
    ratioSteps: mine.filter((p) => !Number.isNaN(get.ratio(p))).length,
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
  const inside = candidates.filter((p) => inUnit(p.x) && inUnit(p.y)).map((p) => ({ x: clamp01(p.x), y: clamp01(p.y) }));
  const unique: Pt[] = [];
  for (const p of inside) if (!unique.some((q) => Math.abs(q.x - p.x) < 1e-9 && Math.abs(q.y - p.y) < 1e-9)) unique.push(p);
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
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([stepId, list]) => ({ stepId, recall: nanMean(list), steps: list.length }));
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

export function platformFigures(points: readonly StepPoint[]): PlatformFigures[] {
  const out: PlatformFigures[] = [];
  for (const platform of PLATFORMS) {
    const mine = points.filter((p) => p.platform === platform);
    if (!mine.length) continue;
    const errors = {} as Record<ErrorKey, number>;
    for (const key of ERROR_KEYS) errors[key] = macroMean(mine, get.metric(key));
    out.push({ platform, errors, alpha: macroMean(mine, get.alpha), steps: mine.length });
  }
  return out;
}
