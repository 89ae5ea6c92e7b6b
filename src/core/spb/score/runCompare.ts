// Compares two runs on the same steps: per-step deltas and tag flips, and a paired summary per metric with a
// bootstrap confidence interval that resamples users (pairedSummary.ts). Pure TypeScript.
import { scoreAndDiagnose } from './step';
import { resultFor } from './run';
import { nanMean, pickSet, userF1ns, type MetricsTable } from './step';
import {
  METRIC_KEYS,
  PLATFORMS,
  type Benchmark,
  type MetricKey,
  type Platform,
  type PoolClass,
  type Run,
  type StepMetrics,
} from '../types';

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
