// The demo endpoint over HTTP (src/core/demo/server.ts) through our own OpenAI client and runner, and the CLI's
// `demo-endpoint` subcommand, in process and as dist/cli.js.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoEndpoint } from '../../src/cli/demo';
import { runRunCommand } from '../../src/cli/run';
import { DEMO_MODEL_ID } from '../../src/core/demo/model';
import { demoAnswer } from '../../src/core/spb/demo/profiler';
import { startDemoServer, type DemoServer } from '../../src/core/demo/server';
import { createOpenAITransport } from '../../src/core/runner/client';
import { renderStepRequest, runStep } from '../../src/core/spb/run/step';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { readResultRows } from '../support/scriptedServer';
import { SAMPLE } from '../support/committedSample';

let server: DemoServer;
const lines: string[] = [];

beforeAll(async () => {
  server = await startDemoServer({ log: (l) => lines.push(l) });
});
afterAll(async () => {
  await server?.close();
});

const post = (body: unknown, path = '/v1/chat/completions') =>
  fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('the demo endpoint over HTTP', () => {
  it('listens on 127.0.0.1 and lists its one model, named a demo model, not an LLM', async () => {
    expect(server.baseURL).toBe(`http://127.0.0.1:${server.port}/v1`);
    const list = (await (await fetch(`${server.baseURL}/models`)).json()) as {
      data: { id: string; owned_by: string }[];
    };
    expect(list.data).toEqual([expect.objectContaining({ id: DEMO_MODEL_ID })]);
    expect(list.data[0].owned_by).toContain('demo model, not an LLM');
    const one = (await (await fetch(`${server.baseURL}/models/${DEMO_MODEL_ID}`)).json()) as { id: string };
    expect(one.id).toBe(DEMO_MODEL_ID);
  });

  it('re-runs a sample step through our runner: k tags, no flag, the reply the profiler gives', async () => {
    const bench = await loadBenchmark(SAMPLE);
    const user = [...bench.users.get('weibo')!.values()].find((u) => u.steps.length >= 2)!;
    const step = user.steps[1];
    const transport = createOpenAITransport({ baseURL: server.baseURL, apiKey: '', model: DEMO_MODEL_ID });
    const rec = await runStep({ user, step, personaIn: 'Likes hiking.', template: DEFAULT_TEMPLATE, transport });
    expect(rec?.error).toBeNull();
    expect(rec?.parsed?.flags).toEqual([]);
    expect(rec?.prediction).toHaveLength(rec!.k);
    const rendered = renderStepRequest({ user, step, personaIn: 'Likes hiking.', template: DEFAULT_TEMPLATE });
    const expected = demoAnswer(rendered.prompt);
    expect(expected.ok && rec?.raw).toBe(expected.ok && expected.content);
    expect(lines.at(-1)).toBe(
      `POST /v1/chat/completions 200: step ${step.stepId}, ${rec!.k} of ${step.pool.length} tags`,
    );
  });

  it('answers a prompt it cannot read with HTTP 400 and the reason', async () => {
    const transport = createOpenAITransport({ baseURL: server.baseURL, apiKey: '', model: DEMO_MODEL_ID });
    const r = await transport('system', 'What does this user like?');
    expect(r).toMatchObject({ ok: false, status: 400, transient: false });
    expect(r.error).toContain('demo model, not an LLM: No candidate pool');
  });

  it('refuses another model with 404, naming the one it serves', async () => {
    const transport = createOpenAITransport({ baseURL: server.baseURL, apiKey: '', model: 'gpt-4o' });
    const r = await transport('system', 'x');
    expect(r).toMatchObject({ ok: false, status: 404 });
    expect(r.error).toContain(`serves only ${DEMO_MODEL_ID}`);
  });

  it('streams the same reply as server-sent events when asked', async () => {
    const bench = await loadBenchmark(SAMPLE);
    const user = [...bench.users.get('zhihu')!.values()][0];
    const { prompt } = renderStepRequest({ user, step: user.steps[0], personaIn: null, template: DEFAULT_TEMPLATE });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'unused', maxRetries: 0 });
    const chunks = await client.chat.completions.create({
      model: DEMO_MODEL_ID,
      stream: true,
      messages: [{ role: 'user', content: prompt }],
    });
    let text = '';
    let finish: string | null = null;
    for await (const c of chunks) {
      expect(c.model).toBe(DEMO_MODEL_ID);
      text += c.choices[0]?.delta?.content ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    const expected = demoAnswer(prompt);
    expect(expected.ok && text).toBe(expected.ok && expected.content);
    expect(finish).toBe('stop');
  });

  it.each([
    ['a body that is not JSON', () => post('{oops'), 400, 'not JSON'],
    ['no messages', () => post({ model: DEMO_MODEL_ID }), 400, '"messages"'],
    ['GET on completions', () => fetch(`${server.baseURL}/chat/completions`), 405, 'takes POST'],
    ['an unknown path', () => post({}, '/v1/embeddings'), 404, 'serves GET /v1/models'],
  ])('answers %s with an OpenAI-shaped error', async (_what, send, status, message) => {
    const res = await send();
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain(message);
  });

  it('runs the whole sample with `persona-lab run`: every step gets a reply, none an error record', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-demo-run-'));
    try {
      cpSync(SAMPLE, root, { recursive: true });
      const io = { stdout: () => undefined, stderr: () => undefined, env: {} };
      const opts = { 'base-url': server.baseURL, model: DEMO_MODEL_ID, out: 'demo' };
      expect(await runRunCommand([root], opts, io)).toBe(0);
      const dir = join(root, 'results/demo');
      const files = readdirSync(dir).filter((f) => f.startsWith('inference_results_'));
      const steps = files.flatMap((f) => readResultRows(join(dir, f)).flatMap((u) => u.steps));
      expect(files).toHaveLength(5);
      expect(steps).toHaveLength(166);
      expect(steps.filter((s) => s.reasoning.startsWith('Error:'))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('persona-lab demo-endpoint', () => {
  const usage = (m: string) => new Error(`usage: ${m}`);

  it('prints the base URL first, serves until stopped, then closes', async () => {
    const out: string[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const running = runDemoEndpoint([], {}, usage, { stdout: (t) => out.push(t), stderr: () => undefined, stopped });
    await expect.poll(() => out.length).toBeGreaterThan(0);
    const url = /^(http:\/\/127\.0\.0\.1:\d+\/v1)\s/.exec(out[0])?.[1];
    expect(out[0]).toContain('demo model, not an LLM');
    expect((await fetch(`${url}/models`)).status).toBe(200);
    stop();
    expect(await running).toBe(0);
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });

  it.each([
    [[], { port: 'x' }, /--port x: expected a port number/],
    [[], { port: '70000' }, /expected a port number/],
    [['extra'], {}, /unexpected argument "extra"/],
  ])('refuses %j %j', async (args, opts, message) => {
    await expect(runDemoEndpoint(args, opts, usage)).rejects.toThrow(message);
  });

  it('runs as dist/cli.js and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [resolve('dist/cli.js'), 'demo-endpoint', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await expect.poll(() => /^http:\/\/127\.0\.0\.1:\d+\/v1 /.test(stdout), { timeout: 20_000 }).toBe(true);
    const url = stdout.split(' ')[0];
    const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data[0].id).toBe(DEMO_MODEL_ID);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
