// Compares two runs on the same steps: per-step deltas and tag flips, and a paired summary per metric with a
// bootstrap confidence interval that resamples users (steps of one user are not independent). Pure TypeScript.
import type { Scope } from './figures';
import { mulberry32 } from '../stats/random';
import { scoreAndDiagnose } from './score/step';
import { resultFor } from './score/run';
import { nanMean, pickSet, userF1ns, type MetricsTable } from './score/step';
import {
  METRIC_KEYS,
  PLATFORMS,
  type Benchmark,
  type MetricKey,
  type Platform,
  type PoolClass,
  type Run,
  type StepMetrics,
} from './types';

export const COMPARE_METRICS = [...METRIC_KEYS, 'F1NS'] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/** Recall-type metrics and F1^NS are better when higher; error rates when lower. */
export function higherIsBetter(metric: CompareMetric): boolean {
  return !metric.startsWith('Error_');
}

/** The change B − A turned into "how much better B is": positive is a gain, negative a regression. */
export function improvement(metric: CompareMetric, delta: number): number {
  return higherIsBetter(metric) ? delta : -delta;
}

/** Differences smaller than this count as ties (floating point noise of equal fractions). */
export const TIE_EPSILON = 1e-12;

export interface FlippedTag {
  tag: string;
  cls: PoolClass;
}

/** Tags whose hit/miss state differs between the runs. Positives: gained (hit only by B), lost (hit only by A).
 *  Distractors: newWrong (picked only by B), droppedWrong (picked only by A). */
export interface TagFlips {
  gained: FlippedTag[];
  lost: FlippedTag[];
  newWrong: FlippedTag[];
  droppedWrong: FlippedTag[];
}

export interface StepDelta {
  platform: Platform;
  userId: string;
  stepId: number;
  a: StepMetrics;
  b: StepMetrics;
  /** b − a per metric; NaN where the metric is undefined for the step (the same for both runs: it depends on the pool only) */
  delta: StepMetrics;
  flips: TagFlips;
}

/** Per-user means over the paired steps only, for both runs; F1NS is the reference's per-user F1. */
export interface UserPair {
  platform: Platform;
  userId: string;
  steps: number;
  a: Record<CompareMetric, number>;
  b: Record<CompareMetric, number>;
}

export interface RunComparison {
  runA: string;
  runB: string;
  /** scored steps that both runs have a result for, in benchmark order */
  steps: StepDelta[];
  users: UserPair[];
  /** scored steps with a result in only one of the runs (left out of the comparison) */
  onlyA: number;
  onlyB: number;
}

const POSITIVE_CLASSES = ['tKeep', 'tNew'] as const;
const NEGATIVE_CLASSES = ['dDecay', 'dPeer', 'dViral', 'dRandom'] as const;

function userMeans(metrics: readonly StepMetrics[]): Record<CompareMetric, number> {
  const m = {} as MetricsTable;
  for (const key of METRIC_KEYS) m[key] = nanMean(metrics.map((s) => s[key]));
  return { ...m, F1NS: userF1ns({ steps: metrics.length, metrics: m }) };
}

export function tagFlips(
  split: Record<PoolClass, string[]>,
  predictionA: readonly unknown[],
  predictionB: readonly unknown[],
): TagFlips {
  const pa = pickSet(predictionA);
  const pb = pickSet(predictionB);
  const flips: TagFlips = { gained: [], lost: [], newWrong: [], droppedWrong: [] };
  const positives = new Set<string>();
  for (const cls of POSITIVE_CLASSES) {
    for (const tag of new Set(split[cls])) {
      positives.add(tag);
      if (pb.has(tag) && !pa.has(tag)) flips.gained.push({ tag, cls });
      else if (pa.has(tag) && !pb.has(tag)) flips.lost.push({ tag, cls });
    }
  }
  const seen = new Set<string>();
  for (const cls of NEGATIVE_CLASSES) {
    for (const tag of split[cls]) {
      if (positives.has(tag) || seen.has(tag)) continue;
      seen.add(tag);
      if (pb.has(tag) && !pa.has(tag)) flips.newWrong.push({ tag, cls });
      else if (pa.has(tag) && !pb.has(tag)) flips.droppedWrong.push({ tag, cls });
    }
  }
  return flips;
}

/** The comparison over the given platforms (default: all). Comparisons of disjoint platform sets concatenate into the
 *  comparison of their union (see mergeComparisons), so a caller can compute one platform per turn of the event loop. */
export function compareRuns(
  bench: Benchmark,
  runA: Run,
  runB: Run,
  platforms: readonly Platform[] = PLATFORMS,
): RunComparison {
  const steps: StepDelta[] = [];
  const users: UserPair[] = [];
  let onlyA = 0;
  let onlyB = 0;
  for (const platform of platforms) {
    for (const user of bench.users.get(platform)?.values() ?? []) {
      const ma: StepMetrics[] = [];
      const mb: StepMetrics[] = [];
      for (const step of user.steps) {
        const ra = resultFor(runA, user, step.stepId);
        const rb = resultFor(runB, user, step.stepId);
        if (!ra && !rb) continue;
        const a = ra ? (scoreAndDiagnose(step.split, ra.prediction)?.metrics ?? null) : null;
        const b = rb ? (scoreAndDiagnose(step.split, rb.prediction)?.metrics ?? null) : null;
        if (!ra || !rb) {
          if (a) onlyA++;
          if (b) onlyB++;
          continue;
        }
        if (!a || !b) continue; // not scored (no positives): the same for both runs
        const delta = {} as StepMetrics;
        for (const key of METRIC_KEYS) delta[key] = b[key] - a[key];
        steps.push({
          platform,
          userId: user.userId,
          stepId: step.stepId,
          a,
          b,
          delta,
          flips: tagFlips(step.split, ra.prediction, rb.prediction),
        });
        ma.push(a);
        mb.push(b);
      }
      if (ma.length)
        users.push({ platform, userId: user.userId, steps: ma.length, a: userMeans(ma), b: userMeans(mb) });
    }
  }
  return { runA: runA.name, runB: runB.name, steps, users, onlyA, onlyB };
}

/** Concatenates comparisons of the same two runs over disjoint platforms, in the order given. */
export function mergeComparisons(parts: readonly RunComparison[]): RunComparison {
  return {
    runA: parts[0]?.runA ?? '',
    runB: parts[0]?.runB ?? '',
    steps: parts.flatMap((p) => p.steps),
    users: parts.flatMap((p) => p.users),
    onlyA: parts.reduce((n, p) => n + p.onlyA, 0),
    onlyB: parts.reduce((n, p) => n + p.onlyB, 0),
  };
}

export type SortOrder = 'regression' | 'gain';

/** Steps by the change of `metric`: biggest regression (or gain) first; steps where it is undefined last;
 *  ties broken by the number of flipped tags (more first), then by benchmark order. Returns a new array. */
export function sortStepDeltas(
  steps: readonly StepDelta[],
  metric: MetricKey = 'Recall',
  order: SortOrder = 'regression',
): StepDelta[] {
  const sign = order === 'regression' ? 1 : -1;
  const flipCount = (s: StepDelta) =>
    s.flips.gained.length + s.flips.lost.length + s.flips.newWrong.length + s.flips.droppedWrong.length;
  return steps
    .map((s, i) => ({ s, i, key: improvement(metric, s.delta[metric]) }))
    .sort((x, y) => {
      const xn = Number.isNaN(x.key);
      const yn = Number.isNaN(y.key);
      if (xn !== yn) return xn ? 1 : -1;
      if (!xn && Math.abs(x.key - y.key) > TIE_EPSILON) return sign * (x.key - y.key);
      return flipCount(y.s) - flipCount(x.s) || x.i - y.i;
    })
    .map((x) => x.s);
}

/** Quantile of sorted values with linear interpolation between order statistics (R type 7, numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export interface WinTieLoss {
  win: number;
  tie: number;
  loss: number;
}

export interface PairedSummaryRow {
  metric: CompareMetric;
  /** the scope's figure for A and B over the paired steps (tables' convention: "all" is the mean over platforms) */
  meanA: number;
  meanB: number;
  /** mean difference B − A: per platform, M̄(B) − M̄(A) over the paired users; for "all", the mean over platforms */
  diff: number;
  /** 95 % percentile bootstrap interval of diff, resampling users within each platform */
  ciLow: number;
  ciHigh: number;
  /** users where both per-user values are defined */
  users: number;
  /** per user: B better (win), equal (tie), worse (loss), by the sign of improvement() */
  userWtl: WinTieLoss;
  /** per step; null for F1NS, which is defined per user only */
  stepWtl: WinTieLoss | null;
}

export type { Scope };

export interface BootstrapOptions {
  resamples?: number;
  seed?: number;
  /** confidence level, default 0.95 */
  level?: number;
}

function wtl(metric: CompareMetric, deltas: Iterable<number>): WinTieLoss {
  const out = { win: 0, tie: 0, loss: 0 };
  for (const d of deltas) {
    if (Number.isNaN(d)) continue;
    const g = improvement(metric, d);
    if (Math.abs(g) <= TIE_EPSILON) out.tie++;
    else if (g > 0) out.win++;
    else out.loss++;
  }
  return out;
}

/** NaN-skipping mean of values[idx[i]] (or of all values when idx is undefined). */
function meanAt(values: Float64Array, idx: Int32Array | undefined): number {
  let sum = 0;
  let n = 0;
  const len = idx ? idx.length : values.length;
  for (let i = 0; i < len; i++) {
    const v = values[idx ? idx[i] : i];
    if (v === v) {
      sum += v;
      n++;
    }
  }
  return n === 0 ? NaN : sum / n;
}

interface Group {
  a: Float64Array[];
  b: Float64Array[];
  n: number;
}

/** Per metric: nanMean over groups of (M̄_B − M̄_A) for the users picked by idx (one index array per group). */
function statistic(
  groups: readonly Group[],
  idx: readonly (Int32Array | undefined)[],
  metric: number,
): { a: number; b: number; diff: number } {
  const as: number[] = [];
  const bs: number[] = [];
  const ds: number[] = [];
  groups.forEach((g, gi) => {
    const a = meanAt(g.a[metric], idx[gi]);
    const b = meanAt(g.b[metric], idx[gi]);
    as.push(a);
    bs.push(b);
    ds.push(b - a);
  });
  return { a: nanMean(as), b: nanMean(bs), diff: nanMean(ds) };
}

/** Σ/n of B minus Σ/n of A over the users picked by idx, NaN-skipping each side (one pass, no allocation). */
function groupDiff(g: Group, metric: number, idx: Int32Array): number {
  const a = g.a[metric];
  const b = g.b[metric];
  let sa = 0;
  let na = 0;
  let sb = 0;
  let nb = 0;
  for (let i = 0; i < idx.length; i++) {
    const j = idx[i];
    const x = a[j];
    if (x === x) {
      sa += x;
      na++;
    }
    const y = b[j];
    if (y === y) {
      sb += y;
      nb++;
    }
  }
  return (nb ? sb / nb : NaN) - (na ? sa / na : NaN);
}

/**
 * Paired summary of B against A per metric over the users of the scope. The bootstrap draws, for each platform,
 * as many users as it has, with replacement (seeded, so the interval is reproducible), and recomputes the diff.
 * run(k) does k more resamples, so a caller can spread the work over several turns of the event loop; the result
 * does not depend on how the resamples were split.
 */
export class PairedBootstrap {
  readonly resamples: number;
  private done = 0;
  private readonly level: number;
  private readonly rng: () => number;
  private readonly users: UserPair[];
  private readonly steps: StepDelta[];
  private readonly groups: Group[] = [];
  private readonly idx: Int32Array[];
  private readonly boot: number[][] = COMPARE_METRICS.map(() => []);

  constructor(cmp: RunComparison, scope: Scope = 'all', opts: BootstrapOptions = {}) {
    this.resamples = opts.resamples ?? 2000;
    this.level = opts.level ?? 0.95;
    this.rng = mulberry32(opts.seed ?? 1);
    this.users = cmp.users.filter((u) => scope === 'all' || u.platform === scope);
    this.steps = cmp.steps.filter((s) => scope === 'all' || s.platform === scope);
    for (const platform of PLATFORMS) {
      const us = this.users.filter((u) => u.platform === platform);
      if (!us.length) continue;
      this.groups.push({
        n: us.length,
        a: COMPARE_METRICS.map((m) => Float64Array.from(us, (u) => u.a[m])),
        b: COMPARE_METRICS.map((m) => Float64Array.from(us, (u) => u.b[m])),
      });
    }
    this.idx = this.groups.map((g) => new Int32Array(g.n));
  }

  /** Runs up to k more resamples; true when all are done. */
  run(k: number): boolean {
    const { groups, idx, rng, boot } = this;
    const end = Math.min(this.resamples, this.done + k);
    for (; this.done < end; this.done++) {
      for (let gi = 0; gi < groups.length; gi++) {
        const n = groups[gi].n;
        const ix = idx[gi];
        for (let i = 0; i < n; i++) ix[i] = Math.floor(rng() * n);
      }
      for (let mi = 0; mi < COMPARE_METRICS.length; mi++) {
        let sum = 0;
        let count = 0;
        for (let gi = 0; gi < groups.length; gi++) {
          const d = groupDiff(groups[gi], mi, idx[gi]);
          if (d === d) {
            sum += d;
            count++;
          }
        }
        if (count) boot[mi].push(sum / count);
      }
    }
    return this.done >= this.resamples;
  }

  result(): PairedSummaryRow[] {
    this.run(Infinity);
    const { groups, users, steps, level } = this;
    const none = groups.map(() => undefined);
    const tail = (1 - level) / 2;
    return COMPARE_METRICS.map((metric, mi) => {
      const point = statistic(groups, none, mi);
      const sorted = [...this.boot[mi]].sort((x, y) => x - y);
      const userDeltas = users.map((u) => u.b[metric] - u.a[metric]);
      return {
        metric,
        meanA: point.a,
        meanB: point.b,
        diff: point.diff,
        ciLow: quantile(sorted, tail),
        ciHigh: quantile(sorted, 1 - tail),
        users: userDeltas.filter((d) => !Number.isNaN(d)).length,
        userWtl: wtl(metric, userDeltas),
        stepWtl:
          metric === 'F1NS'
            ? null
            : wtl(
                metric,
                steps.map((s) => s.delta[metric]),
              ),
      };
    });
  }
}

export function pairedSummary(
  cmp: RunComparison,
  scope: Scope = 'all',
  opts: BootstrapOptions = {},
): PairedSummaryRow[] {
  return new PairedBootstrap(cmp, scope, opts).result();
}
