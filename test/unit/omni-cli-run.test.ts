// `persona-lab run` and `judge` on an OmniBehavior folder, as processes: a run against the demo endpoint, judged,
// scores exactly as the authors' evaluator rules (test/reference/omni_reference.py) score the same predictions; a run
// against a scripted endpoint with faults keeps each fault's extra attempt and, killed with SIGKILL, resumes without
// asking again what it had finished. Needs dist/ built (`npm test` builds it first).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { omniDemoAnswer } from '../../src/core/omni/demo';
import { startDemoServer, type DemoServer } from '../../src/core/demo/server';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { judgeCommandLine } from '../../src/core/omni/overallReason';
import { reply, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { crossCheck } from '../support/omniCrossCheck';
import { OMNI_SAMPLE, SAMPLE } from '../support/committedSample';

const CLI = resolve('dist/cli.js');
const USERS = ['u_1003', 'u_1006'];
let tmp: string;
let demo: DemoServer;
let server: ScriptedServer;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'pl-omni-cli-'));
  demo = await startDemoServer();
  server = await startScriptedServer();
});
afterAll(async () => {
  await demo.close();
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function copy(name: string): string {
  const root = join(tmp, name);
  cpSync(OMNI_SAMPLE, root, { recursive: true });
  return root;
}

interface Exit {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}
// Async on purpose: the endpoints live in this process, so a synchronous spawn would block them.
function exec(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  started?: (c: ChildProcess) => void,
): Promise<Exit> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    started?.(child);
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
    child.on('error', rej);
    child.on('close', (status, signal) => res({ status, signal, ...out }));
  });
}
const cli = (args: string[]) => exec([CLI, ...args]);

interface Line {
  user_id: string;
  index: number;
  questions: { field: string; attempts: number; judge_score?: number; judge_scores?: object; judge_model?: string }[];
}
const lines = (file: string): Line[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);

describe('persona-lab run and judge on an OmniBehavior folder', () => {
  it('a run against the demo endpoint, judged, scores as the reference rules score it', async () => {
    const root = copy('demo');
    for (const user of USERS) {
      const r = await cli([
        'run',
        root,
        '--out',
        `demo-${user}`,
        '--base-url',
        demo.baseURL,
        '--model',
        'demo-model-not-an-llm',
        '--user',
        user,
      ]);
      expect(r.stderr).toContain("prompt: Persona Lab's prompt, not the benchmark's");
      expect(r.status, r.stderr).toBe(0);
      // not judged yet: the summary says so, names the command that judges, and what the run covers
      const said = r.stdout.replace(/\s+/g, ' ');
      expect(said).toContain(
        `overall — (not judged yet: ${judgeCommandLine(root, `demo-${user}`)} scores the next_user_message answers`,
      );
      expect(said).toMatch(/; the run covers 1 of \d+ users, \d+ of \d+ test actions\)/);
      expect(said).not.toContain('undefined');
    }
    for (const user of USERS) {
      const j = await cli(['judge', root, '--run', `demo-${user}`]);
      expect(j.status, j.stderr).toBe(0);
      expect(j.stdout).toMatch(/judged \d+ of \d+/);
    }
    const judged = USERS.flatMap((u) => lines(join(root, `results/demo-${u}/predictions.jsonl`)))
      .flatMap((l) => l.questions)
      .filter((q) => q.judge_score !== undefined);
    expect(judged.length).toBeGreaterThan(0);
    for (const q of judged)
      expect(q).toMatchObject({ judge_model: 'demo-model-not-an-llm', judge_scores: expect.any(Object) });
    // the sample's own runs and the two new ones, every figure as the reference rules give it
    expect(crossCheck(root).runs).toBe(readdirSync(join(SAMPLE, 'omnibehavior/results')).length + USERS.length);
  });

  it('keeps each fault’s extra attempt, and resumes after SIGKILL without asking again', async () => {
    const root = copy('faults');
    const env = { ...process.env, PERSONA_LAB_RETRY_BASE_MS: '1', OPENAI_API_KEY: '' };
    const args = [
      CLI,
      'run',
      root,
      '--out',
      'killed',
      '--base-url',
      server.baseURL,
      '--model',
      'm',
      '--user',
      'u_1006',
      '--concurrency',
      '1',
    ];
    let child: ChildProcess | null = null;
    let n = 0;
    server.requests.length = 0;
    server.setScript((req) => {
      n++;
      if (n === 3) return reply.status(500);
      if (n === 5) return reply.drop();
      if (n === 7) return reply.status(429, { 'retry-after': '0' });
      if (n === 40) {
        child?.kill('SIGKILL');
        return reply.delay(60_000);
      }
      return reply.text(omniDemoAnswer(req.prompt).content);
    });
    const first = await exec(args, env, (c) => (child = c));
    expect(first.signal, first.stderr).toBe('SIGKILL');
    const journal = readFileSync(join(root, 'results/killed/.journal.jsonl'), 'utf8').trim().split('\n');
    const before = journal.map((l) => JSON.parse(l) as { line: Line }).map((e) => e.line);
    expect(before.length).toBeGreaterThan(0);
    const answered = before.flatMap((l) => l.questions);
    // Three faults, each costing its question one more attempt; no question lost.
    expect(answered.reduce((s, q) => s + q.attempts, 0) - answered.length).toBe(3);

    server.setScript((req) => reply.text(omniDemoAnswer(req.prompt).content));
    server.requests.length = 0;
    const again = await exec(args, env);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('run killed: finished (resumed)');
    const bench = await loadOmniBenchmark(root, { runs: ['killed'] });
    const actions = bench.users.get('u_1006')!.testActions;
    const after = lines(join(root, 'results/killed/predictions.jsonl'));
    expect(after.map((l) => l.index).sort((a, b) => a - b)).toEqual(actions.map((a) => a.index).sort((a, b) => a - b));
    const total = after.reduce((s, l) => s + l.questions.length, 0);
    // The second session asked only the questions of what the first had not finished, once each.
    expect(server.requests.length).toBe(total - answered.length);
    const kept = new Map(before.map((l) => [`${l.index}`, JSON.stringify(l)]));
    for (const l of after) if (kept.has(`${l.index}`)) expect(JSON.stringify(l)).toBe(kept.get(`${l.index}`));
  });
});
