// run --only-failed FROM --out NAME: NAME is a copy of FROM in which only the failed requests are sent again, each
// with the persona it received (the last non-empty one written before it); every other step is copied as it was, FROM
// is left byte for byte, a finished copy sends nothing more, and the CLI refuses what would not be a copy.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand } from '../../src/cli/run';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { isErrorRecord } from '../../src/core/spb/score/failedRequests';
import { runBenchmark } from '../../src/core/spb/run/runner';
import {
  readResultRows,
  reply,
  startScriptedServer,
  writeTinyBench,
  type ScriptedServer,
  scriptedRunOptions,
} from '../support/scriptedServer';

let server: ScriptedServer;
let root: string;
const FAILING = new Set(['U_00000001/2', 'U_10000000/4']);

beforeAll(async () => {
  server = await startScriptedServer();
  root = writeTinyBench({}, 'only-failed-');
});
afterAll(async () => {
  await server.close();
});

const opts = scriptedRunOptions(() => server, {
  apiKey: 'sk-test',
  timeoutMs: 5000,
  retry: { baseMs: 1, maxMs: 4 },
  concurrency: 2,
});

const files = (run: string) =>
  ['weibo', 'xiaohongshu'].map((p) => readFileSync(join(root, 'results', run, `inference_results_${p}.jsonl`), 'utf8'));

/** platform/user/step → the step's row, of every results file of `run`. */
function rows(run: string) {
  const out = new Map<string, { prediction: unknown[]; reasoning: string; persona_summary: string }>();
  for (const p of ['weibo', 'xiaohongshu'])
    for (const u of readResultRows(join(root, 'results', run, `inference_results_${p}.jsonl`)))
      for (const s of u.steps) out.set(`${p}/${u.user_id}/${s.step_id}`, s);
  return out;
}

describe('run --only-failed', () => {
  it('sends only the failed steps again, each with the persona it received, into a copy', async () => {
    server.setScript((req) => (FAILING.has(`${req.info.user}/${req.info.step}`) ? reply.status(500) : reply.smart()));
    const first = await runBenchmark(opts(await loadBenchmark(root), 'from'));
    expect(first.status).toBe('finished');
    expect(first.progress.failed).toBe(2);
    const before = files('from');

    server.requests.length = 0;
    server.setScript(() => reply.smart());
    const bench = await loadBenchmark(root, { runs: ['from'] });
    const from = bench.runs.get('from')!;
    const copy = await runBenchmark(opts(bench, 'copy', { onlyFailedOf: from }));
    expect(copy.status).toBe('finished');
    expect(server.requests.map((r) => `${r.info.user}/${r.info.step}`).sort()).toEqual([...FAILING].sort());
    // Each received the persona written at the step before it.
    for (const r of server.requests)
      expect(r.info.persona).toBe(`persona of ${r.info.user} after step ${r.info.step! - 1}`);
    expect(copy.progress).toMatchObject({ total: 20, done: 20, failed: 0, usersDone: 5, requests: 2 });
    expect(files('from')).toEqual(before);

    const a = rows('from');
    const b = rows('copy');
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    const changed = [...a].filter(([k, s]) => JSON.stringify(s) !== JSON.stringify(b.get(k))).map(([k]) => k);
    expect(changed.sort()).toEqual(['weibo/we_0000000001/2', 'xiaohongshu/xi_0000000000/4']);
    for (const k of changed) {
      const s = b.get(k)!;
      expect(
        isErrorRecord({ prediction: s.prediction, reasoning: s.reasoning, personaSummary: s.persona_summary }),
      ).toBe(false);
    }
    // The step after a retried one keeps what it was given: it did not see the retried step's persona.
    expect(b.get('weibo/we_0000000001/3')).toEqual(a.get('weibo/we_0000000001/3'));

    server.requests.length = 0;
    const again = await runBenchmark(
      opts(await loadBenchmark(root, { runs: ['from'] }), 'copy', { onlyFailedOf: from }),
    );
    expect(again.resumed).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('the CLI refuses a copy onto FROM, a selection, and says when there is nothing to send', async () => {
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => err.push(t), env: {} };
    const cli = (out: string, extra: Record<string, string> = {}) =>
      runRunCommand([root], { out, 'only-failed': 'from', 'base-url': server.baseURL, model: 'm', ...extra }, io);
    expect(await cli('from')).toBe(2);
    expect(err.join('')).toContain('give the copy another --out NAME');
    expect(await cli('x', { user: 'we_0000000001' })).toBe(2);
    expect(err.join('')).toContain('it takes no --user');
    err.length = 0;
    expect(
      await runRunCommand([root], { out: 'x2', 'only-failed': 'copy', 'base-url': server.baseURL, model: 'm' }, io),
    ).toBe(0);
    expect(err.join('')).toContain('copy has no failed request: nothing to send');
    expect(
      await runRunCommand([root], { out: 'x3', 'only-failed': 'nope', 'base-url': server.baseURL, model: 'm' }, io),
    ).toBe(2);
  });
});
