// Scoring exactly as the StreamProfileBench reference runner (spec section 5). Python semantics where JS differs.
import { METRIC_KEYS, POOL_CLASSES, type MetricKey, type PoolClass, type PoolSplit, type StepMetrics } from '../types';

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
 * Per split, built once and shared by every run scored on it: the distinct tags of the meta lists, each tag's
 * classes as a bit mask (bit i = POOL_CLASSES[i]) and the distinct size of each class. Sets, as the reference:
 * duplicates in meta lists collapse. No map per split: scoring looks each pick up once in the one table of tag ids
 * (small and hot in cache) and then scans the split's few ids, which beats hashing into one cold map per step.
 */
export interface SplitIndex {
  /** distinct tags of the six lists, in first-occurrence order */
  tags: string[];
  /** masks[i]: the classes of tags[i] */
  masks: number[];
  /** ids[i]: the tag id of tags[i] */
  ids: number[];
  sizes: number[];
  /** K = |T_new ∪ T_keep| (distinct) */
  K: number;
  /** tag → position in tags, only for splits too large to scan */
  byTag?: Map<string, number>;
}
const POSITIVE = 0b000011; // tKeep, tNew
const NEGATIVE = 0b111100; // dDecay, dPeer, dViral, dRandom
const CLASS_BIT = Object.fromEntries(POOL_CLASSES.map((c, i) => [c, i])) as Record<PoolClass, number>;
/**
 * The index rides on its split as a hidden (non-enumerable) property rather than in a WeakMap: scoring fetches it
 * for every step of every run, and a WeakMap lookup there cost about an eighth of the scoring time.
 */
const INDEX = Symbol('splitIndex');
type IndexedSplit = PoolSplit & { [INDEX]?: SplitIndex };
/** Splits with more distinct tags than this are looked up through a map (and picks deduplicated with a set). */
const SCAN_TAGS = 31;
/**
 * A number per distinct tag of any split indexed in this process. It only grows, by the tags of the benchmarks
 * opened (a few thousand at paper scale); picks get no id of their own.
 */
const tagIds = new Map<string, number>();

/** How many tag ids have been given out (ids are 0 .. tagCount() - 1). */
export const tagCount = (): number => tagIds.size;

/** The split's index, built once per split object and cached. */
export function splitIndex(split: PoolSplit): SplitIndex {
  let ix = (split as IndexedSplit)[INDEX];
  if (ix) return ix;
  ix = { tags: [], masks: [], ids: [], sizes: [0, 0, 0, 0, 0, 0], K: 0 };
  for (let i = 0; i < 6; i++) {
    const bit = 1 << i;
    for (const t of split[POOL_CLASSES[i]]) {
      const at = tagPosition(ix, t);
      if (at === -1) {
        let id = tagIds.get(t);
        if (id === undefined) tagIds.set(t, (id = tagIds.size));
        ix.tags.push(t);
        ix.masks.push(bit);
        ix.ids.push(id);
        if (ix.byTag) ix.byTag.set(t, ix.tags.length - 1);
        else if (ix.tags.length > SCAN_TAGS) ix.byTag = new Map(ix.tags.map((tag, k) => [tag, k]));
      } else if (ix.masks[at] & bit) continue;
      else ix.masks[at] |= bit;
      ix.sizes[i]++;
    }
  }
  for (const mask of ix.masks) if (mask & POSITIVE) ix.K++;
  // Copied to their length: grown by push, each kept room for 16 or 40 entries, and a load keeps one index per step.
  ix.tags = ix.tags.slice();
  ix.masks = ix.masks.slice();
  ix.ids = ix.ids.slice();
  if (Object.isExtensible(split)) Object.defineProperty(split, INDEX, { value: ix, enumerable: false });
  return ix;
}

/** The id of a tag of some indexed split; -1 for any other value. */
export function tagId(value: unknown): number {
  return typeof value === 'string' ? (tagIds.get(value) ?? -1) : -1;
}

/** The position of a tag in the split's tags; -1 when it is in none of the lists. */
export function tagPosition(ix: SplitIndex, tag: string): number {
  if (ix.byTag) return ix.byTag.get(tag) ?? -1;
  const id = tagIds.get(tag);
  if (id === undefined) return -1;
  const ids = ix.ids;
  for (let i = 0; i < ids.length; i++) if (ids[i] === id) return i;
  return -1;
}

const HIT_POSITIVES = 6;
const HIT_DELTA = 7;

/**
 * Counts the distinct in-split string picks into `out`: out[i] = picks in POOL_CLASSES[i], out[6] = positives,
 * out[7] = δ. Allocates nothing for the usual small split: this runs for every step of every run.
 */
export function countHits(ix: SplitIndex, prediction: readonly unknown[], out: Int32Array): void {
  out.fill(0);
  // Picks already counted, as bits of their tag's position (or a set for a large split).
  let seenBits = 0;
  const seen = ix.byTag ? new Set<number>() : null;
  for (let j = 0; j < prediction.length; j++) {
    const pick = prediction[j];
    if (typeof pick !== 'string') continue;
    const at = tagPosition(ix, pick);
    if (at === -1) continue;
    if (seen) {
      if (seen.has(at)) continue;
      seen.add(at);
    } else {
      if (seenBits & (1 << at)) continue;
      seenBits |= 1 << at;
    }
    const mask = ix.masks[at];
    for (let i = 0; i < 6; i++) if (mask & (1 << i)) out[i]++;
    if (mask & POSITIVE) out[HIT_POSITIVES]++;
    else if (mask & NEGATIVE) out[HIT_DELTA]++;
  }
}

/** The pool class (index in POOL_CLASSES) behind each of METRIC_KEYS but Recall. */
export const METRIC_CLASS = [
  -1,
  CLASS_BIT.tNew,
  CLASS_BIT.tKeep,
  CLASS_BIT.dDecay,
  CLASS_BIT.dPeer,
  CLASS_BIT.dViral,
  CLASS_BIT.dRandom,
];

/** The metrics as numbers in METRIC_KEYS order, from countHits' counts (K > 0); NaN for an empty class. */
export function metricsFromHits(ix: SplitIndex, hit: Int32Array, out: Float64Array): void {
  out[0] = hit[HIT_POSITIVES] / ix.K;
  for (let m = 1; m < 7; m++) {
    const size = ix.sizes[METRIC_CLASS[m]];
    out[m] = size === 0 ? NaN : hit[METRIC_CLASS[m]] / size;
  }
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
  const hit = new Int32Array(8);
  countHits(ix, prediction, hit);
  const values = new Float64Array(7);
  metricsFromHits(ix, hit, values);
  const metrics = {} as StepMetrics;
  METRIC_KEYS.forEach((key, i) => (metrics[key] = values[i]));
  const delta = hit[HIT_DELTA];
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

/** The table whose i-th metric (METRIC_KEYS order) is `valueAt(i)`: one literal, one object shape for every table. */
export function metricsTableOf(valueAt: (i: number) => number): MetricsTable {
  return {
    Recall: valueAt(0),
    Recall_Novelty: valueAt(1),
    Recall_Stability: valueAt(2),
    Error_Decay: valueAt(3),
    Error_Peer: valueAt(4),
    Error_Viral: valueAt(5),
    Error_Random: valueAt(6),
  };
}

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
  const sum = new UsersSum();
  for (const u of users) sum.add(u);
  return sum.aggregate();
}

/**
 * aggregateUsers one user at a time, for a caller that folds rows as it reads them and keeps no list of scores:
 * NaN-skipping sums in the order the users are added, so the same means to the bit as over the list.
 */
export class UsersSum {
  private readonly sums = new Float64Array(8);
  private readonly counts = new Int32Array(8);
  private users = 0;
  private steps = 0;

  add(u: UserScore): void {
    // Named reads: it runs for every user of every platform of every run scored.
    const m = u.metrics;
    this.addAt(0, m.Recall);
    this.addAt(1, m.Recall_Novelty);
    this.addAt(2, m.Recall_Stability);
    this.addAt(3, m.Error_Decay);
    this.addAt(4, m.Error_Peer);
    this.addAt(5, m.Error_Viral);
    this.addAt(6, m.Error_Random);
    this.addAt(7, userF1ns(u));
    this.steps += u.steps;
    this.users++;
  }

  private addAt(i: number, v: number): void {
    if (Number.isNaN(v)) return;
    this.sums[i] += v;
    this.counts[i]++;
  }

  aggregate(): AggregateScore {
    const mean = (i: number) => (this.counts[i] === 0 ? NaN : this.sums[i] / this.counts[i]);
    const metrics = metricsTableOf(mean);
    const a = metrics.Recall_Novelty;
    const b = metrics.Recall_Stability;
    const harmonic = Number.isNaN(a) || Number.isNaN(b) || !(a + b > 0) ? NaN : (2 * a * b) / (a + b);
    return { users: this.users, steps: this.steps, metrics, f1ns: mean(7), f1nsHarmonicOfMeans: harmonic };
  }
}
