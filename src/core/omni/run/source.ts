// Where an OmniBehavior request comes from and how its reply is read: the benchmark's own code in the user's checkout
// (reference/source.ts) or Persona Lab's own prompt and reading (template.ts), the named fallback. The runner, the
// trace view's re-run, the judge, the PI guard's scan and the estimate all go through one of these.
import type { FieldKind, JudgeScores } from '../types';

/** One question of a test action, with the request that asks it (null: the builder renders none, it is not asked). */
export interface OmniQuestionRequest {
  field: string;
  kind: FieldKind;
  /** 1 / 0 for binary, a number for continuous, the true text for text fields */
  trueValue: number | string | null;
  videoDuration?: number | null;
  hasPriorUserSpeech?: boolean | null;
  prompt: string | null;
}

export interface OmniQuestions {
  /** the builder filters this record out (an empty or zero-length watch): nothing is asked */
  filtered: boolean;
  questions: OmniQuestionRequest[];
}

/** What the create call sends besides the model: its messages' shape and its parameters. */
export interface OmniRequestShape {
  /** true: one user message, no system message (the authors' calls) */
  userOnly: boolean;
  /** temperature, max_tokens / max_completion_tokens, reasoning_effort, extra_body… as the source's caller sets them */
  params: Record<string, unknown>;
  /** attempts in all for one question (a reply that cannot be read counts as a failed attempt) */
  attempts: number;
}

/** How one reply was read. */
export interface OmniParsed {
  ok: boolean;
  /** the predicted value: a probability for binary (1 / 0 by direct mapping), a number, or the cleaned text */
  prediction: number | string | null;
  /** 1 / 0 for binary answers */
  label: 0 | 1 | null;
  /** why it could not be read */
  error: string | null;
}

export { JUDGE_DIMENSIONS, type JudgeDimension, type JudgeScores } from '../types';

/** A test action as the judge sees it (the evaluator's record): the scene, its first prompt, the read answers. */
export interface JudgeRecord {
  /** the scene as written in the raw file */
  action_type: string;
  prompts: string[];
  questions: { type: FieldKind; field: string; true_value: unknown; predicted_value: unknown }[];
  model_responses: string[];
  scene_info: { action: unknown[] };
}

export type JudgeTarget = { status: 'not_target' | 'skipped'; prompt: null } | { status: 'target'; prompt: string };

export interface OmniRequestOptions {
  /** the history budget the builder fills (the authors' runs: 32000) */
  maxHistoryTokens: number;
  maxHistoryDays?: number | null;
}

export const DEFAULT_MAX_HISTORY_TOKENS = 32_000;

/** Which test actions: one user's (or every user's), one of them (or all). */
export interface OmniRunSelectionLike {
  userId?: string | null;
  index?: number | null;
}

export interface OmniPromptSource {
  kind: 'template' | 'reference';
  /** what every list shows */
  name: string;
  /** recorded with each attempt and in run.json */
  id: string;
  hash: string;
  checkout?: string;
  /** the questions of the test action at `index` of the user's raw file, each with its prompt */
  questions(file: string, userId: string, index: number, opts: OmniRequestOptions): Promise<OmniQuestions>;
  /** what the create call for an answer type (or the judge) sends, for this model */
  request(kind: FieldKind | 'judge', model: string, temperature?: number): Promise<OmniRequestShape>;
  parse(kind: FieldKind, reply: string, model: string): Promise<OmniParsed>;
  judgeTarget(record: JudgeRecord): Promise<JudgeTarget>;
  judgeParse(reply: string): Promise<JudgeScores | null>;
  close(): void;
}
