// A small OpenAI-compatible chat-completions server on 127.0.0.1 (port 0) that scripts its replies per request
// and records every request. Used by the runner tests and the extension e2e:
//
//   const server = await startScriptedServer();                    // the "smart" script: valid replies
//   const server = await startScriptedServer((req) => req.info.step === 2 ? reply.status(500) : reply.smart());
//   const server = await startScriptedServer([reply.text('not json'), reply.drop()]);   // a queue, then smart
//   ... baseURL: server.baseURL ...
//   server.requests.map((r) => [r.info.user, r.info.step]);
//   await server.close();
//
// Hostile replies (reply.trickle, reply.endless, reply.oversize, reply.redirect, reply.status(401)) misbehave as an
// endpoint could; every loop in them is bounded in count and time, and close() stops them all.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RunOptions } from '../../src/core/spb/run/runner';
import type { Benchmark } from '../../src/core/spb/types';
import { kForPool } from '../../src/core/spb/score/step';

export {
  readResultRows,
  tinyBenchLines,
  writeTinyBench,
  type ResultStepRow,
  type ResultUserRow,
  type TinyBenchOptions,
} from './tinyBench';

export type Reply =
  /** a completion whose message content is JSON.stringify(body) */
  | { kind: 'json'; body: unknown }
  /** a completion whose message content is exactly this text (fences, invalid JSON, ...) */
  | { kind: 'text'; content: string }
  /** an error status, e.g. 429 with { 'retry-after': '1' } */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** answer `then` after ms (or never, when the client gives up first) */
  | { kind: 'delay'; ms: number; then: Reply }
  /** socket.destroy() without an answer */
  | { kind: 'drop' }
  /** a valid reply: the first k pool tags of the prompt, a persona naming user and step */
  | { kind: 'smart' }
  /** the smart reply's headers at once, then its body `bytes` bytes every `everyMs` ms */
  | { kind: 'trickle'; everyMs: number; bytes: number }
  /** a text/event-stream that sends an event every `everyMs` ms and ends only after `maxEvents` */
  | { kind: 'endless'; everyMs: number; maxEvents: number }
  /** a 200 JSON reply of `bytes` bytes in 64 KiB chunks (chunked: no Content-Length unless `declare`) */
  | { kind: 'oversize'; bytes: number; declare: boolean }
  /** a 3xx pointing at `location` */
  | { kind: 'redirect'; status: number; location: string };

export const reply = {
  json: (body: unknown): Reply => ({ kind: 'json', body }),
  text: (content: string): Reply => ({ kind: 'text', content }),
  fenced: (body: unknown): Reply => ({ kind: 'text', content: '```json\n' + JSON.stringify(body) + '\n```' }),
  status: (status: number, headers?: Record<string, string>, body?: unknown): Reply => ({
    kind: 'status',
    status,
    headers,
    body,
  }),
  delay: (ms: number, then: Reply = { kind: 'smart' }): Reply => ({ kind: 'delay', ms, then }),
  drop: (): Reply => ({ kind: 'drop' }),
  smart: (): Reply => ({ kind: 'smart' }),
  trickle: (everyMs = 1000, bytes = 1): Reply => ({ kind: 'trickle', everyMs, bytes: Math.max(1, bytes) }),
  endless: (everyMs = 200, maxEvents = 1000): Reply => ({ kind: 'endless', everyMs, maxEvents }),
  oversize: (bytes: number, declare = false): Reply => ({ kind: 'oversize', bytes: Math.min(bytes, 2 ** 30), declare }),
  redirect: (location: string, status = 307): Reply => ({ kind: 'redirect', status, location }),
};

/** What the prompt says about the step; fields are undefined when the template does not show them. */
export interface PromptInfo {
  user?: string;
  step?: number;
  /** the persona block's text ('' when the markers are there but empty) */
  persona?: string;
  pool?: string[];
  k?: number;
}

export interface RecordedRequest {
  /** 0-based arrival order */
  index: number;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** the decoded JSON body (undefined when it was not JSON) */
  body: unknown;
  system: string;
  prompt: string;
  info: PromptInfo;
  /** the reply kind finally used (after resolving delay) */
  outcome: Reply['kind'];
  /** body bytes written; `complete` once all were, `closed` once the connection closed */
  sent: { bytes: number; complete: boolean; closed: boolean };
}

export type Script = readonly Reply[] | ((req: RecordedRequest) => Reply | Promise<Reply>);

export interface ScriptedServer {
  port: number;
  /** http://127.0.0.1:<port>/v1 */
  baseURL: string;
  requests: RecordedRequest[];
  setScript(script: Script | undefined): void;
  /** resolves once `n` requests have arrived */
  waitForRequests(n: number): Promise<void>;
  /** resolves once the connection of request `index` (0-based) has closed */
  waitForClose(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads the step out of a prompt. Knows the default template ("Username: ...", "# Posts of step N",
 * "# Persona so far" block) and test markers (USER=..., STEP=N, PERSONA<<...>>). The pool is the last line that
 * is a JSON array of strings.
 */
export function promptInfo(prompt: string): PromptInfo {
  const info: PromptInfo = {};
  const user = /USER=(\S+)/.exec(prompt) ?? /Username: (\S+)/.exec(prompt);
  if (user) info.user = user[1];
  const step = /STEP=(\d+)/.exec(prompt) ?? /# Posts of step (\d+)/.exec(prompt);
  if (step) info.step = Number(step[1]);
  const persona =
    /PERSONA<<([\s\S]*?)>>/.exec(prompt) ?? /# Persona so far\n([\s\S]*?)\n\n# Posts of step/.exec(prompt);
  if (persona) info.persona = persona[1];
  const lines = prompt.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim().replace(/^POOL=/, '');
    if (!line.startsWith('[') || !line.endsWith(']')) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (Array.isArray(v) && v.every((t) => typeof t === 'string')) {
        info.pool = v;
        info.k = kForPool(v.length);
        break;
      }
    } catch {
      // not the pool line
    }
  }
  return info;
}

/** The smart script's reply body: deterministic in the prompt, so that two runs give the same results. */
export function smartBody(info: PromptInfo): { persona_summary: string; predicted_tags: string[]; reasoning: string } {
  const pool = info.pool ?? [];
  return {
    persona_summary: `persona of ${info.user ?? '?'} after step ${info.step ?? '?'}`,
    predicted_tags: pool.slice(0, info.k ?? kForPool(pool.length)),
    reasoning: `received persona: ${info.persona ?? '?'}`,
  };
}

function completion(content: string, model: string): unknown {
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

function messageText(body: unknown, role: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const messages = (body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return '';
  const m: unknown = messages.find(
    (x) => typeof x === 'object' && x !== null && (x as { role?: unknown }).role === role,
  );
  const content = (m as { content?: unknown } | undefined)?.content;
  return typeof content === 'string' ? content : '';
}

export async function startScriptedServer(script?: Script): Promise<ScriptedServer> {
  let current: Script | undefined = script;
  let queuePos = 0;
  const requests: RecordedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const closed = new Map<number, Promise<void>>();

  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  /** Writes `total` bytes of `chunk(offset, size)` in pieces of `size`, `everyMs` apart (0: as fast as drained). */
  const stream = (
    res: ServerResponse,
    rec: RecordedRequest,
    total: number,
    size: number,
    everyMs: number,
    chunk: (offset: number, size: number) => Buffer,
  ): void => {
    const step = (): void => {
      if (res.destroyed) return;
      if (rec.sent.bytes >= total) {
        rec.sent.complete = true;
        res.end();
        return;
      }
      const piece = chunk(rec.sent.bytes, Math.min(size, total - rec.sent.bytes));
      rec.sent.bytes += piece.length;
      const drained = res.write(piece);
      if (everyMs > 0) later(everyMs, step);
      else if (drained) setImmediate(step);
      else res.once('drain', step);
    };
    step();
  };

  const pick = async (req: RecordedRequest): Promise<Reply> => {
    if (typeof current === 'function') return current(req);
    if (Array.isArray(current) && queuePos < current.length) return current[queuePos++];
    return reply.smart();
  };

  const send = (res: ServerResponse, r: Reply, rec: RecordedRequest, model: string): void => {
    rec.outcome = r.kind;
    if (res.destroyed || res.writableEnded) return;
    switch (r.kind) {
      case 'drop':
        res.socket?.destroy();
        return;
      case 'delay': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(res, r.then, rec, model);
        }, r.ms);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'status': {
        const body = JSON.stringify(
          r.body ?? { error: { message: `scripted ${r.status}`, type: 'scripted', code: null } },
        );
        res.writeHead(r.status, { 'content-type': 'application/json', ...(r.headers ?? {}) });
        res.end(body);
        return;
      }
      case 'trickle': {
        const body = Buffer.from(JSON.stringify(completion(JSON.stringify(smartBody(rec.info)), model)));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
        res.flushHeaders();
        stream(res, rec, body.length, r.bytes, r.everyMs, (at, n) => body.subarray(at, at + n));
        return;
      }
      case 'endless': {
        const event = Buffer.from('data: {"choices":[{"delta":{"content":"x"}}]}\n\n');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        stream(res, rec, event.length * Math.max(1, r.maxEvents), event.length, r.everyMs, () => event);
        return;
      }
      case 'oversize': {
        const head = Buffer.from('{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"content":"');
        const filler = Buffer.alloc(64 * 1024, 'a');
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(r.declare ? { 'content-length': String(r.bytes) } : {}),
        });
        res.flushHeaders();
        stream(res, rec, r.bytes, filler.length, 0, (at, n) => (at === 0 ? head : filler.subarray(0, n)));
        return;
      }
      case 'redirect':
        res.writeHead(r.status, { location: r.location, 'content-type': 'application/json' });
        res.end('{}');
        return;
      default: {
        const content =
          r.kind === 'json'
            ? JSON.stringify(r.body)
            : r.kind === 'text'
              ? r.content
              : JSON.stringify(smartBody(rec.info));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completion(content, model)));
      }
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const prompt = messageText(body, 'user');
    const rec: RecordedRequest = {
      index: requests.length,
      method: req.method ?? '',
      url: req.url ?? '',
      headers: { ...req.headers },
      body,
      system: messageText(body, 'system'),
      prompt,
      info: promptInfo(prompt),
      outcome: 'smart',
      sent: { bytes: 0, complete: false, closed: false },
    };
    requests.push(rec);
    const onClose = new Promise<void>((resolve) => res.once('close', resolve));
    closed.set(
      rec.index,
      onClose.then(() => void (rec.sent.closed = true)),
    );
    for (const w of waiters.filter((x) => requests.length >= x.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
      send(res, reply.status(404), rec, '');
      return;
    }
    const model =
      typeof (body as { model?: unknown })?.model === 'string' ? (body as { model: string }).model : 'scripted';
    let r: Reply;
    try {
      r = await pick(rec);
    } catch (e) {
      r = reply.status(500, undefined, { error: { message: `script threw: ${String(e)}` } });
    }
    send(res, r, rec, model);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(s) {
      current = s;
      queuePos = 0;
    },
    waitForClose(index) {
      return closed.get(index) ?? Promise.reject(new Error(`no request ${index}`));
    },
    waitForRequests(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A template whose markers promptInfo() reads (user, step, persona, pool). */
export const MARKER_TEMPLATE = `USER={{username}} STEP={{step}}
PERSONA<<{{persona}}>>
Posts:
{{posts}}
Pick exactly {{k}} of these {{pool_size}} tags:
POOL={{pool_json}}
`;

/**
 * The runner's options against the scripted server (read when called: tests start it in beforeAll) with the marker
 * template; `base` gives the key, the attempt timeout and what else a test file sets for all its runs.
 */
export function scriptedRunOptions(
  server: () => ScriptedServer,
  base: { apiKey: string; timeoutMs: number } & Partial<RunOptions>,
): (bench: Benchmark, name: string, extra?: Partial<RunOptions>) => RunOptions {
  const { apiKey, timeoutMs, ...rest } = base;
  return (bench, name, extra = {}) => ({
    bench,
    name,
    template: MARKER_TEMPLATE,
    endpoint: { baseURL: server().baseURL, apiKey, model: 'scripted-model', timeoutMs },
    ...rest,
    ...extra,
  });
}
