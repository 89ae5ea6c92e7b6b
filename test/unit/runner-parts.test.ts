import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand, type RunCliIo } from '../../src/cli/run';
import { loadBenchmark } from '../../src/core/spb/format/load';
import {
  backoffDelay,
  callWithRetries,
  createOpenAITransport,
  DEFAULT_RETRY,
  publicBaseURL,
  redactor,
  type ChatTransport,
} from '../../src/core/runner/client';
import { HISTORY_SCHEMA_VERSION, RunHistory } from '../../src/core/spb/run/history';
import { acquireLock, Journal } from '../../src/core/runner/journal';
import { SPB_RUN_FILES } from '../../src/core/spb/run/runFiles';
import { isPlatform, type Platform } from '../../src/core/spb/types';
import {
  manifestConflicts,
  newManifest,
  readManifest,
  writeManifest,
  type ManifestInput,
} from '../../src/core/runner/manifest';
import { runStep } from '../../src/core/spb/run/step';
import {
  MARKER_TEMPLATE,
  reply,
  startScriptedServer,
  writeTinyBench,
  type ScriptedServer,
} from '../support/scriptedServer';

const tmp = () => mkdtempSync(join(tmpdir(), 'runner-parts-'));

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

describe('client helpers', () => {
  it('backs off exponentially with jitter, capped, and prefers a Retry-After', () => {
    const p = { ...DEFAULT_RETRY, baseMs: 100, maxMs: 1000 };
    expect(backoffDelay(1, undefined, { ...p, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, undefined, { ...p, random: () => 1 })).toBe(100);
    expect(backoffDelay(3, undefined, { ...p, random: () => 1 })).toBe(400);
    expect(backoffDelay(9, undefined, { ...p, random: () => 1 })).toBe(1000);
    expect(backoffDelay(1, 2500, p)).toBe(2500);
    expect(backoffDelay(1, 10 * 60_000, p)).toBe(p.maxRetryAfterMs);
  });

  it('strips credentials and query from base URLs, and redacts the key', () => {
    expect(publicBaseURL('https://user:sk-secret@api.example.com/v1/?key=sk-secret')).toBe(
      'https://api.example.com/v1',
    );
    expect(publicBaseURL('not a url?key=1')).toBe('not a url');
    const redact = redactor('sk-abcdefgh123');
    expect(redact('x sk-abcdefgh123 y sk-abcdefgh123')).toBe('x [redacted] y [redacted]');
    expect(redactor('')('anything')).toBe('anything');
  });

  it('reads Retry-After in seconds, retry-after-ms, and an HTTP date', async () => {
    const waits: number[] = [];
    const future = new Date(Date.now() + 3_600_000).toUTCString();
    server.setScript([
      reply.status(429, { 'retry-after': '4' }),
      reply.status(503, { 'retry-after-ms': '1500' }),
      reply.status(429, { 'retry-after': future }),
    ]);
    const transport = createOpenAITransport({ baseURL: server.baseURL, apiKey: '', model: 'm', timeoutMs: 5000 });
    const out = await callWithRetries(transport, 's', 'p', () => null, {
      ...DEFAULT_RETRY,
      attempts: 3,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(out.ok).toBe(false);
    expect(out.attempts.map((a) => a.status)).toEqual([429, 503, 429]);
    // the third is the last attempt: nothing is waited after it
    expect(waits).toEqual([4000, 1500]);
    server.setScript(undefined);
  });

  it('an abort is not a failure: no error record, no further attempts', async () => {
    const ctl = new AbortController();
    let calls = 0;
    const transport: ChatTransport = async () => {
      calls++;
      ctl.abort();
      return { ok: false, raw: '', error: 'aborted', transient: false, aborted: true, latencyMs: 0, usage: null };
    };
    const out = await callWithRetries(transport, 's', 'p', () => null, DEFAULT_RETRY, ctl.signal);
    expect(out).toMatchObject({ ok: false, aborted: true });
    expect(calls).toBe(1);
    const root = writeTinyBench({ users: { weibo: 1 }, steps: 1 });
    const user = [...((await loadBenchmark(root)).users.get('weibo')?.values() ?? [])][0];
    const step = await runStep({
      user,
      step: user.steps[0],
      personaIn: null,
      template: 'x',
      transport,
      signal: ctl.signal,
    });
    expect(step).toBeNull();
  });
});

describe('journal and lock', () => {
  it('keeps entries across reopen, skips garbage lines and cuts a torn last line', () => {
    const path = join(tmp(), 'j.jsonl');
    const j = Journal.open(path, isPlatform);
    j.append({
      t: 'step',
      platform: 'weibo',
      user: 'u',
      index: 0,
      step: 1,
      prediction: ['a', NaN],
      reasoning: 'r',
      persona_summary: 'p',
      persona_next: 'p',
      error: false,
      attempts: 1,
    });
    j.close();
    appendFileSync(path, 'garbage\n{"t": "user", "platform": "zhihu", "user": "v"}\n{"t": "st');
    const j2 = Journal.open(path, isPlatform);
    expect(j2.skipped).toBe(1);
    expect(j2.step('weibo', 'u', 0)?.prediction).toEqual(['a', NaN]);
    expect(j2.userDone('zhihu', 'v')).toBe(true);
    j2.append({ t: 'user', platform: 'weibo', user: 'u' });
    j2.close();
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('{"t": "user", "platform": "weibo", "user": "u"}\n')).toBe(true);
    expect(text).not.toContain('{"t": "st\n');
    expect(Journal.open(path, isPlatform).users.map((u) => u.user)).toEqual(['v', 'u']);
  });

  it('refuses a folder locked by a live process and takes over a dead one', async () => {
    const path = join(tmp(), '.lock');
    const release = acquireLock(path);
    expect(() => acquireLock(path)).toThrow(/already running/);
    release();
    expect(existsSync(path)).toBe(false);
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    writeFileSync(path, String(child.pid));
    expect(() => acquireLock(path)).toThrow(/in use by process/);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    acquireLock(path)();
  });
});

describe('manifest', () => {
  const input: ManifestInput<Platform> = {
    name: 'r',
    template: 'T',
    systemMessage: 'S',
    baseURL: 'http://h/v1',
    model: 'm',
    temperature: 0,
    maxTokens: null,
    personaMode: 'full',
    selection: { platforms: ['weibo'], userId: null, fromStep: 1, startPersona: { kind: 'none' } },
  };

  it('round-trips, lists conflicting fields, and ignores the endpoint URL', () => {
    const path = join(tmp(), 'run.json');
    const m = newManifest(input, SPB_RUN_FILES, new Date('2026-01-02T03:04:05Z'));
    writeManifest(path, m);
    expect(readManifest(path, SPB_RUN_FILES)).toEqual(m);
    expect(manifestConflicts(m, newManifest({ ...input, baseURL: 'http://other/v1' }, SPB_RUN_FILES))).toEqual([]);
    expect(manifestConflicts(m, newManifest({ ...input, template: 'T2', personaMode: 'none' }, SPB_RUN_FILES))).toEqual(
      ['template', 'personaMode'],
    );
    writeFileSync(path, '{"format": "something else"}');
    expect(readManifest(path, SPB_RUN_FILES)).toBeNull();
    writeFileSync(path, '{not json');
    expect(readManifest(path, SPB_RUN_FILES)).toBeNull();
  });
});

describe('runStep resend (Retry)', () => {
  it('sends an earlier request as is, keeps its template id, and scores the reply on the step', async () => {
    const root = writeTinyBench({ users: { weibo: 1 }, steps: 2 });
    const user = [...((await loadBenchmark(root)).users.get('weibo')?.values() ?? [])][0];
    const transport = createOpenAITransport({ baseURL: server.baseURL, apiKey: '', model: 'm' });
    const first = await runStep({
      user,
      step: user.steps[1],
      personaIn: 'before',
      template: MARKER_TEMPLATE,
      transport,
    });
    expect(first).not.toBeNull();
    const sent = server.requests.length;
    const again = await runStep({
      user,
      step: user.steps[1],
      personaIn: 'before',
      template: 'not rendered',
      transport,
      resend: { system: first!.system, prompt: first!.prompt, templateId: first!.templateId },
    });
    expect(server.requests.length).toBe(sent + 1);
    expect(server.requests[sent].prompt).toBe(first!.prompt);
    expect(server.requests[sent].system).toBe(first!.system);
    expect(again).toMatchObject({ templateId: first!.templateId, prompt: first!.prompt, k: first!.k, error: null });
    expect(again!.metrics).toEqual(first!.metrics);
  });
});

describe('history', () => {
  it("migrates to the current schema in WAL mode and lists a step's attempts", async () => {
    const path = join(tmp(), 'h.sqlite');
    const root = writeTinyBench({ users: { weibo: 1 }, steps: 2 });
    const user = [...((await loadBenchmark(root)).users.get('weibo')?.values() ?? [])][0];
    const transport = createOpenAITransport({ baseURL: server.baseURL, apiKey: '', model: 'm' });
    server.setScript([reply.text('nope'), reply.smart()]);
    const rec = await runStep({
      user,
      step: user.steps[1],
      personaIn: 'before',
      template: MARKER_TEMPLATE,
      transport,
      retry: { ...DEFAULT_RETRY, sleep: async () => {} },
    });
    server.setScript(undefined);
    expect(rec).not.toBeNull();
    const h = RunHistory.open(path);
    expect(h.schemaVersion).toBe(HISTORY_SCHEMA_VERSION);
    if (rec) {
      h.record({ run: 'rerun', model: 'm', baseURL: 'http://h/v1' }, rec);
      h.record({ run: 'rerun', model: 'm', baseURL: 'http://h/v1' }, { ...rec, at: '2000-01-01T00:00:00.000Z' });
    }
    // WAL mode: writes go to the -wal file while the database is open
    expect(existsSync(path + '-wal')).toBe(true);
    h.close();
    const again = RunHistory.open(path);
    const rows = again.forStep('weibo', user.userId, 2);
    again.close();
    expect(rows.map((r) => r.createdAt)[0]).toBe('2000-01-01T00:00:00.000Z');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      run: 'rerun',
      stepId: 2,
      personaIn: 'before',
      personaNext: 'persona of U_00000000 after step 2',
      prediction: user.steps[1].pool.slice(0, 2),
      error: null,
      usage: { totalTokens: 120 },
    });
    expect(rows[1].metrics?.Error_Viral).toBeNaN();
    expect(rows[1].tries).toHaveLength(2);
    expect(rows[1].prompt).toContain('PERSONA<<before>>');
    expect(readFileSync(path).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});

describe('runRunCommand', () => {
  const io = (env: Record<string, string | undefined> = {}) => {
    const out = { stdout: '', stderr: '' };
    const sink: RunCliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), env };
    return { out, sink };
  };

  it('exits 2 with a message on usage errors', async () => {
    const root = tmp();
    const { out, sink } = io();
    expect(await runRunCommand([root], { out: 'x' }, sink)).toBe(2);
    expect(out.stderr).toContain('run needs --base-url URL'); // no --template: the built-in one
    writeFileSync(join(root, 't.txt'), 'T');
    const base = { out: 'x', template: join(root, 't.txt'), 'base-url': 'http://127.0.0.1:9/v1', model: 'm' };
    expect(await runRunCommand([root], { ...base, persona: 'some' }, sink)).toBe(2);
    expect(out.stderr).toContain('--persona must be full or none');
    expect(await runRunCommand([root], { ...base, concurrency: '0' }, sink)).toBe(2);
    expect(await runRunCommand([root], { ...base, platform: 'myspace' }, sink)).toBe(2);
  });

  it('runs a chain, prints a summary to stdout and progress to stderr, never the key', async () => {
    const root = writeTinyBench();
    writeFileSync(join(root, 't.txt'), MARKER_TEMPLATE);
    const key = 'sk-cli-0123456789abcdef';
    const { out, sink } = io({ OPENAI_API_KEY: key });
    server.requests.length = 0;
    const code = await runRunCommand(
      [root],
      {
        out: 'cli',
        template: join(root, 't.txt'),
        'base-url': server.baseURL,
        model: 'm',
        user: 'xi_0000000001',
        'from-step': '2',
        history: join(root, 'h.sqlite'),
      },
      sink,
    );
    expect(code, out.stderr).toBe(0);
    expect(server.requests.map((r) => [r.info.user, r.info.step])).toEqual([
      ['U_10000001', 2],
      ['U_10000001', 3],
      ['U_10000001', 4],
    ]);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${key}`);
    expect(out.stdout).toContain('run cli: finished');
    expect(out.stdout).toMatch(/xiaohongshu: Recall +\d[^\n]* \| F1\^NS +(\d|n\/a)/);
    expect(out.stdout).not.toContain('F1NS');
    // one user from step 2: the summary says what its figures are over
    expect(out.stdout).toMatch(
      /\n {2}figures over 1 of \d+ users, 3 of \d+ steps \(Xiaohongshu: 1 of \d+ users, 3 of /,
    );
    expect(out.stderr).toContain('3/3 steps, 0 failed, 1/1 users');
    expect(out.stdout + out.stderr).not.toContain(key);
    const h = RunHistory.open(join(root, 'h.sqlite'));
    expect(h.forRun('cli')).toHaveLength(3);
    h.close();
    expect(readFileSync(join(root, 'h.sqlite')).includes(Buffer.from(key))).toBe(false);
  });
});
