// Attempts of OmniBehavior test actions made in the workbench (Re-run Test Action, an edited prompt): kept in one
// append-only file per benchmark, .personalab/omni-attempts.jsonl (crash-safe, runner/appendLog.ts), and compared
// with the selected run's answers: which flipped from wrong to right or back, and by how much a graded answer moved.
import { isRecord } from '../../guards';
import { AttemptLog } from '../../rerun/attemptLog';
import { predictedBinaryLabel } from '../fields';
import { questionNormaliser, questionVerdict, type Verdict } from '../score';
import type { FieldKind, Prediction, Question, TestAction } from '../types';
import type { AnswerLine } from './action';

export const OMNI_ATTEMPTS_FILE = 'omni-attempts.jsonl';

export interface AttemptAnswer extends AnswerLine {
  /** the prompt as sent (after an edit, the edited one) */
  prompt: string;
  judge_score?: number;
}

export interface OmniAttempt {
  id: number;
  /** ISO time */
  at: string;
  userId: string;
  index: number;
  /** the run whose answers it is compared with */
  baseRun: string | null;
  source: { kind: 'template' | 'reference' | 'draft'; name: string; id: string };
  model: string;
  baseURL: string;
  /** the field whose prompt was edited by hand; null when every question was asked as the source renders it */
  edited: string | null;
  answers: AttemptAnswer[];
  /** the PI guard masked the prompts before sending */
  masked?: boolean;
}

const isOmniAttempt = (v: unknown): v is OmniAttempt =>
  isRecord(v) && Number.isInteger(v.id) && typeof v.userId === 'string' && Array.isArray(v.answers);

export class OmniAttemptStore extends AttemptLog<OmniAttempt> {
  static open(path: string): OmniAttemptStore {
    return new OmniAttemptStore(path, isOmniAttempt);
  }

  /** The attempts of one test action, newest first. */
  list(userId: string, index: number): OmniAttempt[] {
    return this.newestFirst((a) => a.userId === userId && a.index === index);
  }
}

export type AnswerChange = 'fixed' | 'broken' | 'same' | 'new' | 'lost';

export interface AnswerComparison {
  field: string;
  kind: FieldKind;
  trueValue: string | number | null;
  before: { value: string | number | null; verdict: Verdict; error?: number } | null;
  after: { value: string | number | null; verdict: Verdict; error?: number };
  /** fixed: wrong or left out → right; broken: right → wrong; new: no earlier answer; lost: no value read this time */
  change: AnswerChange;
  /** graded answers: the normalised error after − before (negative is better); null otherwise */
  delta: number | null;
}

function asQuestion(a: AnswerLine): Question {
  const q: Question = {
    type: a.type,
    field: a.field,
    trueValue: a.true_value,
    predictedValue: a.predicted_value,
    predictedLabel: a.type === 'binary' ? predictedBinaryLabel(a.predicted_label, a.predicted_value) : null,
    rawOutput: a.raw_output,
  };
  if (a.video_duration !== undefined && a.video_duration !== null) q.videoDuration = a.video_duration;
  return q;
}

const good = (v: Verdict) => v === 'correct';
const bad = (v: Verdict) => v === 'incorrect';

/** Each answer of the attempt against the same field's answer in `original` (the selected run's prediction). */
export function compareAttempt(
  action: Pick<TestAction, 'normaliser'>,
  original: Prediction | undefined,
  attempt: Pick<OmniAttempt, 'answers'>,
): AnswerComparison[] {
  return attempt.answers.map((a) => {
    const q = asQuestion(a);
    const after = { value: a.predicted_value, ...questionVerdict(q, questionNormaliser(q, action)) };
    const prior = original?.questions.find((x) => x.field === a.field);
    const before = prior
      ? { value: prior.predictedValue, ...questionVerdict(prior, questionNormaliser(prior, action)) }
      : null;
    let change: AnswerChange = 'same';
    if (!before) change = 'new';
    else if (after.verdict === 'left-out' && before.verdict !== 'left-out') change = 'lost';
    else if (good(after.verdict) && (bad(before.verdict) || before.verdict === 'left-out')) change = 'fixed';
    else if (bad(after.verdict) && good(before.verdict)) change = 'broken';
    const delta = after.error !== undefined && before?.error !== undefined ? after.error - before.error : null;
    return { field: a.field, kind: a.type, trueValue: a.true_value, before, after, change, delta };
  });
}
