// `persona-lab run` on a PersonaMem folder, as processes: against the scripted endpoint (the results file `score`
// reads as a run, a rerun that asks nothing again), against the demo endpoint, with the benchmark's request from the
// stand-in checkout, the PI guard refusing a history with personal information, and the usage errors. Needs dist/
// built (`npm test` builds it first).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL_ID } from '../../src/core/demo/model';
import { startDemoServer, type DemoServer } from '../../src/core/demo/server';
import { reply, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { handFolder } from './personamem-folder';

const CLI = resolve('dist/cli.js');
const CHECKOUT = resolve('test/fixtures/personamem-checkout');
let server: ScriptedServer;
let demo: DemoServer;

beforeAll(async () => {
  server = await startScriptedServer(() => reply.text('Hmm. <final_answer>(a)'));
  demo = await startDemoServer();
});
afterAll(async () => {
  await server.close();
  await demo.close();
});

// Async on purpose: the endpoints live in this process, so a synchronous spawn would block them.
function cli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return cliWith(() => undefined, ...args);
}
function cliWith(
  started: (c: ChildProcess) => void,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    started(child);
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
    child.on('error', rej);
    child.on('close', (status) => res({ status, ...out }));
  });
}

const folder = () =>
  handFolder(['q1', 'q2', 'q3', 'q4'].map((id, i) => ({ id, gold: i < 3 ? '(a)' : '(c)', end: 2 + i })));

describe('persona-lab run on a PersonaMem folder', () => {
  it('writes a results file that score reads as a run, and a rerun asks nothing again', async () => {
    const dir = folder();
    server.requests.length = 0;
    const r = await cli('run', dir, '--base-url', server.baseURL, '--model', 'my/model:1', '--no-reference');
    expect(r.stderr).toContain('request: Persona Lab template (not the benchmark’s request)');
    expect(r.stdout).toContain('run my-model-1 (32k): finished');
    expect(r.stdout).toContain('accuracy 75.00% (3 of 4 answered;');
    expect(r.status).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(existsSync(join(dir, 'results', 'eval_results_32k_my-model-1.csv'))).toBe(true);
    const score = await cli('score', dir, '--json');
    const runs = (JSON.parse(score.stdout) as { runs: { name: string; answered: number; correct: number }[] }).runs;
    expect(runs).toEqual([expect.objectContaining({ name: '32k_my-model-1', answered: 4, correct: 3 })]);
    const again = await cli('run', dir, '--base-url', server.baseURL, '--model', 'my/model:1', '--size', '32k');
    expect(again.stdout).toContain('finished (resumed)');
    expect(again.stderr).toContain('0 requests (4 questions already done)');
    expect(server.requests).toHaveLength(4);
  });

  it('killed in the middle (SIGKILL), the same command resumes: only the questions without a row are asked', async () => {
    const dir = folder();
    const lastTurn = (i: number) => {
      const m = (server.requests[i].body as { messages: { content: string }[] }).messages;
      return m[m.length - 1].content.split('\n')[0];
    };
    server.requests.length = 0;
    server.setScript(() => reply.delay(200, reply.text('<final_answer>(a)')));
    const args = ['run', dir, '--base-url', server.baseURL, '--model', 'm', '--concurrency', '1', '--no-reference'];
    let child: ChildProcess | undefined;
    const killed = cliWith((c) => (child = c), ...args);
    await server.waitForRequests(3);
    child!.kill('SIGKILL');
    expect((await killed).status).toBeNull();
    const before = server.requests.length;
    server.setScript(() => reply.text('<final_answer>(a)'));
    const again = await cli(...args);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('finished (resumed)');
    const asked = server.requests.slice(before).map((_, i) => lastTurn(before + i));
    // the two answered before the kill are not asked again; the one in flight is
    expect(asked).toEqual(['question q3', 'question q4']);
    const text = readFileSync(join(dir, 'results', 'eval_results_32k_m.csv'), 'utf8');
    expect(text.match(/\r\nTrue,0,q\d,/g)).toHaveLength(3);
  });

  it('against the demo endpoint: every question answered by its rule', async () => {
    const dir = folder();
    const r = await cli('run', dir, '--base-url', demo.baseURL, '--model', DEMO_MODEL_ID, '--out', 'demo');
    expect(r.status).toBe(0);
    const text = readFileSync(join(dir, 'results', 'eval_results_32k_demo.csv'), 'utf8');
    expect(text.match(/Demo model, not an LLM/g)).toHaveLength(4);
  });

  it("with --reference: the checkout's inference.py builds the requests, and it says so before running it", async () => {
    const dir = folder();
    server.requests.length = 0;
    const r = await cli('run', dir, '--base-url', server.baseURL, '--model', 'stand-in', '--reference', CHECKOUT);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`running ${join(CHECKOUT, 'inference.py')}`);
    expect(r.stderr).toMatch(
      /request: the benchmark's request \(inference\.py, Evaluation\.query_llm\) from .* \(inference\.py@[0-9a-f]{12}\)/,
    );
    for (const q of server.requests) expect((q.body as { max_tokens?: number }).max_tokens).toBe(77);
  });

  it('the PI guard refuses a history with personal information, and sends nothing', async () => {
    const dir = folder();
    const file = join(dir, 'shared_contexts_32k.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replace('turn 1.0', 'write to jane.doe@example.com please'));
    server.requests.length = 0;
    const base = ['run', dir, '--base-url', server.baseURL, '--model', 'm', '--no-reference', '--pi-guard-loopback'];
    const r = await cli(...base);
    expect(r.status).toBe(4);
    expect(r.stderr).toContain('not sending');
    expect(r.stderr).toContain('32k context ctx1');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(dir, 'results', 'eval_results_32k_m.csv'))).toBe(false);
    // masked, it sends each history with the finding replaced
    const masked = await cli(...base, '--pi-guard', 'mask');
    expect(masked.status).toBe(0);
    expect(JSON.stringify(server.requests.map((q) => q.body))).not.toContain('jane.doe@example.com');
  });

  it('usage: a split must be named when there are several, and options of other formats are refused', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'questions_128k.csv'), readFileSync(join(dir, 'questions_32k.csv')));
    writeFileSync(join(dir, 'shared_contexts_128k.jsonl'), readFileSync(join(dir, 'shared_contexts_32k.jsonl')));
    const r = await cli('run', dir, '--base-url', server.baseURL, '--model', 'm');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the folder has several splits: pass --size 32k | 128k');
    const other = await cli('run', dir, '--size', '32k', '--base-url', server.baseURL, '--model', 'm', '--index', '2');
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('--index: not an option of a PersonaMem run');
    const help = await cli('run', '--help');
    expect(help.stdout).toContain('run <personamem dir> --base-url URL --model NAME [--size SIZE]');
    expect(help.stdout).toContain('persona-lab run data --size 32k');
  });
});
