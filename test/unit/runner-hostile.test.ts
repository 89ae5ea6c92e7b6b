// The runner against a hostile endpoint: a body trickled a byte at a time, an event stream that does not
// end, a reply far over the size cap, a redirect to another port, a 401. Each ends the attempt with a clear error,
// and only what another attempt could change is retried.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWithRetries, createOpenAITransport, type EndpointConfig } from '../../src/core/runner/client';
import { runBenchmark } from '../../src/core/spb/run/runner';
import { loadBenchmark } from '../../src/core/spb/format/load';
import {
  MARKER_TEMPLATE,
  readResultRows,
  reply,
  startScriptedServer,
  writeTinyBench,
  type Reply,
  type ScriptedServer,
} from '../support/scriptedServer';

const KEY = 'sk-hostile-0123456789abcdef';
let server: ScriptedServer;
let other: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
  other = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  await other.close();
});

const endpoint = (extra: Partial<EndpointConfig> = {}): EndpointConfig => ({
  baseURL: server.baseURL,
  apiKey: KEY,
  model: 'm',
  timeoutMs: 1000,
  ...extra,
});
const noWait = { attempts: 3, baseMs: 1, maxMs: 1, maxRetryAfterMs: 1, sleep: async () => {} };
const once = (cfg: EndpointConfig) => createOpenAITransport(cfg)('sys', 'USER=u STEP=1\nPOOL=["#a#"]');

describe('the timeout covers the headers and the body', () => {
  it('ends a body trickled one byte at a time, naming the timeout', async () => {
    server.setScript([reply.trickle(100, 1)]);
    server.requests.length = 0;
    const r = await once(endpoint());
    expect(r).toMatchObject({ ok: false, transient: true, aborted: false });
    expect(r.error).toBe(
      'Request timed out: no complete reply within 1 s (the timeout covers the headers and the body).',
    );
    // The headers had come: the server had started the body, and was cut off before it finished.
    await server.waitForClose(0);
    expect(server.requests[0].sent.bytes).toBeGreaterThan(0);
    expect(server.requests[0].sent.complete).toBe(false);
  }, 20_000);

  it('ends an event stream that never finishes', async () => {
    server.setScript([reply.endless(50)]);
    server.requests.length = 0;
    const r = await once(endpoint({ timeoutMs: 800 }));
    expect(r).toMatchObject({ ok: false, transient: true });
    expect(r.error).toContain('no complete reply within 0.8 s');
    await server.waitForClose(0);
    expect(server.requests[0].sent.complete).toBe(false);
  }, 20_000);

  it('a timeout of more than 24.8 days is no timer that fires at once', async () => {
    // Node fires a timer above 2^31-1 ms after 1 ms; a slow but sound reply must still arrive.
    server.setScript([reply.delay(300)]);
    const r = await once(endpoint({ timeoutMs: 2_147_484_000 }));
    expect(r.error).toBe('');
    expect(r.ok).toBe(true);
  }, 20_000);
});

describe('the reply size cap', () => {
  it('cuts off a streamed reply over the cap without reading the rest', async () => {
    const bytes = 256 * 1024 * 1024;
    server.setScript([reply.oversize(bytes)]);
    server.requests.length = 0;
    const r = await once(endpoint({ timeoutMs: 30_000, maxReplyBytes: 1024 * 1024 }));
    expect(r).toMatchObject({ ok: false, transient: false });
    expect(r.error).toBe(
      'The reply passed the 1 MiB size limit and was cut off (raise maxReplyMB if a reply can be larger).',
    );
    await server.waitForClose(0);
    const { sent } = server.requests[0];
    expect(sent.complete).toBe(false);
    expect(sent.bytes).toBeLessThan(bytes / 4);
    // A reply under the same cap still comes through.
    server.setScript(undefined);
    expect(await once(endpoint({ maxReplyBytes: 1024 * 1024 }))).toMatchObject({ ok: true, error: '' });
  }, 30_000);

  it('refuses a declared Content-Length over the cap before reading the body', async () => {
    server.setScript([reply.oversize(64 * 1024 * 1024, true)]);
    server.requests.length = 0;
    const r = await once(endpoint({ timeoutMs: 30_000, maxReplyBytes: 1024 * 1024 }));
    expect(r.error).toContain('passed the 1 MiB size limit');
    await server.waitForClose(0);
    expect(server.requests[0].sent.complete).toBe(false);
  }, 30_000);
});

describe('redirects and statuses', () => {
  it('does not follow a redirect to another port, and names its Location', async () => {
    const location = `${other.baseURL}/chat/completions`;
    server.setScript(() => reply.redirect(location));
    server.requests.length = 0;
    other.requests.length = 0;
    const out = await callWithRetries(createOpenAITransport(endpoint()), 'sys', 'prompt', () => null, noWait);
    expect(out.ok).toBe(false);
    expect(out.error).toBe(
      `The endpoint answered 307 redirecting to ${location}; redirects are not followed (point the base URL there if it is meant).`,
    );
    expect(out.attempts).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });

  it.each([400, 401, 403, 404, 422])('fails at once on %i with the server message', async (status) => {
    server.setScript(() => reply.status(status, undefined, { error: { message: `no entry (${status})` } }));
    server.requests.length = 0;
    const out = await callWithRetries(createOpenAITransport(endpoint()), 'sys', 'prompt', () => null, noWait);
    expect(out.ok).toBe(false);
    expect(out.error).toContain(`no entry (${status})`);
    expect(out.attempts.map((a) => a.status)).toEqual([status]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('runBenchmark against a hostile endpoint', () => {
  it('a 401 fails its step at once; 429, 5xx and replies that fail to parse are still retried', async () => {
    const root = writeTinyBench({}, 'runner-hostile-');
    const bench = await loadBenchmark(root);
    const later: Record<number, Reply[]> = {
      2: [reply.status(429, { 'retry-after': '0' }), reply.status(503)],
      3: [reply.text('not json')],
    };
    server.setScript((req) => {
      const step = req.info.step ?? 0;
      if (step === 1 || step === 4) {
        return reply.status(401, undefined, { error: { message: 'Incorrect API key provided' } });
      }
      return later[step]?.shift() ?? reply.smart();
    });
    server.requests.length = 0;
    const summary = await runBenchmark({
      bench,
      name: 'h401',
      template: MARKER_TEMPLATE,
      endpoint: endpoint(),
      userId: 'we_0000000000',
      retry: { baseMs: 1, maxMs: 1, sleep: async () => {} },
    });
    expect(summary.status).toBe('finished');
    expect(summary.progress).toMatchObject({ done: 4, failed: 2, requests: 7 });
    expect(server.requests.map((r) => r.info.step)).toEqual([1, 2, 2, 2, 3, 3, 4]);
    const [row] = readResultRows(join(root, 'results/h401/inference_results_weibo.jsonl'));
    expect(row.steps.map((s) => s.reasoning.startsWith('Error: '))).toEqual([true, false, false, true]);
    expect(row.steps[0].reasoning).toMatch(/^Error: 401 .*Incorrect API key provided/);
  });
});
