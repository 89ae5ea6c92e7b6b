// The spec's scores ("Scoring") as the authors' evaluator computes them (src/evaluation/evaluator.py and metrics.py
// in the public repo icip-cas/OmniBehavior): F1 and friends per binary field, NMAE for video_watch_seconds, the
// judge's mean for next_user_message, the six headline components and the overall score. Answers without a usable
// predicted value (a text answer: empty once stripped, fields.ts usablePrediction) are left out of every metric, and
// counted: an empty next_user_message is not in the judge mean, whatever judge_score its line carries.
import { CoverageKey, type Coverage } from '../coverage';
import { pyFloat, pyRound } from '../io/pyNumber';
import { BINARY_COMPONENT_SCENE, binaryLabel, COMPONENTS, FIELD_NAMES, FIELDS, usablePrediction } from './fields';
import {
  predictionKey,
  type ComponentId,
  type FieldKind,
  type OmniBenchmark,
  type OmniRun,
  type OmniUser,
  type Question,
  type Scene,
  type TestAction,
} from './types';

export interface FieldScore {
  field: string;
  kind: FieldKind;
  scene: Scene;
  /** Answers with a usable predicted value (and a usable truth): the reference's samples of this field. */
  answered: number;
  /** Answers without a usable predicted value, left out of every metric (the reference's parsing failures). */
  leftOut: number;
  /** Answers in the metric: binary and search_keyword as answered, continuous with a normaliser, judged utterances. */
  n: number;
  tp?: number;
  fp?: number;
  fn?: number;
  tn?: number;
  f1?: number;
  accuracy?: number;
  precision?: number;
  recall?: number;
  /** 0–100; only where some answer has a normaliser above 0 (video_watch_seconds in the reference's runs). */
  nmae?: number;
  /** Continuous answers kept out of NMAE because their normaliser is missing or ≤ 0. */
  skipped?: number;
  /** 1–10, rounded to 5 decimals as the reference rounds it. */
  judgeMean?: number;
}

export interface ActionCounts {
  correct: number;
  incorrect: number;
  graded: number;
  leftOut: number;
}

export interface OmniRunScore {
  fields: FieldScore[];
  components: Record<ComponentId, number | undefined>;
  overall: number | undefined;
  /** Over all fields: answers that count, and answers left out for want of a usable predicted value. */
  answered: number;
  leftOut: number;
  /** Keyed by predictionKey. */
  perAction: Map<string, ActionCounts>;
  /** users and test actions with a prediction, out of the benchmark's */
  coverage: Coverage;
}

export type Verdict = 'correct' | 'incorrect' | 'graded' | 'left-out' | 'unscored';

/**
 * The normaliser of a continuous answer (evaluator.py, calculate_metrics): the question's own `video_duration`,
 * else, for video_watch_seconds only, the video record's duration. Ad and live watch times have none.
 */
export function questionNormaliser(q: Question, action: Pick<TestAction, 'normaliser'>): number | undefined {
  if (q.videoDuration !== undefined) return pyFloat(q.videoDuration);
  return q.field === 'video_watch_seconds' ? action.normaliser : undefined;
}

/**
 * One answer's verdict. 'left-out': no usable predicted value, so no metric sees it. Binary and search_keyword
 * (exact match after trimming and case folding; the reference reports no search metric) are correct or incorrect;
 * continuous answers are graded by min(|t − p|, norm) / norm × 100 where they have a normaliser above 0;
 * next_user_message is graded by its judge score. 'unscored': no usable truth, no normaliser, or no judge score.
 */
export function questionVerdict(q: Question, normaliser: number | undefined): { verdict: Verdict; error?: number } {
  const kind = FIELDS[q.field]?.kind ?? q.type;
  if (!usablePrediction(kind, q.predictedValue)) return { verdict: 'left-out' };
  if (kind === 'binary') {
    const truth = binaryLabel(q.trueValue);
    if (truth === undefined) return { verdict: 'unscored' };
    return { verdict: q.predictedLabel === truth ? 'correct' : 'incorrect' };
  }
  if (kind === 'continuous') {
    const truth = pyFloat(q.trueValue);
    const predicted = pyFloat(q.predictedValue) as number;
    // `norm <= 0` is false for NaN, so a NaN normaliser reaches the division as in the reference (NMAE NaN).
    if (truth === undefined || normaliser === undefined || normaliser <= 0) return { verdict: 'unscored' };
    return { verdict: 'graded', error: Math.min(Math.max(Math.abs(truth - predicted), 0), normaliser) / normaliser };
  }
  if (q.field === 'next_user_message') return { verdict: q.judgeScore === undefined ? 'unscored' : 'graded' };
  if (typeof q.trueValue !== 'string' || q.trueValue.trim() === '') return { verdict: 'unscored' };
  const predicted = String(q.predictedValue).trim().toLowerCase();
  return { verdict: predicted === q.trueValue.trim().toLowerCase() ? 'correct' : 'incorrect' };
}

export interface Tally {
  answered: number;
  leftOut: number;
  n: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  correct: number;
  /** Normalised errors (0–1), summed as the reference sums them before its × 100. */
  errorSum: number;
  /** Answers with a normaliser above 0: NMAE exists only when there is one. */
  positiveNorms: number;
  skipped: number;
  judgeSum: number;
}

export const newTally = (): Tally => ({
  answered: 0,
  leftOut: 0,
  n: 0,
  tp: 0,
  fp: 0,
  fn: 0,
  tn: 0,
  correct: 0,
  errorSum: 0,
  positiveNorms: 0,
  skipped: 0,
  judgeSum: 0,
});

/**
 * Adds one answer (not left out) to its field's tally, as the reference counts it: the same rule for a run's score
 * and for the answers two runs share (compare.ts).
 */
export function tallyAnswer(
  t: Tally,
  q: Question,
  verdict: Exclude<Verdict, 'left-out'>,
  error: number | undefined,
  normaliser: number | undefined,
): void {
  const info = FIELDS[q.field];
  if (info.kind === 'binary') {
    const truth = binaryLabel(q.trueValue);
    if (truth === undefined) return;
    t.answered++;
    t.n++;
    const wrong = verdict === 'incorrect';
    if (truth === 1 && wrong) t.fn++;
    else if (truth === 1) t.tp++;
    else if (wrong) t.fp++;
    else t.tn++;
  } else if (info.kind === 'continuous') {
    if (pyFloat(q.trueValue) === undefined) return;
    t.answered++;
    if (error === undefined) t.skipped++;
    else {
      t.n++;
      t.errorSum += error;
      if ((normaliser as number) > 0) t.positiveNorms++;
    }
  } else if (q.field === 'next_user_message') {
    t.answered++;
    if (verdict === 'unscored') return;
    t.n++;
    t.judgeSum += q.judgeScore as number;
  } else if (verdict !== 'unscored') {
    t.answered++;
    t.n++;
    if (verdict === 'correct') t.correct++;
  }
}

export function scoreOmniRun(bench: OmniBenchmark, run: OmniRun): OmniRunScore {
  const actions = testActionsByKey(bench);
  const tallies = new Map<string, Tally>();
  const perAction = new Map<string, ActionCounts>();
  for (const [key, prediction] of run.predictions) {
    const action = actions.get(key);
    if (!action) continue;
    const counts: ActionCounts = { correct: 0, incorrect: 0, graded: 0, leftOut: 0 };
    for (const q of prediction.questions) {
      const info = FIELDS[q.field];
      if (!info) continue;
      let t = tallies.get(q.field);
      if (!t) tallies.set(q.field, (t = newTally()));
      const normaliser = questionNormaliser(q, action);
      const { verdict, error } = questionVerdict(q, normaliser);
      if (verdict === 'left-out') {
        t.leftOut++;
        counts.leftOut++;
        continue;
      }
      if (verdict !== 'unscored') counts[verdict]++;
      tallyAnswer(t, q, verdict, error, normaliser);
    }
    perAction.set(key, counts);
  }
  const { fields, components, overall } = scoreTallies(tallies);
  const answered = fields.reduce((s, f) => s + f.answered, 0);
  const leftOut = fields.reduce((s, f) => s + f.leftOut, 0);
  const coveredUsers = new Set([...perAction.keys()].map((key) => actions.get(key)!.userId));
  const key = new CoverageKey();
  for (const k of perAction.keys()) key.add(CoverageKey.of(k));
  const coverage: Coverage = {
    users: { covered: coveredUsers.size, total: [...bench.users.values()].filter((u) => u.testActions.length).length },
    items: { covered: perAction.size, total: actions.size },
    itemNoun: 'test action',
    key: key.key,
  };
  return { fields, components, overall, answered, leftOut, perAction, coverage };
}

/** The fields' scores, the six components and the overall from the fields' tallies. */
export function scoreTallies(
  tallies: ReadonlyMap<string, Tally>,
): Pick<OmniRunScore, 'fields' | 'components' | 'overall'> {
  const fields = FIELD_NAMES.filter((f) => tallies.has(f)).map((f) => fieldScore(f, tallies.get(f)!));
  const components = componentsOf(fields);
  const values = COMPONENTS.map((c) => components[c]);
  const overall = values.every((v): v is number => v !== undefined) ? mean(values) : undefined;
  return { fields, components, overall };
}

export function fieldScore(field: string, t: Tally): FieldScore {
  const { kind, scene } = FIELDS[field];
  const base: FieldScore = { field, kind, scene, answered: t.answered, leftOut: t.leftOut, n: t.n };
  if (kind === 'binary') {
    // metrics.py: a precision or recall whose denominator is 0 is 0, and F1 = 2PR / (P + R), 0 when P + R = 0.
    const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
    const precision = ratio(t.tp, t.tp + t.fp);
    const recall = ratio(t.tp, t.tp + t.fn);
    if (t.n === 0) return { ...base, tp: 0, fp: 0, fn: 0, tn: 0 };
    return {
      ...base,
      tp: t.tp,
      fp: t.fp,
      fn: t.fn,
      tn: t.tn,
      f1: precision + recall > 0 ? (2 * (precision * recall)) / (precision + recall) : 0,
      accuracy: (t.tp + t.tn) / t.n,
      precision,
      recall,
    };
  }
  // metrics.py calculate_nmae: mean of the clipped ratios, × 100; computed only when some normaliser is above 0.
  if (kind === 'continuous')
    return { ...base, nmae: t.positiveNorms === 0 ? undefined : (t.errorSum / t.n) * 100, skipped: t.skipped };
  // evaluator.py: the judge mean is over judged answers only, round(…, 5).
  if (field === 'next_user_message')
    return { ...base, judgeMean: t.n === 0 ? undefined : pyRound(t.judgeSum / t.n, 5) };
  return { ...base, accuracy: t.n === 0 ? undefined : t.correct / t.n };
}

/** evaluator.py, calculate_final_score_components: a component that is missing, NaN or infinite is undefined. */
export function componentsOf(fields: readonly FieldScore[]): Record<ComponentId, number | undefined> {
  const out = {} as Record<ComponentId, number | undefined>;
  const finite = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : undefined);
  for (const c of COMPONENTS) {
    const scene = BINARY_COMPONENT_SCENE[c];
    if (scene) {
      const f1s = fields
        .filter((f) => f.kind === 'binary' && f.scene === scene && f.f1 !== undefined)
        .map((f) => f.f1 as number);
      out[c] = f1s.length ? mean(f1s) * 100 : undefined;
    }
  }
  const nmae = finite(fields.find((f) => f.field === 'video_watch_seconds')?.nmae);
  out.videoContinuous = nmae === undefined ? undefined : Math.max(0, Math.min(100, 100 - nmae));
  const judge = finite(fields.find((f) => f.field === 'next_user_message')?.judgeMean);
  out.shopText = judge === undefined ? undefined : Math.max(0, Math.min(100, judge * 10));
  return out;
}

export function testActionsByKey(bench: OmniBenchmark): Map<string, TestAction> {
  const out = new Map<string, TestAction>();
  for (const u of bench.users.values()) for (const t of u.testActions) out.set(predictionKey(t.userId, t.index), t);
  return out;
}

export const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * A user's right / wrong / graded / left-out answers in a run's score (perAction summed over their test actions);
 * undefined when the run has a prediction for none of them.
 */
export function userActionCounts(
  perAction: ReadonlyMap<string, ActionCounts>,
  user: OmniUser,
): ActionCounts | undefined {
  let out: ActionCounts | undefined;
  for (const a of user.testActions) {
    const c = perAction.get(predictionKey(a.userId, a.index));
    if (!c) continue;
    out ??= { correct: 0, incorrect: 0, graded: 0, leftOut: 0 };
    out.correct += c.correct;
    out.incorrect += c.incorrect;
    out.graded += c.graded;
    out.leftOut += c.leftOut;
  }
  return out;
}
