import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { COLD_START_PERSONA, templateHash } from '../../src/core/spb/prompt/prompt';
import { resultLine } from '../../src/core/spb/format/resultsFile';
import { RunHistory } from '../../src/core/spb/run/history';
import { readManifest } from '../../src/core/runner/manifest';
import { SPB_RUN_FILES } from '../../src/core/spb/run/runFiles';
import { runBenchmark, type RunProgress } from '../../src/core/spb/run/runner';
import { scoreStep } from '../../src/core/spb/score/step';
import {
  MARKER_TEMPLATE,
  readResultRows as readRows,
  reply,
  startScriptedServer,
  writeTinyBench,
  type ScriptedServer,
  scriptedRunOptions,
} from '../support/scriptedServer';

const KEY = 'sk-test-SECRET-0123456789abcdef';
const makeBench = () => writeTinyBench({}, 'runner-');

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

const opts = scriptedRunOptions(() => server, {
  apiKey: KEY,
  timeoutMs: 1500,
  retry: { baseMs: 1, maxMs: 4, sleep: async () => {} },
});

describe('runBenchmark: a whole benchmark against the smart script', () => {
  it('writes one official line per user, threads personas, scores with scoreStep', async () => {
    const root = makeBench();
    const bench = await loadBenchmark(root);
    server.setScript(undefined);
    server.requests.length = 0;
    const seen: RunProgress[] = [];
    const summary = await runBenchmark(opts(bench, 'smart', { concurrency: 3, onProgress: (p) => seen.push(p) }));
    expect(summary.status).toBe('finished');
    expect(summary.error).toBeNull();
    expect(summary.progress).toMatchObject({
      done: 20,
      total: 20,
      failed: 0,
      usersDone: 5,
      usersTotal: 5,
      requests: 20,
    });
    expect(seen.at(-1)).toMatchObject({ done: 20, total: 20 });
    expect(seen.map((p) => p.done)).toEqual([...seen.map((p) => p.done)].sort((a, b) => a - b));

    const weibo = readRows(join(root, 'results/smart/inference_results_weibo.jsonl'));
    expect(weibo.map((u) => u.user_id).sort()).toEqual(['we_0000000000', 'we_0000000001', 'we_0000000002']);
    const users = bench.users.get('weibo');
    for (const row of weibo) {
      const user = users?.get(row.user_id);
      expect(row.steps.map((s) => s.step_id)).toEqual([1, 2, 3, 4]);
      for (const s of row.steps) {
        const step = user?.steps[s.step_id - 1];
        expect(s.prediction).toEqual(step?.pool.slice(0, 2));
        const want = step ? scoreStep(step.split, s.prediction) : undefined;
        if (want === null) expect(s.metrics).toBeNull();
        else expect(s.metrics).toEqual(want);
        expect(s.persona_summary).toBe(`persona of ${user?.username} after step ${s.step_id}`);
        // The smart script echoes the persona it received: step 1 cold, then the previous step's persona.
        const prev = s.step_id === 1 ? COLD_START_PERSONA : `persona of ${user?.username} after step ${s.step_id - 1}`;
        expect(s.reasoning).toBe(`received persona: ${prev}`);
      }
    }
    // The official file writes NaN as a bare token and unscored steps as null.
    const text = readFileSync(join(root, 'results/smart/inference_results_weibo.jsonl'), 'utf8');
    expect(text).toContain('"Error_Viral": NaN');
    expect(text).toContain('"metrics": null');
    expect(text.split('\n')[0]).toBe(resultLine(weibo[0] as never));

    // The project's own loader reads the run back without errors.
    const again = await loadBenchmark(root, { runs: ['smart'] });
    expect(again.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(again.runs.get('smart')?.results.get('xiaohongshu')?.size).toBe(2);

    const manifest = readManifest(join(root, 'results/smart/run.json'), SPB_RUN_FILES);
    expect(manifest).toMatchObject({
      status: 'finished',
      sessions: 1,
      personaMode: 'full',
      template: { hash: templateHash(MARKER_TEMPLATE), text: MARKER_TEMPLATE },
      endpoint: { baseURL: server.baseURL, model: 'scripted-model', temperature: 0 },
      counts: { users: 5, steps: 20, done: 20, failed: 0, requests: 20 },
    });
    expect(manifest?.finishedAt).not.toBeNull();
    // What went over the wire: temperature 0, json_object, system + one user message, the key as bearer.
    const body = server.requests[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'scripted-model', temperature: 0, response_format: { type: 'json_object' } });
    expect((body.messages as unknown[]).length).toBe(2);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('persona "none" gives every step the cold start; a chain from step n starts from the base run', async () => {
    const root = makeBench();
    let bench = await loadBenchmark(root);
    server.setScript(undefined);
    server.requests.length = 0;
    const none = await runBenchmark(opts(bench, 'cold', { personaMode: 'none', platforms: ['weibo'] }));
    expect(none.status).toBe('finished');
    expect(server.requests.length).toBe(12);
    expect(new Set(server.requests.map((r) => r.info.persona))).toEqual(new Set([COLD_START_PERSONA]));

    bench = await loadBenchmark(root, { runs: ['cold'] });
    server.requests.length = 0;
    const chain = await runBenchmark(
      opts(bench, 'chain', { userId: 'we_0000000001', fromStep: 3, startPersona: { kind: 'run', run: 'cold' } }),
    );
    expect(chain.status).toBe('finished');
    expect(server.requests.map((r) => [r.info.user, r.info.step])).toEqual([
      ['U_00000001', 3],
      ['U_00000001', 4],
    ]);
    expect(server.requests[0].info.persona).toBe('persona of U_00000001 after step 2');
    expect(server.requests[1].info.persona).toBe('persona of U_00000001 after step 3');
    const rows = readRows(join(root, 'results/chain/inference_results_weibo.jsonl'));
    expect(rows.map((r) => r.steps.map((s) => s.step_id))).toEqual([[3, 4]]);

    server.requests.length = 0;
    const text = await runBenchmark(
      opts(bench, 'chain-text', {
        userId: 'we_0000000001',
        fromStep: 2,
        startPersona: { kind: 'text', text: 'hand-written' },
      }),
    );
    expect(text.status).toBe('finished');
    expect(server.requests[0].info.persona).toBe('hand-written');
  });
});

describe('the API key', () => {
  it('appears in no file under the run folder or in the history DB', async () => {
    const root = makeBench();
    const bench = await loadBenchmark(root);
    const auth = (h: string | string[] | undefined) => String(h ?? '');
    server.requests.length = 0;
    server.setScript((req) =>
      req.info.step === 1
        ? reply.status(400, undefined, { error: { message: `bad header ${auth(req.headers.authorization)}` } })
        : req.info.step === 2
          ? reply.json({
              persona_summary: `echo ${auth(req.headers.authorization)}`,
              predicted_tags: [],
              reasoning: KEY,
            })
          : reply.smart(),
    );
    const history = RunHistory.open(join(root, 'history.sqlite'));
    const summary = await runBenchmark(
      opts(bench, 'secret', {
        platforms: ['weibo'],
        endpoint: { baseURL: server.baseURL, apiKey: KEY, model: 'm', timeoutMs: 1500 },
        onStep: (r) => history.record({ run: 'secret', model: 'm', baseURL: server.baseURL }, r),
      }),
    );
    expect(summary.status).toBe('finished');
    expect(history.forRun('secret').length).toBe(12);
    history.close();
    // the key did go over the wire, so the check below is not vacuous
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
    const written = walk(root).filter((f) => !f.includes(`${join('data', '')}`));
    expect(written.some((f) => f.endsWith('history.sqlite'))).toBe(true);
    expect(written.some((f) => f.endsWith('run.json'))).toBe(true);
    for (const f of written) expect(readFileSync(f).includes(Buffer.from(KEY)), f).toBe(false);
    const rows = readRows(join(root, 'results/secret/inference_results_weibo.jsonl'));
    expect(rows[0].steps[0].reasoning).toContain('[redacted]');
  });
});

describe('runBenchmark: concurrency and bad input', () => {
  it('keeps at most `concurrency` users in flight and one step per user at a time', async () => {
    const root = makeBench();
    const bench = await loadBenchmark(root);
    let inFlight = 0;
    let most = 0;
    const perUser = new Map<string, number>();
    let overlapSameUser = false;
    server.requests.length = 0;
    server.setScript(async (req) => {
      const u = req.info.user ?? '';
      inFlight++;
      most = Math.max(most, inFlight);
      perUser.set(u, (perUser.get(u) ?? 0) + 1);
      if ((perUser.get(u) ?? 0) > 1) overlapSameUser = true;
      await new Promise((r) => setTimeout(r, 15));
      inFlight--;
      perUser.set(u, (perUser.get(u) ?? 0) - 1);
      return reply.smart();
    });
    const summary = await runBenchmark(opts(bench, 'bounded', { concurrency: 2 }));
    server.setScript(undefined);
    expect(summary.status).toBe('finished');
    expect(most).toBeLessThanOrEqual(2);
    expect(overlapSameUser).toBe(false);
    for (const u of new Set(server.requests.map((r) => r.info.user))) {
      expect(server.requests.filter((r) => r.info.user === u).map((r) => r.info.step)).toEqual([1, 2, 3, 4]);
    }
  });

  it('returns status failed with a message instead of throwing', async () => {
    const root = makeBench();
    const bench = await loadBenchmark(root);
    server.requests.length = 0;
    const bad = await Promise.all([
      runBenchmark(opts(bench, '../escape')),
      runBenchmark(opts(bench, 'x', { userId: 'we_nobody' })),
      runBenchmark(opts(bench, 'x', { startPersona: { kind: 'run', run: 'not-loaded' } })),
      runBenchmark(opts(bench, 'x', { platforms: ['douban'] })),
      runBenchmark(opts(bench, 'x', { userId: 'we_0000000000', fromStep: 99 })),
    ]);
    expect(bad.map((s) => s.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    expect(bad.map((s) => s.error)).toEqual([
      expect.stringMatching(/invalid run name/),
      expect.stringMatching(/no user we_nobody/),
      expect.stringMatching(/base run "not-loaded" is not loaded/),
      expect.stringMatching(/no tasks loaded/),
      expect.stringMatching(/from 99 on/),
    ]);
    expect(server.requests).toHaveLength(0);
  });
});
