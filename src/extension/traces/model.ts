// The trace view's model of one test action: the profile, the action's context, and each question with the
// verdict of the core's scoring. No vscode import: unit-tested.
import { questionVerdict } from '../../core/omni/score';
import type { HistoryRecord, OmniRun, OmniUser, Question, TestAction } from '../../core/omni/types';
import { predictionKey } from '../../core/omni/types';
import type { ContextEntry, QuestionRow, TraceModel, Verdict } from '../../shared/traceProtocol';

export interface TraceInput {
  user: OmniUser;
  action: TestAction;
  run: OmniRun | undefined;
  /** the test action's own record (its context); undefined when it could not be read */
  record: HistoryRecord | undefined;
  counts: Pick<TraceModel, 'scenes' | 'behaviours'>;
}

const MAX_VALUE = 2000;

export function contextEntries(context: Record<string, unknown> | null | undefined): ContextEntry[] {
  if (!context) return [];
  return Object.entries(context).map(([key, v]) => {
    const text = typeof v === 'string' ? v : v === null || v === undefined ? '—' : JSON.stringify(v);
    return { key, value: text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text };
  });
}

function numeric(v: string | number | null): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

export function questionRow(q: Question, normaliser: number | undefined): QuestionRow {
  const v = questionVerdict(q, normaliser);
  let absError: number | null = null;
  let normalisedError: number | null = null;
  let note = '';
  if (q.type === 'continuous') {
    const t = numeric(q.trueValue);
    const p = numeric(q.predictedValue);
    if (t !== null && p !== null) absError = Math.abs(t - p);
    if (typeof v.error === 'number') normalisedError = v.error;
    if (normaliser === undefined || !(normaliser > 0)) note = 'no normaliser (video duration missing or ≤ 0): skipped by NMAE';
    else if (absError === null) note = 'no numeric value to compare';
  }
  if (typeof v.error === 'string') note = v.error;
  if (!note && v.verdict === 'unscored') note = q.predictedLabel === null && q.type === 'binary' ? 'no usable answer in the raw output' : 'not scored';
  return {
    field: q.field,
    type: q.type,
    trueValue: q.trueValue,
    predictedValue: q.predictedValue,
    predictedLabel: q.predictedLabel,
    verdict: v.verdict,
    absError,
    normalisedError,
    note,
    judgeScore: q.judgeScore ?? null,
    hasRaw: q.rawOutput.length > 0,
  };
}

export function buildTraceModel(input: TraceInput): TraceModel {
  const { user, action, run, record } = input;
  const prediction = run?.predictions.get(predictionKey(action.userId, action.index));
  const questions = (prediction?.questions ?? []).map((q) => questionRow(q, action.normaliser));
  const counts: Record<Verdict, number> = { correct: 0, incorrect: 0, graded: 0, unscored: 0 };
  for (const q of questions) counts[q.verdict]++;
  return {
    ref: { userId: user.userId, index: action.index },
    run: run?.name ?? null,
    scene: action.scene,
    timestamp: action.timestamp,
    fields: action.fields,
    profile: user.profile,
    historyLength: user.historyLength,
    context: contextEntries(record?.context),
    normaliser: action.normaliser ?? null,
    questions,
    counts,
    noPrediction: run !== undefined && prediction === undefined,
    scenes: input.counts.scenes,
    behaviours: input.counts.behaviours,
  };
}
