// The `fetch` the runner gives the `openai` client: one timer for the whole request (headers and body; the client's
// own timer stops once the headers arrive), a cap on the reply's bytes (counted as they stream in, never buffered
// beyond the cap), and no redirects (a 3xx could carry the prompt to a host nobody checked). Pure: no `vscode`.

export const DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024;
/** Longer timeouts are refused: Node fires a timer above 2^31-1 ms after 1 ms. */
export const MAX_TIMEOUT_SECONDS = 86_400;

export type LimitKind = 'timeout' | 'too-large' | 'redirect';

/** Why the guard ended a request; `transient` says whether another attempt may help. */
export class RequestLimitError extends Error {
  constructor(
    message: string,
    readonly kind: LimitKind,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'RequestLimitError';
  }
}

export interface RequestLimits {
  timeoutMs: number;
  maxReplyBytes: number;
}

/** Where the guard leaves the reason it ended one request (the client wraps or replaces what fetch throws). */
export interface LimitState {
  error?: RequestLimitError;
}

/** Why `seconds` cannot be a timeout, or undefined when it can. `name` is the option or setting, for the message. */
export function timeoutProblem(seconds: number, name: string): string | undefined {
  if (!Number.isFinite(seconds) || seconds <= 0) return `${name} must be a positive number of seconds`;
  if (seconds > MAX_TIMEOUT_SECONDS)
    return `${name} ${seconds} is more than a day (${MAX_TIMEOUT_SECONDS} s), the longest timeout allowed`;
  return undefined;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;
const mib = (bytes: number) => `${Number((bytes / 1048576).toFixed(3))} MiB`;

export function timeoutMessage(ms: number): string {
  return `Request timed out: no complete reply within ${seconds(ms)} (the timeout covers the headers and the body).`;
}

export function tooLargeMessage(cap: number): string {
  return `The reply passed the ${mib(cap)} size limit and was cut off (raise maxReplyMB if a reply can be larger).`;
}

function redirectMessage(status: number, location: string | null, requestURL: string): string {
  let where = 'no Location';
  if (location !== null) {
    try {
      const u = new URL(location, requestURL);
      u.username = '';
      u.password = '';
      where = u.toString();
    } catch {
      where = location;
    }
    if (where.length > 300) where = where.slice(0, 300) + '…';
  }
  return `The endpoint answered ${status} redirecting to ${where}; redirects are not followed (point the base URL there if it is meant).`;
}

function requestURL(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.toString() : input.url;
}

/**
 * A fetch for one request: `state.error` says why the guard ended it. The timer is cleared only once the body has
 * been read to its end, failed, or been cancelled.
 */
export function guardedFetch(limits: RequestLimits, state: LimitState, base: typeof fetch = fetch): typeof fetch {
  const timeoutMs = Math.min(Math.max(1, limits.timeoutMs), MAX_TIMEOUT_SECONDS * 1000);
  const cap = Math.max(1, limits.maxReplyBytes);
  return async (input, init) => {
    const ctl = new AbortController();
    const outer = init?.signal ?? undefined;
    const relay = () => ctl.abort(outer?.reason);
    if (outer?.aborted) ctl.abort(outer.reason);
    else outer?.addEventListener('abort', relay, { once: true });
    const fail = (err: RequestLimitError) => {
      state.error ??= err;
      ctl.abort(err);
      return state.error;
    };
    const timer = setTimeout(() => fail(new RequestLimitError(timeoutMessage(timeoutMs), 'timeout', true)), timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', relay);
    };
    let res: Response;
    try {
      res = await base(input, { ...init, signal: ctl.signal, redirect: 'manual' });
    } catch (e) {
      finish();
      throw state.error ?? e;
    }
    if ((res.status >= 300 && res.status < 400) || res.type === 'opaqueredirect') {
      finish();
      await res.body?.cancel().catch(() => undefined);
      const msg = redirectMessage(res.status, res.headers.get('location'), requestURL(input));
      throw fail(new RequestLimitError(msg, 'redirect', false));
    }
    const declared = Number(res.headers.get('content-length') ?? '');
    if (!res.body || (Number.isFinite(declared) && declared > cap)) {
      finish();
      if (!res.body) return res;
      await res.body.cancel().catch(() => undefined);
      throw fail(new RequestLimitError(tooLargeMessage(cap), 'too-large', false));
    }
    const reader = res.body.getReader();
    let received = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            finish();
            c.close();
            return;
          }
          received += chunk.value.byteLength;
          if (received > cap) {
            const err = fail(new RequestLimitError(tooLargeMessage(cap), 'too-large', false));
            finish();
            reader.cancel(err).catch(() => undefined);
            c.error(err);
            return;
          }
          c.enqueue(chunk.value);
        } catch (e) {
          finish();
          c.error(state.error ?? e);
        }
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
