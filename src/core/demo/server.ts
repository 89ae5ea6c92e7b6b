// The demo endpoint: a small OpenAI-compatible server on 127.0.0.1 whose one model answers each request by the fixed
// rule of the format whose shape it has (each descriptor's `demoAnswer`), "demo model, not an LLM". It serves
// GET /v1/models and POST /v1/chat/completions (plain JSON, or
// server-sent events when the request asks for `stream`); a prompt it cannot read gets HTTP 400 with the reason.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FORMATS } from '../formats';
import type { DemoMessage, DemoReply } from '../formats/descriptor';
import { DEMO_MODEL_ID, DEMO_MODEL_NAME } from './model';
import { http } from '../io/builtins';

export interface DemoServerOptions {
  /** 0 (the default): a free port. */
  port?: number;
  /** One line per request, e.g. "POST /v1/chat/completions 200: step 2, 4 of 16 tags". */
  log?: (line: string) => void;
}

export interface DemoServer {
  port: number;
  /** http://127.0.0.1:<port>/v1 */
  baseURL: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const OWNER = `persona-lab (${DEMO_MODEL_NAME})`;

const MODEL = { id: DEMO_MODEL_ID, object: 'model', created: 0, owned_by: OWNER };

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `The request body is over ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'The request body is not JSON.');
  }
}

/** The text of the last user message (a string, or the text parts of a content array). */
function userPrompt(body: Record<string, unknown>): string {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    throw new HttpError(400, '"messages" must be a non-empty array.');
  const user = [...messages]
    .reverse()
    .find((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && m.role === 'user');
  const content = user?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p: unknown) =>
        typeof p === 'object' && p !== null && (p as Record<string, unknown>).type === 'text'
          ? String((p as Record<string, unknown>).text ?? '')
          : '',
      )
      .join('');
  }
  throw new HttpError(400, 'No user message with text content.');
}

function answer(body: unknown): DemoReply {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  const rec = body as Record<string, unknown>;
  if (rec.model !== DEMO_MODEL_ID) {
    const asked = typeof rec.model === 'string' ? `"${rec.model}"` : 'no model';
    throw new HttpError(
      404,
      `This endpoint serves only ${DEMO_MODEL_ID} (${DEMO_MODEL_NAME}); the request asked for ${asked}.`,
      'invalid_request_error',
      'model_not_found',
    );
  }
  const prompt = userPrompt(rec);
  const messages = Array.isArray(rec.messages) ? (rec.messages as unknown[]) : [];
  const hasSystem = messages.some(
    (m) => typeof m === 'object' && m !== null && (m as { role?: unknown }).role === 'system',
  );
  const turns = messages.filter(
    (m): m is DemoMessage =>
      typeof m === 'object' &&
      m !== null &&
      typeof (m as { role?: unknown }).role === 'string' &&
      typeof (m as { content?: unknown }).content === 'string',
  );
  // A rule that reads its own shape is asked before one that answers anything of a broad shape.
  const ordered = [...FORMATS.filter((f) => !f.demoCatchAll), ...FORMATS.filter((f) => f.demoCatchAll)];
  let refused: string | undefined;
  for (const format of ordered) {
    const reply = format.demoAnswer?.(turns, { prompt, hasSystem });
    if (!reply) continue;
    if ('refused' in reply) refused ??= reply.refused;
    else return reply;
  }
  throw new HttpError(400, `${DEMO_MODEL_NAME}: ${refused ?? 'no format has a demo rule that reads this request'}`);
}

function completion(id: string, content: string): unknown {
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: DEMO_MODEL_ID,
    system_fingerprint: DEMO_MODEL_ID,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
  };
}

function stream(res: ServerResponse, id: string, content: string): void {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: DEMO_MODEL_ID,
      system_fingerprint: DEMO_MODEL_ID,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }, null));
  res.write(chunk({ content }, null));
  res.write(chunk({}, 'stop'));
  res.end('data: [DONE]\n\n');
}

export async function startDemoServer(opts: DemoServerOptions = {}): Promise<DemoServer> {
  const log = opts.log ?? (() => undefined);
  const sockets = new Set<Socket>();
  let served = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const done = (status: number, note: string) => log(`${method} ${path} ${status}: ${note}`);
    try {
      if (method === 'GET' && (path === '/v1/models' || path === '/models')) {
        sendJson(res, 200, { object: 'list', data: [MODEL] });
        return done(200, DEMO_MODEL_ID);
      }
      if (method === 'GET' && (path === `/v1/models/${DEMO_MODEL_ID}` || path === `/models/${DEMO_MODEL_ID}`)) {
        sendJson(res, 200, MODEL);
        return done(200, DEMO_MODEL_ID);
      }
      if (method === 'GET' && (path === '/' || path === '/v1')) {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`Persona Lab demo endpoint: ${DEMO_MODEL_ID} (${DEMO_MODEL_NAME}). Base URL: /v1\n`);
        return done(200, 'about');
      }
      if (path === '/v1/chat/completions' || path === '/chat/completions') {
        if (method !== 'POST') throw new HttpError(405, `${path} takes POST.`);
        const body = await readBody(req);
        const { content, summary } = answer(body);
        const id = `chatcmpl-demo-${++served}`;
        if ((body as Record<string, unknown>).stream === true) stream(res, id, content);
        else sendJson(res, 200, completion(id, content));
        return done(200, summary);
      }
      throw new HttpError(
        404,
        `No ${method} ${path} here: the demo endpoint serves GET /v1/models and POST /v1/chat/completions.`,
        'invalid_request_error',
        'not_found',
      );
    } catch (e) {
      const err =
        e instanceof HttpError ? e : new HttpError(500, e instanceof Error ? e.message : String(e), 'server_error');
      if (!res.headersSent)
        sendJson(res, err.status, { error: { message: err.message, type: err.type, code: err.code, param: null } });
      else res.destroy();
      done(err.status, err.message);
    }
  };

  const server = http().createServer((req, res) => void handle(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    baseURL: `http://127.0.0.1:${port}/v1`,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
