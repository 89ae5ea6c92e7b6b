// The spec's scores ("Scoring"): F1 and friends per binary field, NMAE per continuous field, the judge's mean for
// next_user_message, the six headline components and the overall score.
import { BINARY_COMPONENT_SCENE, binaryLabel, COMPONENTS, FIELD_NAMES, FIELDS, numberValue } from './fields';
import { predictionKey, type ComponentId, type FieldKind, type OmniBenchmark, type OmniRun, type Question, type Scene, type TestAction } from './types';

export interface FieldScore {
  field: string;
  kind: FieldKind;
  scene: Scene;
  /** Questions that count: binary and text with a usable truth, continuous with a usable normaliser too. */
  n: number;
  tp?: number;
  fp?: number;
  fn?: number;
  tn?: number;
  f1?: number;
  accuracy?: number;
  precision?: number;
  recall?: number;
  /** 0–100. */
  nmae?: number;
  /** Continuous questions left out because the normaliser is missing or ≤ 0. */
  skipped?: number;
  /** 1–10. */
  judgeMean?: number;
}

export interface ActionCounts {
  correct: number;
  incorrect: number;
  graded: number;
}

export interface OmniRunScore {
  fields: FieldScore[];
  components: Record<ComponentId, number | undefined>;
  overall: number | undefined;
  /** Keyed by predictionKey. */
  perAction: Map<string, ActionCounts>;
}

export type Verdict = 'correct' | 'incorrect' | 'graded' | 'unscored';

// Unparseable predictions (predictedLabel / predictedValue null) are wrong answers, not skipped: leaving them out
// would reward a model for failing to answer. A binary one counts as the opposite of the truth (an FN when the truth is
// Yes, an FP when it is No); a continuous one takes the largest error, 100; a next_user_message one without a judge
// score takes the judge's lowest, 1.
export const UNPARSEABLE_JUDGE_SCORE = 1;

/**
 * One question's verdict. Binary and search_keyword (exact match after trimming and case folding) are correct or
 * incorrect; continuous answers are graded by their error min(|t − p|, norm) / norm × 100; next_user_message is graded
 * by its judge score. 'unscored': no usable truth, no usable normaliser, or no judge score.
 */
export function questionVerdict(q: Question, normaliser: number | undefined): { verdict: Verdict; error?: number } {
  const kind = FIELDS[q.field]?.kind ?? q.type;
  if (kind === 'binary') {
    const truth = binaryLabel(q.trueValue);
    if (truth === undefined) return { verdict: 'unscored' };
    return { verdict: q.predictedLabel === truth ? 'correct' : 'incorrect' };
  }
  if (kind === 'continuous') {
    const truth = numberValue(q.trueValue);
    if (truth === undefined || normaliser === undefined || !(normaliser > 0)) return { verdict: 'unscored' };
    const predicted = numberValue(q.predictedValue);
    if (predicted === undefined) return { verdict: 'incorrect', error: 100 };
    return { verdict: 'graded', error: (Math.min(Math.abs(truth - predicted), normaliser) / normaliser) * 100 };
  }
  const predicted = typeof q.predictedValue === 'string' ? q.predictedValue.trim() : '';
  if (q.field === 'next_user_message') {
    if (predicted === '') return { verdict: 'incorrect' };
    return { verdict: q.judgeScore === undefined ? 'unscored' : 'graded' };
  }
  if (typeof q.trueValue !== 'string' || q.trueValue.trim() === '') return { verdict: 'unscored' };
  return { verdict: predicted.toLowerCase() === q.trueValue.trim().toLowerCase() ? 'correct' : 'incorrect' };
}

interface Tally {
  n: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  correct: number;
  errorSum: number;
  skipped: number;
  judgeSum: number;
}

export function scoreOmniRun(bench: OmniBenchmark, run: OmniRun): OmniRunScore {
  const actions = testActionsByKey(bench);
  const tallies = new Map<string, Tally>();
  const perAction = new Map<string, ActionCounts>();
  for (const [key, prediction] of run.predictions) {
    const action = actions.get(key);
    if (!action) continue;
    const counts: ActionCounts = { correct: 0, incorrect: 0, graded: 0 };
    for (const q of prediction.questions) {
      const info = FIELDS[q.field];
      if (!info) continue;
      const t = tallies.get(q.field) ?? { n: 0, tp: 0, fp: 0, fn: 0, tn: 0, correct: 0, errorSum: 0, skipped: 0, judgeSum: 0 };
      tallies.set(q.field, t);
      const { verdict, error } = questionVerdict(q, action.normaliser);
      if (verdict !== 'unscored') counts[verdict]++;
      if (info.kind === 'binary') {
        const truth = binaryLabel(q.trueValue);
        if (truth === undefined) continue;
        t.n++;
        const wrong = verdict === 'incorrect';
        if (truth === 1 && wrong) t.fn++;
        else if (truth === 1) t.tp++;
        else if (wrong) t.fp++;
        else t.tn++;
      } else if (info.kind === 'continuous') {
        if (error !== undefined) {
          t.n++;
          t.errorSum += error;
        } else if (numberValue(q.trueValue) !== undefined) t.skipped++;
      } else if (q.field === 'next_user_message') {
        if (verdict === 'unscored') continue;
        t.n++;
        t.judgeSum += q.judgeScore ?? UNPARSEABLE_JUDGE_SCORE;
      } else if (verdict !== 'unscored') {
        t.n++;
        if (verdict === 'correct') t.correct++;
      }
    }
    perAction.set(key, counts);
  }
  const fields = FIELD_NAMES.filter((f) => tallies.has(f)).map((f) => fieldScore(f, tallies.get(f)!));
  const components = componentsOf(fields);
  const values = COMPONENTS.map((c) => components[c]);
  const overall = values.every((v): v is number => v !== undefined) ? mean(values) : undefined;
  return { fields, components, overall, perAction };
}

function fieldScore(field: string, t: Tally): FieldScore {
  const { kind, scene } = FIELDS[field];
  const base: FieldScore = { field, kind, scene, n: t.n };
  if (kind === 'binary') {
    // As sklearn's precision / recall / f1_score with zero_division=0: a ratio whose denominator is 0 is 0, so a
    // field with no positives at all (in truth or prediction) scores F1 = 0, not 1.
    const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
    return {
      ...base,
      tp: t.tp,
      fp: t.fp,
      fn: t.fn,
      tn: t.tn,
      f1: t.n === 0 ? undefined : ratio(2 * t.tp, 2 * t.tp + t.fp + t.fn),
      accuracy: t.n === 0 ? undefined : (t.tp + t.tn) / t.n,
      precision: t.n === 0 ? undefined : ratio(t.tp, t.tp + t.fp),
      recall: t.n === 0 ? undefined : ratio(t.tp, t.tp + t.fn),
    };
  }
  if (kind === 'continuous') return { ...base, nmae: t.n === 0 ? undefined : t.errorSum / t.n, skipped: t.skipped };
  if (field === 'next_user_message') return { ...base, judgeMean: t.n === 0 ? undefined : t.judgeSum / t.n };
  return { ...base, accuracy: t.n === 0 ? undefined : t.correct / t.n };
}

function componentsOf(fields: readonly FieldScore[]): Record<ComponentId, number | undefined> {
  const out = {} as Record<ComponentId, number | undefined>;
  for (const c of COMPONENTS) {
    const scene = BINARY_COMPONENT_SCENE[c];
    if (scene) {
      const f1s = fields.filter((f) => f.kind === 'binary' && f.scene === scene && f.f1 !== undefined).map((f) => f.f1 as number);
      out[c] = f1s.length ? mean(f1s) * 100 : undefined;
    }
  }
  const nmae = fields.find((f) => f.field === 'video_watch_seconds')?.nmae;
  out.videoContinuous = nmae === undefined ? undefined : 100 - nmae;
  const judge = fields.find((f) => f.field === 'next_user_message')?.judgeMean;
  out.shopText = judge === undefined ? undefined : judge * 10;
  return out;
}

export function testActionsByKey(bench: OmniBenchmark): Map<string, TestAction> {
  const out = new Map<string, TestAction>();
  for (const u of bench.users.values()) for (const t of u.testActions) out.set(predictionKey(t.userId, t.index), t);
  return out;
}

export const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
