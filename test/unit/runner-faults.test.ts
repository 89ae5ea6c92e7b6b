import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { runBenchmark } from '../../src/core/spb/run/runner';
import type { Benchmark } from '../../src/core/spb/types';
import {
  readResultRows as readRows,
  reply,
  startScriptedServer,
  writeTinyBench,
  type Reply,
  type ResultStepRow as StepRow,
  type ScriptedServer,
  scriptedRunOptions,
} from '../support/scriptedServer';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

const opts = scriptedRunOptions(() => server, {
  apiKey: 'sk-faults',
  // a short timeout keeps the slow-reply cases short; no assertion depends on timing
  timeoutMs: 1500,
  retry: { baseMs: 1, maxMs: 4, sleep: async () => {} },
});

interface FaultCase {
  name: string;
  /** replies for step 2 of the chain, one per attempt; after them the smart reply */
  step2: Reply[];
  requests: number;
  check: (s: StepRow, next: StepRow) => void;
}

const cases: FaultCase[] = [
  {
    name: 'valid JSON',
    step2: [reply.json({ persona_summary: 'P2', predicted_tags: ['#n02#', '#k02#'], reasoning: 'r' })],
    requests: 1,
    check: (s, next) => {
      expect(s.prediction).toEqual(['#n02#', '#k02#']);
      expect(s.metrics?.Recall).toBe(1);
      expect(next.reasoning).toBe('received persona: P2');
    },
  },
  {
    name: 'JSON inside ```json fences',
    step2: [reply.fenced({ persona_summary: 'P2', predicted_tags: ['#n02#'], reasoning: 'fenced' })],
    requests: 1,
    check: (s) => {
      expect(s.reasoning).toBe('fenced');
      expect(s.metrics?.Recall).toBe(0.5);
    },
  },
  {
    name: 'invalid JSON on every attempt',
    step2: [reply.text('not json'), reply.text('{"persona_summary": '), reply.text('')],
    requests: 3,
    check: (s, next) => {
      expect(s.prediction).toEqual([]);
      expect(s.reasoning).toBe('Error: Expecting value: line 1 column 1 (char 0)');
      expect(s.persona_summary).toBe('');
      expect(s.metrics?.Recall).toBe(0);
      // no persona from a failed step: step 3 gets what step 2 received
      expect(next.reasoning).toBe('received persona: persona of U_00000000 after step 1');
    },
  },
  {
    name: 'invalid JSON once, then valid',
    step2: [reply.text('{oops')],
    requests: 2,
    check: (s) => expect(s.persona_summary).toBe('persona of U_00000000 after step 2'),
  },
  {
    name: 'missing keys',
    step2: [reply.json({ predicted_tags: ['#k02#'] })],
    requests: 1,
    check: (s, next) => {
      expect(s).toMatchObject({ prediction: ['#k02#'], reasoning: '', persona_summary: '' });
      expect(next.reasoning).toBe('received persona: persona of U_00000000 after step 1');
    },
  },
  {
    name: 'too many tags',
    step2: [
      reply.json({
        persona_summary: 'P',
        predicted_tags: ['#n02#', '#k02#', '#d02#', '#r102#', '#n02#'],
        reasoning: '',
      }),
    ],
    requests: 1,
    check: (s) => {
      expect(s.prediction).toHaveLength(5);
      expect(s.metrics).toMatchObject({ Recall: 1, Error_Decay: 1, Error_Random: 1 / 3 });
    },
  },
  {
    name: 'too few tags',
    step2: [reply.json({ persona_summary: 'P', predicted_tags: [], reasoning: '' })],
    requests: 1,
    check: (s) => expect(s.metrics?.Recall).toBe(0),
  },
  {
    name: 'out-of-pool tags',
    step2: [reply.json({ persona_summary: 'P', predicted_tags: ['#invented#', '#k02#'], reasoning: '' })],
    requests: 1,
    check: (s) => {
      expect(s.prediction).toEqual(['#invented#', '#k02#']);
      expect(s.metrics).toMatchObject({ Recall: 0.5, Recall_Stability: 1, Recall_Novelty: 0 });
    },
  },
  {
    name: '429 with Retry-After, then valid',
    step2: [reply.status(429, { 'retry-after': '0' })],
    requests: 2,
    check: (s) => expect(s.persona_summary).toBe('persona of U_00000000 after step 2'),
  },
  {
    name: '429 on every attempt',
    step2: [reply.status(429), reply.status(429), reply.status(429)],
    requests: 3,
    check: (s) => expect(s.reasoning).toMatch(/^Error: 429\b/),
  },
  {
    name: '500 once, then valid',
    step2: [reply.status(500)],
    requests: 2,
    check: (s) => expect(s.prediction).toHaveLength(2),
  },
  {
    name: '500 on every attempt',
    step2: [reply.status(500), reply.status(502), reply.status(503)],
    requests: 3,
    check: (s) => expect(s.reasoning).toMatch(/^Error: 503\b/),
  },
  {
    name: 'slower than the timeout, then valid',
    step2: [reply.delay(60_000)],
    requests: 2,
    check: (s) => expect(s.prediction).toHaveLength(2),
  },
  {
    name: 'slower than the timeout on every attempt',
    step2: [reply.delay(60_000), reply.delay(60_000), reply.delay(60_000)],
    requests: 3,
    check: (s) =>
      expect(s.reasoning).toBe(
        'Error: Request timed out: no complete reply within 1.5 s (the timeout covers the headers and the body).',
      ),
  },
  {
    name: 'dropped connection, then valid',
    step2: [reply.drop()],
    requests: 2,
    check: (s) => expect(s.prediction).toHaveLength(2),
  },
  {
    name: 'dropped connection on every attempt',
    step2: [reply.drop(), reply.drop(), reply.drop()],
    requests: 3,
    check: (s) => expect(s.reasoning).toBe('Error: Connection error.'),
  },
];

describe('runBenchmark: every scripted fault ends in the recorded outcome and the run finishes', () => {
  const root = writeTinyBench({}, 'runner-faults-');
  let bench: Benchmark;
  beforeAll(async () => {
    bench = await loadBenchmark(root);
  });

  it.each(cases.map((c, i) => [c.name, i] as const))('%s', async (_name, i) => {
    const c = cases[i];
    let used = 0;
    server.requests.length = 0;
    server.setScript((req) => (req.info.step === 2 && used < c.step2.length ? c.step2[used++] : reply.smart()));
    const summary = await runBenchmark(opts(bench, `fault-${i}`, { userId: 'we_0000000000' }));
    expect(summary.status).toBe('finished');
    const perStep = server.requests.map((r) => r.info.step);
    expect(perStep.filter((s) => s === 2)).toHaveLength(c.requests);
    expect(perStep.filter((s) => s !== 2)).toEqual([1, 3, 4]);
    const [row] = readRows(join(root, `results/fault-${i}/inference_results_weibo.jsonl`));
    expect(row.steps.map((s) => s.step_id)).toEqual([1, 2, 3, 4]);
    c.check(row.steps[1], row.steps[2]);
    const failed = row.steps[1].reasoning.startsWith('Error: ') ? 1 : 0;
    expect(summary.progress).toMatchObject({ done: 4, failed });
  });

  it('honours Retry-After and backs off exponentially otherwise', async () => {
    const waits: number[] = [];
    let n = 0;
    server.requests.length = 0;
    server.setScript((req) => {
      if (req.info.step !== 1) return reply.smart();
      n++;
      return n === 1 ? reply.status(429, { 'retry-after': '7' }) : n === 2 ? reply.status(500) : reply.smart();
    });
    const summary = await runBenchmark(
      opts(bench, 'backoff', {
        userId: 'we_0000000001',
        retry: { baseMs: 100, maxMs: 10_000, random: () => 1, sleep: async (ms) => void waits.push(ms) },
      }),
    );
    expect(summary.status).toBe('finished');
    expect(waits).toEqual([7000, 200]);
  });
});
