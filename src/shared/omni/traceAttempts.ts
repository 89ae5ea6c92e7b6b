// The trace view's re-run part of its protocol (see traceProtocol.ts): the attempts of the shown test action made in
// the workbench, each answer against the selected run's, and what the page asks for (Re-run, Edit Prompt, an
// attempt's prompt or raw reply).
import { arrayOf, claim, count, literal, message, nullable, optional, str, type Infer } from '../../core/guards';
import type { AnswerChange } from '../../core/omni/run/attempts';
import type { FieldKind } from '../../core/omni/types';

export interface AttemptRowView {
  field: string;
  kind: FieldKind;
  truth: string;
  /** the run's answer, as text; null: the run has none */
  before: string | null;
  after: string;
  change: AnswerChange;
  /** graded answers: the error's move in points of 100 (negative is better) */
  delta: number | null;
  judge: number | null;
  /** why no value was read this time */
  error: string | null;
}

export interface AttemptView {
  id: number;
  at: string;
  /** the prompt source and the model, e.g. "Persona Lab's prompt, not the benchmark's · demo-model at 127.0.0.1" */
  label: string;
  /** the question whose prompt was edited by hand */
  edited: string | null;
  rows: AttemptRowView[];
  fixed: number;
  broken: number;
}

/** The attempts of the test action shown, newest first; `running`: what is being sent now, or null. */
export const attemptsMessage = message('attempts', {
  attempts: claim<AttemptView[]>()(arrayOf((v): v is unknown => typeof v === 'object' && v !== null)),
  running: nullable(str),
  /** the prompt source a re-run will use, named */
  source: str,
});
export type AttemptsMessage = Infer<typeof attemptsMessage>;

/** Re-run Test Action: every question again, as the prompt source renders it. */
export const rerunActionMessage = message('rerunAction');
/** Edit Prompt: a draft of one question's request (the first question when no field is given). */
export const editPromptMessage = message('editPrompt', { field: optional(str) });
/** Open an attempt's prompt or raw reply for one question as a read-only document. */
export const openAttemptMessage = message('openAttempt', { id: count, field: str, which: literal('prompt', 'raw') });
