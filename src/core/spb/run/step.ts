// One step against the endpoint: render, request (with retries), parse, thread the persona, score. Used by the
// batch runner and, on its own, by "Re-run Step". Writes nothing.
import { readPostsText } from '../format/load';
import { templateId } from '../prompt/prompt';
import { renderTemplateRequest, type PromptSource } from '../reference/source';
import { errorRecord, parseReply, threadPersona, type ParsedReply } from '../prompt/response';
import { kForPool, scoreStep } from '../score/step';
import type { Benchmark, Platform, Step, StepMetrics, User } from '../types';
import { personaReceived } from '../score/run';
import {
  callWithRetries,
  DEFAULT_RETRY,
  type AttemptInfo,
  type ChatTransport,
  type RetryPolicy,
  type Usage,
} from '../../runner/client';
import type { PersonaMode, StartPersona } from '../../runner/manifest';

export interface StepRequest {
  user: User;
  step: Step;
  /** the persona this step receives (null: cold start) */
  personaIn: string | null;
  template: string;
  systemMessage?: string;
  /** renders the request instead of `template` and `systemMessage` (the benchmark's own prompt builder) */
  source?: PromptSource;
  /** 'none' makes the next persona null whatever the reply says */
  personaMode?: PersonaMode;
  transport: ChatTransport;
  retry?: RetryPolicy;
  signal?: AbortSignal;
  readPosts?: (user: User, step: Step) => string;
  now?: () => Date;
  /** a request sent before, sent again as is (Retry); `template` is then not rendered */
  resend?: { system: string; prompt: string; templateId: string };
}

export interface StepRunRecord {
  platform: Platform;
  userId: string;
  username: string;
  stepId: number;
  stepIndex: number;
  templateId: string;
  personaIn: string | null;
  system: string;
  prompt: string;
  k: number;
  /** the accepted reply, or the last one received when every attempt failed ('' if none came) */
  raw: string;
  /** parse of `raw` (with flags), null when no text came back */
  parsed: ParsedReply | null;
  /** the error record's message when the step failed after all attempts, else null */
  error: string | null;
  prediction: unknown[];
  reasoning: string;
  personaSummary: string;
  /** what the next step of the chain receives */
  personaNext: string | null;
  groundTruth: string[];
  metrics: StepMetrics | null;
  attempts: AttemptInfo[];
  latencyMs: number;
  usage: Usage | null;
  at: string;
}

/** Why a reply counts as a failed attempt: the reference's json.loads failed, or gave no object. */
function rejectReason(parsed: ParsedReply): string | null {
  if (parsed.ok) return null;
  const flag = parsed.flags.find((f) => f.code === 'not_json' || f.code === 'not_object');
  if (flag?.code === 'not_json') return flag.error;
  return flag?.message ?? 'The reply could not be parsed.';
}

export function safeReadPosts(read: (user: User, step: Step) => string, user: User, step: Step): string {
  try {
    const text = read(user, step);
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}

/** The system message and prompt a step request sends (what runStep renders; the re-run guard scans it). */
export function renderStepRequest(
  req: Pick<StepRequest, 'user' | 'step' | 'personaIn' | 'template' | 'systemMessage' | 'readPosts'>,
): { system: string; prompt: string; k: number } {
  const { user, step } = req;
  const postsText = safeReadPosts(req.readPosts ?? readPostsText, user, step);
  return renderTemplateRequest(req.template, req.systemMessage, { user, step, personaIn: req.personaIn, postsText });
}

/** The prompt source could not render a step: nothing was sent, and the run stops with this message. */
export class PromptSourceError extends Error {}

/** Runs one step. Resolves to null when the signal aborted it (nothing is to be recorded then). */
export async function runStep(req: StepRequest): Promise<StepRunRecord | null> {
  const { user, step } = req;
  const pool = Array.isArray(step.pool) ? step.pool : [];
  let rendered: { system: string; prompt: string; k: number };
  if (req.resend) rendered = { ...req.resend, k: kForPool(pool.length) };
  else if (req.source) {
    const postsText = safeReadPosts(req.readPosts ?? readPostsText, user, step);
    try {
      rendered = await req.source.render({ user, step, personaIn: req.personaIn, postsText });
    } catch (e) {
      throw new PromptSourceError(`${req.source.name}: ${(e as Error).message}`);
    }
  } else rendered = renderStepRequest(req);
  const { system, prompt, k } = rendered;
  const outcome = await callWithRetries(
    req.transport,
    system,
    prompt,
    (raw) => rejectReason(parseReply(raw, pool, k)),
    req.retry ?? DEFAULT_RETRY,
    req.signal,
  );
  if (outcome.aborted || req.signal?.aborted) return null;
  const raw = outcome.ok ? outcome.raw : outcome.lastRaw;
  const parsed = outcome.ok || outcome.lastRaw !== '' ? parseReply(raw, pool, k) : null;
  const full = req.personaMode !== 'none';
  let prediction: unknown[];
  let reasoning: string;
  let personaSummary: string;
  let personaNext: string | null;
  if (outcome.ok && parsed?.value) {
    prediction = parsed.value.predicted_tags;
    reasoning = parsed.value.reasoning;
    personaSummary = parsed.value.persona_summary;
    personaNext = full ? threadPersona(req.personaIn, parsed.parsed as { persona_summary?: unknown }) : null;
  } else {
    const rec = errorRecord(outcome.error);
    prediction = rec.predicted_tags;
    reasoning = rec.reasoning;
    personaSummary = '';
    personaNext = full ? req.personaIn : null;
  }
  return {
    platform: user.platform,
    userId: user.userId,
    username: user.username,
    stepId: step.stepId,
    stepIndex: step.index,
    templateId: req.resend?.templateId ?? req.source?.id ?? templateId(req.template),
    personaIn: req.personaIn,
    system,
    prompt,
    k,
    raw,
    parsed,
    error: outcome.ok ? null : outcome.error,
    prediction,
    reasoning,
    personaSummary,
    personaNext,
    groundTruth: [...step.split.tNew, ...step.split.tKeep],
    metrics: scoreStep(step.split, prediction),
    attempts: outcome.attempts,
    latencyMs: outcome.latencyMs,
    usage: outcome.usage,
    at: (req.now ?? (() => new Date()))().toISOString(),
  };
}

/**
 * The persona the first step of a chain receives. At step 1 a chain gets none (unless a text is given by hand);
 * from a base run it is the persona that run's step `stepId` received (the last non-empty one written before).
 */
export function startPersonaFor(bench: Benchmark, spec: StartPersona, user: User, stepId: number): string | null {
  if (spec.kind === 'text') return spec.text === '' ? null : spec.text;
  if (spec.kind === 'run') {
    const persona = personaReceived(bench.runs.get(spec.run), user, stepId);
    return persona === '' ? null : persona;
  }
  return null;
}
