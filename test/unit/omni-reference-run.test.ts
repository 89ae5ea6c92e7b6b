// OmniBehavior runs with the benchmark's own code (here the stand-in checkout of the same shape): every request a run
// sends equals what the checkout's builder renders (computed by Python directly), with the parameters its caller
// sets; every reply is read by its caller's rules; a second run resumes without asking again.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { omniReferenceSource } from '../../src/core/omni/reference/source';
import { planOmni } from '../../src/core/omni/run/plan';
import { runOmni } from '../../src/core/omni/run/runner';
import type { OmniPromptSource } from '../../src/core/omni/run/source';
import { OMNI_STAND_IN, standInQuestions, standInReply } from '../support/omniStandIn';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { OMNI_SAMPLE } from '../support/committedSample';

const BUDGET = 1200;
let server: ScriptedServer;
let root: string;
let source: OmniPromptSource;

beforeAll(async () => {
  server = await startScriptedServer((req) => standInReply(req.prompt));
  root = mkdtempSync(join(tmpdir(), 'pl-omni-ref-'));
  cpSync(OMNI_SAMPLE, root, { recursive: true });
  source = await omniReferenceSource(OMNI_STAND_IN);
});
afterAll(async () => {
  source.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const endpoint = () => ({ baseURL: server.baseURL, apiKey: 'sk-omni', model: 'scripted-model' });

describe("an OmniBehavior run with the checkout's own code", () => {
  it('sends exactly what the builder renders, with its caller’s parameters, and reads replies by its rules', async () => {
    const expected = standInQuestions(root, BUDGET).filter((q) => q.prompt !== null);
    expect(expected.length).toBeGreaterThan(100);
    const bench = await loadOmniBenchmark(root);
    server.requests.length = 0;
    const summary = await runOmni({ bench, name: 'ref', source, endpoint: endpoint(), maxHistoryTokens: BUDGET });
    expect(summary.status).toBe('finished');
    const sent = server.requests.map((r) => r.prompt).sort();
    expect(sent).toEqual(expected.map((q) => q.prompt).sort());
    for (const r of server.requests) {
      const body = r.body as Record<string, unknown>;
      expect(body.messages).toEqual([{ role: 'user', content: r.prompt }]);
      expect(body.temperature).toBe(0.3);
      expect(body.max_tokens).toBe(r.prompt.endsWith('yes or no') ? 16 : 64);
      expect(body.response_format).toBeUndefined();
    }
    const lines = readFileSync(summary.file, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            user_id: string;
            index: number;
            questions: {
              field: string;
              type: string;
              true_value: unknown;
              predicted_value: unknown;
              predicted_label: unknown;
            }[];
          },
      );
    const answers = lines.flatMap((l) => l.questions.map((q) => ({ ...q, user: l.user_id, index: l.index })));
    expect(answers.map((a) => `${a.user}#${a.index}/${a.field}`)).toEqual(
      expected.map((q) => `${q.user}#${q.index}/${q.field}`),
    );
    for (const [i, a] of answers.entries()) {
      expect(a.true_value).toEqual(expected[i].true_value);
      if (a.type === 'binary') expect([a.predicted_value, a.predicted_label]).toEqual([1, 1]);
      if (a.type === 'continuous') expect(a.predicted_value).toBe(42);
      if (a.type === 'text') expect(a.predicted_value).toBe('stand-in words');
    }
  });

  it('resumes without asking again', async () => {
    const bench = await loadOmniBenchmark(root, { runs: ['ref'] });
    server.requests.length = 0;
    const again = await runOmni({ bench, name: 'ref', source, endpoint: endpoint(), maxHistoryTokens: BUDGET });
    expect(again.status).toBe('finished');
    expect(again.resumed).toBe(true);
    expect(server.requests.length).toBe(0);
    const other = await runOmni({ bench, name: 'ref', source, endpoint: endpoint(), maxHistoryTokens: BUDGET + 1 });
    expect(other.status).toBe('failed');
    expect(other.error).toMatch(/different maxHistoryTokens/);
    // the plan says so before rendering anything, as the extension's name box does
    const plan = await planOmni(
      bench,
      source,
      'ref',
      { userId: 'u_1003' },
      { model: 'scripted-model', maxHistoryTokens: BUDGET },
    );
    expect(plan.problem).toMatch(/results\/ref was started with a different selection; choose another run name$/);
    expect(plan.requests).toEqual([]);
    const same = await planOmni(bench, source, 'ref', {}, { model: 'scripted-model', maxHistoryTokens: BUDGET });
    expect(same.problem).toBeNull();
    expect(same.requests.length).toBeGreaterThan(100);
    expect(same.requests.every((r) => r.done)).toBe(true);
  });

  it('a reply the caller cannot read fails the question after its own attempt count, and keeps the reply', async () => {
    const bench = await loadOmniBenchmark(root);
    const user = [...bench.users.values()][0];
    const action = user.testActions.find((a) => a.fields.some((f) => f.startsWith('video_')))!;
    server.setScript((req) =>
      req.prompt.endsWith('yes or no') ? { kind: 'text', content: 'maybe' } : standInReply(req.prompt),
    );
    server.requests.length = 0;
    try {
      const s = await runOmni({
        bench,
        name: 'unreadable',
        source,
        endpoint: endpoint(),
        maxHistoryTokens: BUDGET,
        selection: { userId: user.userId, index: action.index },
        retry: { baseMs: 1, maxMs: 2 },
      });
      expect(s.progress).toMatchObject({ done: 1, failed: 1 });
      const line = JSON.parse(readFileSync(s.file, 'utf8').trim()) as {
        questions: { type: string; predicted_value: unknown; raw_output: string; error?: string; attempts: number }[];
      };
      const binary = line.questions.filter((q) => q.type === 'binary');
      expect(binary.length).toBeGreaterThan(0);
      for (const q of binary) expect(q).toMatchObject({ predicted_value: null, raw_output: 'maybe', attempts: 4 });
      expect(binary[0].error).toMatch(/unreadable: maybe/);
      expect(server.requests.length).toBe(line.questions.length + binary.length * 3);
    } finally {
      server.setScript((req) => standInReply(req.prompt));
    }
  });
});

describe('on generated folders, too', () => {
  it.each([21, 22, 23])('seed %i: every request equals what the builder renders', async (seed) => {
    const out = join(root, `..`, `${root.split('/').at(-1)}-seed-${seed}`);
    execFileSync(process.execPath, ['scripts/gen-omni-sample.mjs', '--seed', String(seed), '--out', out]);
    try {
      const expected = standInQuestions(out, BUDGET).filter((q) => q.prompt !== null);
      expect(expected.length).toBeGreaterThan(100);
      const bench = await loadOmniBenchmark(out);
      server.requests.length = 0;
      const summary = await runOmni({ bench, name: 'ref', source, endpoint: endpoint(), maxHistoryTokens: BUDGET });
      expect(summary.status).toBe('finished');
      expect(server.requests.map((r) => r.prompt).sort()).toEqual(expected.map((q) => q.prompt).sort());
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('persona-lab run with --reference, both folders given as relative paths', () => {
  it('renders from the checkout and reads the history files (the driver runs in the checkout)', async () => {
    const bench = await loadOmniBenchmark(root);
    const action = bench.users.get('u_1003')!.testActions[0];
    const cwd = dirname(root);
    const args = [
      ...['run', basename(root), '--reference', relative(cwd, OMNI_STAND_IN), '--out', 'relative'],
      ...['--user', 'u_1003', '--index', String(action.index), '--max-history-tokens', String(BUDGET)],
      ...['--base-url', server.baseURL, '--model', 'scripted-model'],
    ];
    const r = await new Promise<{ status: number | null; stderr: string }>((res, rej) => {
      const child = spawn(process.execPath, [resolve('dist/cli.js'), ...args], {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', rej);
      child.on('close', (status) => res({ status, stderr }));
    });
    expect(r.stderr).not.toMatch(/FileNotFoundError|No such file/);
    expect(r.status, r.stderr).toBe(0);
    const line = JSON.parse(readFileSync(join(root, 'results/relative/predictions.jsonl'), 'utf8').trim()) as {
      index: number;
      questions: { field: string }[];
    };
    expect(line.index).toBe(action.index);
    expect(line.questions.map((q) => q.field).sort()).toEqual([...action.fields].sort());
  });
});
