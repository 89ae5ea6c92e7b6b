// One test action sent: its questions from the prompt source, one request per question with the source's request
// shape and attempts, each reply read by the source's rules. What comes back is the predictions.jsonl line the scorer
// reads: a question whose attempts all failed keeps predicted_value null and its error (the authors' runner files it
// under failed_questions; the metric pass leaves both out).
import { callWithRetries, type ChatTransport, type RetryPolicy, type Usage } from '../../runner/client';
import type { FieldKind } from '../types';
import type { OmniParsed, OmniPromptSource, OmniQuestionRequest, OmniRequestOptions } from './source';

export interface AnswerLine {
  type: FieldKind;
  field: string;
  true_value: number | string | null;
  predicted_value: number | string | null;
  predicted_label: 0 | 1 | null;
  raw_output: string;
  prompt_tokens: number;
  completion_tokens: number;
  video_duration?: number | null;
  /** why no value was read (every attempt failed) */
  error?: string;
  attempts: number;
}

export interface PredictionLine {
  user_id: string;
  index: number;
  questions: AnswerLine[];
  /** the builder filtered the record out: nothing was asked */
  filtered?: boolean;
}

export interface ActionCost {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

/** One question's request and what came of it, for the re-run view and the history. */
export interface AnswerRun {
  question: OmniQuestionRequest;
  answer: AnswerLine;
  params: Record<string, unknown>;
  latencyMs: number;
}

export interface ActionRun {
  line: PredictionLine;
  answers: AnswerRun[];
  cost: ActionCost;
  /** the run was stopped before every question was asked: nothing of it may be kept */
  aborted: boolean;
}

export interface ActionInput {
  source: OmniPromptSource;
  transport: ChatTransport;
  model: string;
  /** the user's temperature; undefined: the source's caller decides (the authors' 0.1) */
  temperature?: number;
  /** delays only: the attempts come from the source */
  retry: RetryPolicy;
  requestOptions: OmniRequestOptions;
  signal?: AbortSignal;
  /** a prompt to send instead of the source's for the question of this field (an edited prompt) */
  promptFor?: (q: OmniQuestionRequest) => string | null;
}

const tokens = (u: Usage | null, k: 'promptTokens' | 'completionTokens') => u?.[k] ?? 0;

export async function runQuestion(q: OmniQuestionRequest, prompt: string, input: ActionInput): Promise<AnswerRun> {
  const shape = await input.source.request(q.kind, input.model, input.temperature);
  let read: OmniParsed | null = null;
  const outcome = await callWithRetries(
    input.transport,
    '',
    prompt,
    async (raw) => {
      read = await input.source.parse(q.kind, raw, input.model);
      return read.ok ? null : (read.error ?? 'the reply could not be read');
    },
    { ...input.retry, attempts: shape.attempts },
    input.signal,
    { userOnly: shape.userOnly, params: shape.params },
  );
  const last = outcome.attempts[outcome.attempts.length - 1];
  const parsed = outcome.ok ? (read as OmniParsed | null) : null;
  const answer: AnswerLine = {
    type: q.kind,
    field: q.field,
    true_value: q.trueValue,
    predicted_value: parsed?.prediction ?? null,
    predicted_label: parsed?.label ?? null,
    raw_output: outcome.ok ? outcome.raw : outcome.lastRaw,
    prompt_tokens: outcome.attempts.reduce((n, a) => n + tokens(a.usage, 'promptTokens'), 0),
    completion_tokens: outcome.attempts.reduce((n, a) => n + tokens(a.usage, 'completionTokens'), 0),
    ...(q.kind === 'continuous' && q.videoDuration !== undefined ? { video_duration: q.videoDuration } : {}),
    ...(outcome.ok ? {} : { error: outcome.error || last?.error || 'no reply' }),
    attempts: outcome.attempts.length,
  };
  const latencyMs = Math.round(outcome.attempts.reduce((n, a) => n + a.latencyMs, 0));
  return { question: q, answer, params: shape.params, latencyMs };
}

/** Asks every question of one test action, in the builder's order. */
export async function runAction(file: string, userId: string, index: number, input: ActionInput): Promise<ActionRun> {
  const { filtered, questions } = await input.source.questions(file, userId, index, input.requestOptions);
  const line: PredictionLine = { user_id: userId, index, questions: [], ...(filtered ? { filtered } : {}) };
  const cost: ActionCost = { requests: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0 };
  const answers: AnswerRun[] = [];
  for (const q of questions) {
    const prompt = input.promptFor?.(q) ?? q.prompt;
    if (prompt === null) continue;
    if (input.signal?.aborted) return { line, answers, cost, aborted: true };
    const run = await runQuestion(q, prompt, input);
    if (input.signal?.aborted) return { line, answers, cost, aborted: true };
    answers.push(run);
    line.questions.push(run.answer);
    cost.requests += run.answer.attempts;
    cost.promptTokens += run.answer.prompt_tokens;
    cost.completionTokens += run.answer.completion_tokens;
    cost.latencyMs += run.latencyMs;
  }
  return { line, answers, cost, aborted: false };
}
