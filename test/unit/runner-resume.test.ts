import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { pyJsonLoads } from '../../src/core/io/pyjson';
import { readManifest } from '../../src/core/runner/manifest';
import { SPB_RUN_FILES } from '../../src/core/spb/run/runFiles';
import { runBenchmark } from '../../src/core/spb/run/runner';
import { JOURNAL_FILE, LOCK_FILE } from '../../src/core/runner/runFolder';
import type { Benchmark } from '../../src/core/spb/types';
import {
  MARKER_TEMPLATE,
  reply,
  startScriptedServer,
  writeTinyBench,
  type ScriptedServer,
  scriptedRunOptions,
} from '../support/scriptedServer';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'sk-test-RESUME-fedcba9876543210';
const KEY2 = 'sk-test-RESUME-second-session-42';
const PLATFORMS = ['weibo', 'xiaohongshu'];

const makeBench = () => writeTinyBench({}, 'runner-resume-');

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

const opts = scriptedRunOptions(() => server, {
  apiKey: KEY,
  timeoutMs: 5000,
  retry: { baseMs: 1, maxMs: 4 },
  concurrency: 2,
});

/** "username/step" of every step the journal holds as finished. */
function finishedSteps(root: string, run: string, bench: Benchmark): string[] {
  const path = join(root, 'results', run, JOURNAL_FILE);
  const out: string[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const r = pyJsonLoads(line);
    if (!r.ok) continue;
    const e = r.value as { t: string; platform: string; user: string; step: number };
    if (e.t !== 'step') continue;
    const user = bench.users.get(e.platform as 'weibo')?.get(e.user);
    out.push(`${user?.username}/${e.step}`);
  }
  return out;
}

/** Requests of one session (told apart by key: a request of a cancelled session may still arrive late). */
const requested = (key: string) =>
  server.requests
    .filter((r) => r.headers.authorization === `Bearer ${key}`)
    .map((r) => `${r.info.user}/${r.info.step}`);

function sortedLines(root: string, run: string): string[] {
  return PLATFORMS.flatMap((p) =>
    readFileSync(join(root, 'results', run, `inference_results_${p}.jsonl`), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .sort(),
  );
}

function expectResumedCleanly(before: string[], after: string[]): void {
  expect(before).toContain('U_00000002/2');
  expect(before).not.toContain('U_00000002/3');
  expect(before.length).toBeLessThan(20);
  for (const key of before) expect(after, `${key} was requested again`).not.toContain(key);
  expect(new Set(after).size).toBe(after.length);
  expect(before.length + after.length).toBe(20);
}

describe('resume after cancelling the request loop', () => {
  it('requests no finished step again and ends with the same results as an uninterrupted run', async () => {
    const root = makeBench();
    const bench = await loadBenchmark(root);
    server.setScript(undefined);
    expect((await runBenchmark(opts(bench, 'ref'))).status).toBe('finished');

    const ctl = new AbortController();
    server.requests.length = 0;
    server.setScript((req) => {
      // stop in the middle of a chain: this user's steps 1 and 2 are finished, so the resume must carry
      // step 2's persona on from the journal
      if (req.info.user === 'U_00000002' && req.info.step === 3) {
        ctl.abort();
        return reply.delay(60_000);
      }
      return reply.smart();
    });
    const first = await runBenchmark(opts(bench, 'cut', { signal: ctl.signal }));
    expect(first.status).toBe('cancelled');
    expect(readManifest(join(root, 'results/cut/run.json'), SPB_RUN_FILES)?.status).toBe('cancelled');
    expect(existsSync(join(root, 'results/cut', LOCK_FILE))).toBe(false);
    const before = finishedSteps(root, 'cut', bench);
    // a crash in the middle of a journal write leaves a torn last line: the resume must cut it off
    appendFileSync(join(root, 'results/cut', JOURNAL_FILE), '{"t": "step", "platform": "weibo", "us');

    server.requests.length = 0;
    server.setScript(undefined);
    const endpoint2 = { baseURL: server.baseURL, apiKey: KEY2, model: 'scripted-model', timeoutMs: 5000 };
    const second = await runBenchmark(opts(bench, 'cut', { endpoint: endpoint2 }));
    expect(second.status).toBe('finished');
    expect(second.resumed).toBe(true);
    expectResumedCleanly(before, requested(KEY2));
    expect(sortedLines(root, 'cut')).toEqual(sortedLines(root, 'ref'));
    expect(readManifest(join(root, 'results/cut/run.json'), SPB_RUN_FILES)).toMatchObject({
      status: 'finished',
      sessions: 2,
    });

    // a third start finds everything done and asks for nothing
    server.requests.length = 0;
    const third = await runBenchmark(opts(bench, 'cut', { endpoint: endpoint2 }));
    expect(third.status).toBe('finished');
    expect(requested(KEY2)).toEqual([]);
    expect(sortedLines(root, 'cut')).toEqual(sortedLines(root, 'ref'));
  });

  it('refuses to resume with another template, and never writes into a folder it did not start', async () => {
    const root = makeBench();
    const bench = await loadBenchmark(root);
    server.setScript(undefined);
    expect((await runBenchmark(opts(bench, 'a', { platforms: ['weibo'], userId: 'we_0000000000' }))).status).toBe(
      'finished',
    );
    server.requests.length = 0;
    const other = await runBenchmark(
      opts(bench, 'a', { platforms: ['weibo'], userId: 'we_0000000000', template: MARKER_TEMPLATE + '\nmore' }),
    );
    expect(other.status).toBe('failed');
    expect(other.error).toMatch(/different template/);
    mkdirSync(join(root, 'results/official'), { recursive: true });
    writeFileSync(join(root, 'results/official/inference_results_weibo.jsonl'), '{"user_id": "x", "steps": []}\n');
    const foreign = await runBenchmark(opts(bench, 'official'));
    expect(foreign.status).toBe('failed');
    expect(readFileSync(join(root, 'results/official/inference_results_weibo.jsonl'), 'utf8')).toBe(
      '{"user_id": "x", "steps": []}\n',
    );
    expect(server.requests.length).toBe(0);
  });
});

/** PERSONA_LAB_CLI when set, else the built CLI (`npm test` builds it first). */
async function cliPath(): Promise<string> {
  if (process.env.PERSONA_LAB_CLI) return process.env.PERSONA_LAB_CLI;
  const dist = join(repo, 'dist/cli.js');
  if (!existsSync(dist)) throw new Error(`${dist}: not built (npm run build)`);
  return dist;
}

function waitExit(
  child: ChildProcess,
  out: { stdout: string; stderr: string },
): Promise<{ code: number | null; signal: string | null }> {
  child.stdout?.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out.stderr += d.toString()));
  return new Promise((res) => child.on('exit', (code, signal) => res({ code, signal })));
}

describe('resume after SIGKILL of the CLI process', () => {
  it('requests no finished step again and ends with the same results as an uninterrupted run', async () => {
    const cli = await cliPath();
    const root = makeBench();
    const bench = await loadBenchmark(root);
    const template = join(root, 'template.txt');
    writeFileSync(template, MARKER_TEMPLATE);
    server.setScript(undefined);
    expect((await runBenchmark(opts(bench, 'ref'))).status).toBe('finished');

    const args = [
      cli,
      'run',
      root,
      '--template',
      template,
      '--out',
      'killed',
      '--base-url',
      server.baseURL,
      '--model',
      'scripted-model',
      '--concurrency',
      '2',
      '--timeout',
      '20',
    ];
    const env = { ...process.env, OPENAI_API_KEY: KEY, PERSONA_LAB_RETRY_BASE_MS: '1' };
    let child: ChildProcess | null = null;
    server.requests.length = 0;
    server.setScript((req) => {
      if (req.info.user === 'U_00000002' && req.info.step === 3) {
        child?.kill('SIGKILL');
        return reply.delay(60_000);
      }
      return reply.smart();
    });
    child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const firstOut = { stdout: '', stderr: '' };
    const first = await waitExit(child, firstOut);
    expect(first.signal).toBe('SIGKILL');
    // the killed process left its lock behind; the next one takes it over
    expect(existsSync(join(root, 'results/killed', LOCK_FILE))).toBe(true);
    const before = finishedSteps(root, 'killed', bench);

    server.requests.length = 0;
    server.setScript(undefined);
    const again = spawn(process.execPath, args, {
      env: { ...env, OPENAI_API_KEY: KEY2 },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    const second = await waitExit(again, out);
    expect(second.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('run killed: finished (resumed)');
    expect(out.stderr).toContain('20/20 steps');
    expectResumedCleanly(before, requested(KEY2));
    expect(sortedLines(root, 'killed')).toEqual(sortedLines(root, 'ref'));

    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
    for (const f of walk(join(root, 'results'))) {
      for (const key of [KEY, KEY2]) expect(readFileSync(f).includes(Buffer.from(key)), f).toBe(false);
    }
    for (const key of [KEY, KEY2])
      expect(out.stdout + out.stderr + firstOut.stdout + firstOut.stderr).not.toContain(key);
  });
});
