// The trace view's model of one test action: the profile, the action's context, and each question with the
// verdict of the core's scoring. No vscode import: unit-tested.
import { numberValue } from '../../../core/omni/fields';
import { actionsInOrder } from '../../../core/omni/order';
import { overallText } from '../../../core/omni/overallReason';
import { questionNormaliser, questionVerdict, type OmniRunScore } from '../../../core/omni/score';
import type { HistoryRecord, OmniRun, OmniUser, Question, TestAction } from '../../../core/omni/types';
import { predictionKey } from '../../../core/omni/types';
import type { ContextEntry, QuestionRow, TraceModel, Verdict } from '../../../shared/omni/traceProtocol';

export interface TraceInput {
  user: OmniUser;
  action: TestAction;
  run: OmniRun | undefined;
  /** the test action's own record (its context); undefined when it could not be read */
  record: HistoryRecord | undefined;
  counts: Pick<TraceModel, 'scenes' | 'behaviours'>;
  /** the run's score, for its headline and coverage */
  score?: OmniRunScore;
  /** how the run was made in this window, when it was */
  made?: string;
}

const MAX_VALUE = 2000;

export function contextEntries(context: Record<string, unknown> | null | undefined): ContextEntry[] {
  if (!context) return [];
  return Object.entries(context).map(([key, v]) => {
    const text = typeof v === 'string' ? v : v === null || v === undefined ? '—' : JSON.stringify(v);
    return { key, value: text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text };
  });
}

/** Why a question is left out or unscored, or how it was scored when that is not obvious ('' otherwise). */
function noteOf(q: Question, verdict: Verdict, normaliser: number | undefined): string {
  if (verdict === 'left-out') {
    const what = q.type === 'binary' ? 'Yes / No or probability' : q.type === 'continuous' ? 'number' : 'text';
    return `no usable predicted ${what}: left out of every metric, as the reference leaves it out`;
  }
  if (q.type === 'binary') return verdict === 'unscored' ? 'the true value is not Yes / No: not scored' : '';
  if (q.type === 'continuous') {
    if (normaliser === undefined || !(normaliser > 0)) {
      return q.field === 'video_watch_seconds'
        ? 'no normaliser (video duration missing or ≤ 0): skipped by NMAE'
        : 'no normaliser (only video watch time has one, the video duration): no NMAE';
    }
    return verdict === 'unscored' ? 'no numeric true value: not scored' : '';
  }
  if (q.field === 'next_user_message') return verdict === 'unscored' ? 'no judge score: not in the judge mean' : '';
  return verdict === 'unscored' ? 'no true value: not scored' : '';
}

export function questionRow(q: Question, action: Pick<TestAction, 'normaliser'>): QuestionRow {
  const normaliser = questionNormaliser(q, action);
  const v = questionVerdict(q, normaliser);
  let absError: number | null = null;
  let normalisedError: number | null = null;
  if (q.type === 'continuous') {
    const t = numberValue(q.trueValue);
    const p = numberValue(q.predictedValue);
    if (t !== undefined && p !== undefined) absError = Math.abs(t - p);
    if (v.error !== undefined) normalisedError = v.error * 100;
  }
  return {
    field: q.field,
    type: q.type,
    trueValue: q.trueValue,
    predictedValue: q.predictedValue,
    predictedLabel: q.predictedLabel,
    verdict: v.verdict,
    absError,
    normalisedError,
    note: noteOf(q, v.verdict, normaliser),
    judgeScore: q.judgeScore ?? null,
    hasRaw: q.rawOutput.length > 0,
  };
}

export function buildTraceModel(input: TraceInput): TraceModel {
  const { user, action, run, record } = input;
  const prediction = run?.predictions.get(predictionKey(action.userId, action.index));
  const questions = (prediction?.questions ?? []).map((q) => questionRow(q, action));
  const counts: Record<Verdict, number> = { correct: 0, incorrect: 0, graded: 0, 'left-out': 0, unscored: 0 };
  const order = actionsInOrder(user);
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
    contextState:
      record === undefined ? 'unreadable' : record.context && Object.keys(record.context).length ? 'read' : 'none',
    normaliser: action.normaliser ?? null,
    questions,
    counts,
    noPrediction: run !== undefined && prediction === undefined,
    runFigures: run && input.score ? overallText(input.score) : null,
    runMade: run ? (input.made ?? null) : null,
    scenes: input.counts.scenes,
    behaviours: input.counts.behaviours,
    position: order.findIndex((a) => a.index === action.index) + 1,
    actions: order.length,
  };
}
