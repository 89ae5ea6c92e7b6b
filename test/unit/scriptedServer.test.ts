import { afterEach, describe, expect, it } from 'vitest';
import { COLD_START_PERSONA, DEFAULT_TEMPLATE, renderPrompt } from '../../src/core/spb/prompt/prompt';
import {
  MARKER_TEMPLATE,
  promptInfo,
  reply,
  smartBody,
  startScriptedServer,
  type ScriptedServer,
} from '../support/scriptedServer';

const POOL = ['#甲#', '#乙#', '#丙#', '#丁#', '#戊#', '#己#', '#庚#', '#辛#', '#壬#', '#癸#'];
const ctx = {
  platform: 'weibo',
  username: 'U_0badcafe',
  bio: '',
  persona: 'likes "tea"\nand cats',
  stepId: 3,
  totalSteps: 5,
  postsText: '[1] Content: 喝茶\nTags: #甲#',
  pool: POOL,
};

describe('promptInfo', () => {
  it('reads user, step, persona and pool from the default template', () => {
    const info = promptInfo(renderPrompt(DEFAULT_TEMPLATE, ctx).text);
    expect(info).toEqual({ user: 'U_0badcafe', step: 3, persona: 'likes "tea"\nand cats', pool: POOL, k: 2 });
  });

  it('reads the test markers, including the cold-start persona', () => {
    const info = promptInfo(renderPrompt(MARKER_TEMPLATE, { ...ctx, persona: null, stepId: 1 }).text);
    expect(info).toEqual({ user: 'U_0badcafe', step: 1, persona: COLD_START_PERSONA, pool: POOL, k: 2 });
  });

  it('leaves out what the prompt does not show', () => {
    expect(promptInfo('hello [not json]')).toEqual({});
  });
});

describe('startScriptedServer', () => {
  let server: ScriptedServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  const post = (s: ScriptedServer, prompt: string, path = '/chat/completions') =>
    fetch(s.baseURL + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({
        model: 'm',
        messages: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: prompt },
        ],
      }),
    });

  it('answers the smart reply by default and records the request', async () => {
    server = await startScriptedServer();
    const prompt = renderPrompt(MARKER_TEMPLATE, ctx).text;
    const res = await post(server, prompt);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: { message: { content: string } }[]; usage: unknown };
    const content = JSON.parse(body.choices[0].message.content) as ReturnType<typeof smartBody>;
    expect(content.predicted_tags).toEqual(['#甲#', '#乙#']);
    expect(content.persona_summary).toBe('persona of U_0badcafe after step 3');
    expect(content.reasoning).toBe('received persona: likes "tea"\nand cats');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ index: 0, system: 'sys', prompt, outcome: 'smart', info: { step: 3 } });
    expect(server.requests[0].headers.authorization).toBe('Bearer k');
  });

  it('plays a queue, then falls back to smart; scripts statuses, headers, fences and drops', async () => {
    server = await startScriptedServer([
      reply.status(429, { 'retry-after': '3' }),
      reply.fenced({ a: 1 }),
      reply.text('not json'),
      reply.drop(),
    ]);
    const prompt = renderPrompt(MARKER_TEMPLATE, ctx).text;
    const r1 = await post(server, prompt);
    expect(r1.status).toBe(429);
    expect(r1.headers.get('retry-after')).toBe('3');
    const r2 = (await (await post(server, prompt)).json()) as { choices: { message: { content: string } }[] };
    expect(r2.choices[0].message.content).toBe('```json\n{"a":1}\n```');
    const r3 = (await (await post(server, prompt)).json()) as { choices: { message: { content: string } }[] };
    expect(r3.choices[0].message.content).toBe('not json');
    await expect(post(server, prompt)).rejects.toThrow();
    const r5 = await post(server, prompt);
    expect(r5.status).toBe(200);
    expect(server.requests.map((r) => r.outcome)).toEqual(['status', 'text', 'text', 'drop', 'smart']);
    expect((await post(server, prompt, '/models')).status).toBe(404);
  });

  it('picks replies with a function of the request and resolves waitForRequests', async () => {
    server = await startScriptedServer((req) => (req.info.step === 3 ? reply.status(500) : reply.smart()));
    const waiting = server.waitForRequests(2);
    expect((await post(server, renderPrompt(MARKER_TEMPLATE, ctx).text)).status).toBe(500);
    expect((await post(server, renderPrompt(MARKER_TEMPLATE, { ...ctx, stepId: 4 }).text)).status).toBe(200);
    await waiting;
    expect(server.requests.map((r) => r.info.step)).toEqual([3, 4]);
  });

  it('plays hostile replies, each bounded, and records what it sent', async () => {
    server = await startScriptedServer([
      reply.trickle(1, 64),
      reply.endless(1, 3),
      reply.oversize(200_000),
      reply.redirect('http://127.0.0.1:9/v1/chat/completions', 308),
    ]);
    const prompt = renderPrompt(MARKER_TEMPLATE, ctx).text;
    const trickled = (await (await post(server, prompt)).json()) as { choices: { message: { content: string } }[] };
    expect(JSON.parse(trickled.choices[0].message.content)).toMatchObject({ predicted_tags: ['#甲#', '#乙#'] });
    const events = await post(server, prompt);
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    expect((await events.text()).split('\n\n').filter((e) => e !== '')).toHaveLength(3);
    expect((await (await post(server, prompt)).arrayBuffer()).byteLength).toBe(200_000);
    const moved = await fetch(server.baseURL + '/chat/completions', { method: 'POST', body: '{}', redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([308, 'http://127.0.0.1:9/v1/chat/completions']);
    await server.waitForClose(2);
    expect(server.requests.map((r) => r.outcome)).toEqual(['trickle', 'endless', 'oversize', 'redirect']);
    expect(server.requests.slice(0, 3).map((r) => [r.sent.complete, r.sent.closed])).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
    expect(server.requests[2].sent.bytes).toBe(200_000);
  });

  it('close() stops a trickle and an endless stream at once', async () => {
    server = await startScriptedServer([reply.trickle(60_000), reply.endless(60_000)]);
    const pending = [post(server, 'x'), post(server, 'y')].map((p) => p.then((r) => r.text()));
    for (const p of pending) void p.catch(() => undefined);
    await server.waitForRequests(2);
    await server.close();
    server = null;
    for (const p of pending) await expect(p).rejects.toThrow();
  });

  it('a delayed reply that the client gives up on is dropped with the connection', async () => {
    server = await startScriptedServer([reply.delay(60_000)]);
    const pending = post(server, 'x');
    void pending.catch(() => undefined);
    await server.waitForRequests(1);
    // close() must not wait for the minute-long timer
    await server.close();
    server = null;
    await expect(pending).rejects.toThrow();
  });
});
