// One chat completion per step over the official `openai` client, with our own retry loop (spec section 2:
// after 3 failed attempts the reference records an error record). Pure: no `vscode`.
import type OpenAI from 'openai';
import {
  DEFAULT_MAX_REPLY_BYTES,
  guardedFetch,
  MAX_TIMEOUT_SECONDS,
  timeoutMessage,
  type LimitState,
} from './guardedFetch';

export interface EndpointConfig {
  baseURL: string;
  /** Never logged or written anywhere; may be '' for local servers. */
  apiKey: string;
  model: string;
  /** default 0 */
  temperature?: number;
  maxTokens?: number;
  /** per attempt, headers and body; default 60 s, at most a day */
  timeoutMs?: number;
  /** a longer reply is cut off and fails the attempt; default 8 MiB */
  maxReplyBytes?: number;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** One HTTP attempt: what came back (text) or why it failed (error). */
export interface TransportResult {
  ok: boolean;
  raw: string;
  error: string;
  /** HTTP status when the server answered with an error status */
  status?: number;
  /** the server's Retry-After (or retry-after-ms), in ms */
  retryAfterMs?: number;
  /** 429, 5xx, timeouts and dropped connections: worth another attempt; the rest fails the step at once */
  transient: boolean;
  aborted: boolean;
  latencyMs: number;
  usage: Usage | null;
}

/**
 * How a request differs from the default one (a system and a user message, a JSON object reply, the endpoint's
 * temperature): a format's calls may send one user message, no response format, or their caller's parameters.
 */
export interface RequestShape {
  userOnly?: boolean;
  jsonObject?: boolean;
  /** merged into the body: temperature, max_tokens, max_completion_tokens, reasoning_effort; extra_body's keys too */
  params?: Record<string, unknown>;
  /** the whole conversation to send (a history of turns, then the question); the system and prompt go unused */
  messages?: readonly ChatMessage[];
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type ChatTransport = (
  system: string,
  prompt: string,
  signal?: AbortSignal,
  shape?: RequestShape,
) => Promise<TransportResult>;

const SHAPE_PARAMS = new Set(['temperature', 'max_tokens', 'max_completion_tokens', 'reasoning_effort', 'top_p']);

/** The body a request sends besides model and messages (no shape: the endpoint's temperature, a JSON object reply). */
export function requestBody(cfg: EndpointConfig, shape?: RequestShape): Record<string, unknown> {
  if (!shape) {
    return {
      temperature: cfg.temperature ?? 0,
      ...(cfg.maxTokens ? { max_tokens: cfg.maxTokens } : {}),
      response_format: { type: 'json_object' },
    };
  }
  const body: Record<string, unknown> = {};
  const params = shape.params ?? {};
  for (const [k, v] of Object.entries(params)) if (SHAPE_PARAMS.has(k)) body[k] = v;
  const extra = params.extra_body;
  if (typeof extra === 'object' && extra !== null && !Array.isArray(extra)) Object.assign(body, extra);
  if (shape.jsonObject) body.response_format = { type: 'json_object' };
  return body;
}

export interface RetryPolicy {
  /** attempts in all, the reference's 3 */
  attempts: number;
  /** first backoff delay; doubles per failed attempt */
  baseMs: number;
  maxMs: number;
  /** longest Retry-After honoured as given (longer ones are cut to this) */
  maxRetryAfterMs: number;
  /** injectable for tests; must reject (or resolve early) when the signal aborts */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 1000, maxMs: 30_000, maxRetryAfterMs: 120_000 };

/** Replaces every occurrence of the key, so that nothing derived from a reply or an error can carry it. */
export function redactor(apiKey: string): (text: string) => string {
  // Very short keys would redact ordinary words; real keys are long.
  if (typeof apiKey !== 'string' || apiKey.length < 8) return (t) => t;
  return (t) => (typeof t === 'string' && t.includes(apiKey) ? t.split(apiKey).join('[redacted]') : t);
}

/** The base URL without credentials or query (those could hold a secret), for manifests and history. */
export function publicBaseURL(baseURL: string): string {
  try {
    const u = new URL(baseURL);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return String(baseURL ?? '')
      .replace(/\/\/[^/@]*@/, '//')
      .split('?')[0];
  }
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function toUsage(u: OpenAI.CompletionUsage | undefined | null): Usage | null {
  if (!u) return null;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return { promptTokens: n(u.prompt_tokens), completionTokens: n(u.completion_tokens), totalTokens: n(u.total_tokens) };
}

/** 408, 409, 429 and 5xx are worth another attempt; any other status (400, 401, 403, 404, 422...) is not. */
function transientStatus(status: number | undefined): boolean {
  // No status: a connection error (refused, reset, socket destroyed mid-reply).
  if (status === undefined) return true;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

type OpenAIModule = typeof import('openai');
interface ClientSetUp {
  sdk: OpenAIModule;
  client: OpenAI | null;
  setupError: string;
}

let openaiLoad: Promise<OpenAIModule> | undefined;
/** The official client's module, evaluated at the first request: a job that sends nothing (score, audit, labels, the
 *  extension until a re-run) does not pay for it (docs/performance.md). */
const openaiModule = () => (openaiLoad ??= import('openai'));

/**
 * A single-attempt transport over the official client (its own retries off: maxRetries 0). Each request goes
 * through `guardedFetch`: the timeout covers headers and body, the reply is capped, redirects are not followed.
 */
export function createOpenAITransport(cfg: EndpointConfig): ChatTransport {
  const redact = redactor(cfg.apiKey);
  const timeout = Math.min(Math.max(1, Math.round(cfg.timeoutMs ?? 60_000)), MAX_TIMEOUT_SECONDS * 1000);
  const maxReplyBytes = Math.max(1, Math.floor(cfg.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES));
  let ready: Promise<ClientSetUp> | undefined;
  const setUp = async (): Promise<ClientSetUp> => {
    const sdk = await openaiModule();
    try {
      const client = new sdk.default({
        baseURL: cfg.baseURL,
        apiKey: typeof cfg.apiKey === 'string' ? cfg.apiKey : '',
        // Ours (guardedFetch) fires first; the client's would only cover the headers.
        timeout: timeout + 1000,
        maxRetries: 0,
        logLevel: 'off',
      });
      return { sdk, client, setupError: '' };
    } catch (e) {
      return { sdk, client: null, setupError: redact(e instanceof Error ? e.message : String(e)) };
    }
  };
  return async (system, prompt, signal, shape) => {
    const { sdk, client, setupError } = await (ready ??= setUp());
    const { APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
    const started = performance.now();
    const base = { raw: '', transient: false, aborted: false, usage: null };
    if (!client) return { ...base, ok: false, error: setupError, latencyMs: 0 };
    const limit: LimitState = {};
    const request = client.withOptions({ fetch: guardedFetch({ timeoutMs: timeout, maxReplyBytes }, limit) });
    // The client never removes the listener it adds to a caller's signal: give it a per-request one.
    const own = new AbortController();
    const relay = () => own.abort();
    if (signal?.aborted) own.abort();
    else signal?.addEventListener('abort', relay, { once: true });
    try {
      const res = await request.chat.completions.create(
        {
          ...(requestBody(cfg, shape) as { temperature?: number }),
          model: cfg.model,
          messages: shape?.messages
            ? shape.messages.map((m) => ({ role: m.role, content: m.content }))
            : shape?.userOnly
              ? [{ role: 'user', content: prompt }]
              : [
                  { role: 'system', content: system },
                  { role: 'user', content: prompt },
                ],
        },
        { signal: own.signal },
      );
      const latencyMs = performance.now() - started;
      const content: unknown = res?.choices?.[0]?.message?.content;
      const usage = toUsage(res?.usage);
      if (typeof content !== 'string') {
        // The reference retries any failed attempt; only what another attempt cannot change stops early.
        return { ...base, ok: false, error: 'The reply has no message content.', transient: true, latencyMs, usage };
      }
      return { ...base, ok: true, raw: redact(content), error: '', latencyMs, usage };
    } catch (e) {
      const latencyMs = performance.now() - started;
      const message = redact(e instanceof Error ? e.message : String(e));
      if (e instanceof APIUserAbortError || signal?.aborted) {
        return { ...base, ok: false, error: message || 'Request was aborted.', aborted: true, latencyMs };
      }
      if (limit.error) {
        return { ...base, ok: false, error: redact(limit.error.message), transient: limit.error.transient, latencyMs };
      }
      if (e instanceof APIConnectionTimeoutError) {
        return { ...base, ok: false, error: timeoutMessage(timeout), transient: true, latencyMs };
      }
      if (e instanceof APIError) {
        const status = typeof e.status === 'number' ? e.status : undefined;
        const transient = transientStatus(status);
        return {
          ...base,
          ok: false,
          error: message,
          status,
          transient,
          retryAfterMs: retryAfterMs(e.headers),
          latencyMs,
        };
      }
      return { ...base, ok: false, error: message, transient: true, latencyMs };
    } finally {
      signal?.removeEventListener('abort', relay);
    }
  };
}

export interface AttemptInfo {
  attempt: number;
  ok: boolean;
  error: string;
  status?: number;
  latencyMs: number;
  usage: Usage | null;
  /** the delay waited after this attempt before the next one (0 for the last) */
  waitedMs: number;
}

export interface CallOutcome {
  /** the accepted reply text, or '' when every attempt failed */
  raw: string;
  /** the last raw text received even when rejected (for debugging a parse failure) */
  lastRaw: string;
  ok: boolean;
  /** the last failure's message when !ok (goes into the error record) */
  error: string;
  aborted: boolean;
  attempts: AttemptInfo[];
  /** of the last attempt */
  latencyMs: number;
  /** of the accepted reply (null when none or the server gave none) */
  usage: Usage | null;
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Exponential backoff with "equal jitter" (half fixed, half random); a usable Retry-After wins. */
export function backoffDelay(failedAttempt: number, retryAfter: number | undefined, policy: RetryPolicy): number {
  if (retryAfter !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0) {
    return Math.min(retryAfter, policy.maxRetryAfterMs);
  }
  const rand = policy.random ?? Math.random;
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failedAttempt - 1));
  return exp / 2 + (exp / 2) * rand();
}

/**
 * Up to `policy.attempts` attempts. `accept` checks a reply text and returns an error message to reject it
 * (the reference counts a reply that fails to parse as a failed attempt). A failure that is not transient (401,
 * a redirect, an oversized reply) ends the step at once. An abort stops at once and is never reported as a failure
 * of the step.
 */
export async function callWithRetries(
  transport: ChatTransport,
  system: string,
  prompt: string,
  accept: (raw: string) => string | null | Promise<string | null>,
  policy: RetryPolicy = DEFAULT_RETRY,
  signal?: AbortSignal,
  shape?: RequestShape,
): Promise<CallOutcome> {
  const sleep = policy.sleep ?? abortableSleep;
  const attempts: AttemptInfo[] = [];
  const total = Math.max(1, Math.floor(policy.attempts) || 1);
  let lastRaw = '';
  let error = '';
  for (let attempt = 1; attempt <= total; attempt++) {
    if (signal?.aborted) break;
    let r: TransportResult;
    try {
      r = await transport(system, prompt, signal, shape);
    } catch (e) {
      r = {
        ok: false,
        raw: '',
        error: e instanceof Error ? e.message : String(e),
        transient: true,
        aborted: false,
        latencyMs: 0,
        usage: null,
      };
    }
    if (r.aborted || signal?.aborted) {
      attempts.push({
        attempt,
        ok: false,
        error: r.error || 'aborted',
        latencyMs: r.latencyMs,
        usage: r.usage,
        waitedMs: 0,
      });
      break;
    }
    if (r.ok) {
      lastRaw = r.raw;
      const rejected = await accept(r.raw);
      if (rejected === null) {
        attempts.push({ attempt, ok: true, error: '', latencyMs: r.latencyMs, usage: r.usage, waitedMs: 0 });
        return {
          raw: r.raw,
          lastRaw,
          ok: true,
          error: '',
          aborted: false,
          attempts,
          latencyMs: r.latencyMs,
          usage: r.usage,
        };
      }
      error = rejected;
    } else {
      error = r.error;
    }
    // A reply that failed to parse is retried (as the reference does); a transport failure only when transient.
    const final = !r.ok && !r.transient;
    const info: AttemptInfo = {
      attempt,
      ok: false,
      error,
      status: r.status,
      latencyMs: r.latencyMs,
      usage: r.usage,
      waitedMs: 0,
    };
    attempts.push(info);
    if (final) break;
    if (attempt < total) {
      info.waitedMs = backoffDelay(attempt, r.retryAfterMs, policy);
      await sleep(info.waitedMs, signal);
    }
  }
  const last = attempts[attempts.length - 1];
  const aborted = signal?.aborted === true;
  return { raw: '', lastRaw, ok: false, error, aborted, attempts, latencyMs: last?.latencyMs ?? 0, usage: null };
}
