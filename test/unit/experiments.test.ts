// Experiments end to end against the scripted server: a template over a sample into its own run folder, its paired
// figures equal to Compare Runs' on the same steps, a stopped experiment resumed without re-asking finished steps,
// the log (newest first, never the key), and the estimate printed before anything is sent.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperimentCommand, runExperimentsCommand } from '../../src/cli/formats/spb/experiment';
import { authorName } from '../../src/core/spb/experiments/record';
import { runRunCommand, type RunCliIo } from '../../src/cli/run';
import { experimentFigures, thinPlatforms } from '../../src/core/spb/experiments/experiment';
import { figureLines } from '../../src/core/spb/experiments/text';
import { EXPERIMENTS_DB, ExperimentLog } from '../../src/core/spb/experiments/log';
import { drawSample } from '../../src/core/spb/experiments/sample';
import { writeSample } from '../../src/core/experiments/sampleFile';
import { newSample } from '../../src/core/spb/experiments/sampleFile';
import { readJournalSteps } from '../../src/core/runner/journal';
import { JOURNAL_FILE } from '../../src/core/runner/runFolder';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { PairedBootstrap } from '../../src/core/spb/score/pairedSummary';
import { compareRuns, mergeComparisons } from '../../src/core/spb/score/runCompare';
import { isPlatform, PLATFORMS } from '../../src/core/spb/types';
import { RESAMPLES, SEED, summaryRows } from '../../src/extension/benchmarks/spb/compare/model';
import {
  MARKER_TEMPLATE,
  reply,
  smartBody,
  startScriptedServer,
  writeTinyBench,
  type ScriptedServer,
} from '../support/scriptedServer';

const KEY = 'sk-test-EXPERIMENT-0123456789abcdef';
let server: ScriptedServer;
let root: string;

/** The variant template asks for the last k pool tags instead of the first k: a real paired difference. */
const VARIANT = `VARIANT\n${MARKER_TEMPLATE}`;

beforeAll(async () => {
  server = await startScriptedServer((req) => {
    if (!req.prompt.startsWith('VARIANT')) return reply.smart();
    const body = smartBody(req.info);
    const pool = req.info.pool ?? [];
    return reply.json({ ...body, predicted_tags: pool.slice(pool.length - (req.info.k ?? 1)) });
  });
  root = writeTinyBench({ users: { weibo: 6, xiaohongshu: 4 }, steps: 4 }, 'experiments-');
  writeFileSync(join(root, 'base.plprompt'), MARKER_TEMPLATE);
  writeFileSync(join(root, 'variant.plprompt'), VARIANT);
  const sink = io();
  const base = { out: 'base', template: join(root, 'base.plprompt'), 'base-url': server.baseURL, model: 'm' };
  expect(await runRunCommand([root], base, sink.sink)).toBe(0);
  const bench = await loadBenchmark(root);
  writeSample(root, newSample(bench, 's', drawSample(bench, { users: 4, seed: 5 })));
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function io(signal?: AbortSignal): { out: { stdout: string; stderr: string }; sink: RunCliIo } {
  const out = { stdout: '', stderr: '' };
  const env = { OPENAI_API_KEY: KEY, PERSONA_LAB_RETRY_BASE_MS: '1' };
  const sink = { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env };
  return { out, sink: { ...sink, signal } };
}

const experimentOpts = (template: string, extra: Record<string, string | boolean> = {}) => ({
  template: join(root, template),
  sample: 's',
  'base-url': server.baseURL,
  model: 'm',
  'base-run': 'base',
  concurrency: '1',
  ...extra,
});

const stepKeys = (run: string) =>
  [...readJournalSteps(join(root, 'results', run, JOURNAL_FILE), isPlatform).values()].map(
    (e) => `${e.user}/${e.step}`,
  );

describe('persona-lab experiment', () => {
  it('prints the estimate and sends nothing on --dry-run', async () => {
    const before = server.requests.length;
    const { out, sink } = io();
    expect(
      await runExperimentCommand([root], experimentOpts('variant.plprompt', { 'dry-run': true }), sink, false),
    ).toBe(0);
    expect(server.requests.length).toBe(before);
    // 4 users of 4 steps each
    expect(out.stderr).toMatch(/estimate: 16 requests, ~[\d,]+ prompt tokens \(tokens estimated/);
    expect(
      await runExperimentCommand(
        [root],
        experimentOpts('variant.plprompt', { 'dry-run': true, 'input-per-mtok': '2' }),
        sink,
        false,
      ),
    ).toBe(0);
    expect(out.stderr).toMatch(/input cost ~0\.0\d+/);
  });

  it('stops, resumes without re-asking a finished step, and matches Compare Runs on the same steps', async () => {
    const controller = new AbortController();
    const first = io(controller.signal);
    const start = server.requests.length;
    void server.waitForRequests(start + 6).then(() => controller.abort());
    const opts = experimentOpts('variant.plprompt');
    expect(await runExperimentCommand([root], opts, first.sink, false)).toBe(130);
    const runName = /experiment (exp-s-[0-9a-f]{12}-[0-9a-f]{6}):/.exec(first.out.stderr)?.[1] ?? '';
    expect(runName).not.toBe('');
    const finished = stepKeys(runName);
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.length).toBeLessThan(16);

    const mid = server.requests.length;
    const second = io();
    expect(await runExperimentCommand([root], opts, second.sink, false)).toBe(0);
    expect(second.out.stderr).toContain(`(${finished.length} steps already done)`);
    const asked = server.requests.slice(mid).map((r) => `${r.info.user}/${r.info.step}`);
    const bench = await loadBenchmark(root, { runs: ['base', runName] });
    const names = new Map([...bench.users.values()].flatMap((m) => [...m.values()]).map((u) => [u.userId, u.username]));
    const finishedByName = finished.map((k) => `${names.get(k.split('/')[0])}/${k.split('/')[1]}`);
    expect(asked.filter((k) => finishedByName.includes(k))).toEqual([]);
    expect(asked.length).toBe(16 - finished.length);
    expect(stepKeys(runName)).toHaveLength(16);

    // Compare Runs, as its session computes it: the whole benchmark, one platform at a time, bootstrap in chunks.
    const base = bench.runs.get('base')!;
    const exp = bench.runs.get(runName)!;
    const cmp = mergeComparisons(PLATFORMS.map((p) => compareRuns(bench, base, exp, [p])));
    const boot = new PairedBootstrap(cmp, 'all', { resamples: RESAMPLES, seed: SEED });
    while (!boot.run(100));
    const sample = JSON.parse(readFileSync(join(root, '.personalab', 'samples', 's.json'), 'utf8')) as {
      users: Record<string, string[]>;
    };
    const figures = experimentFigures(bench, base, exp, sample.users);
    expect(figures.pairedSteps).toBe(cmp.steps.length);
    expect(figures.pairedSteps).toBe(12); // 4 users × 3 scored steps
    expect(summaryRows(figures.summary)).toEqual(summaryRows(boot.result()));
    expect(figures.summary.find((r) => r.metric === 'Recall')!.diff).not.toBe(0);

    // ... and the logged row holds the same figures, its cost from the journal, no key.
    const log = ExperimentLog.open(join(root, EXPERIMENTS_DB));
    const [row] = log.list();
    log.close();
    expect(row.run).toBe(runName);
    expect(row.baseRun).toBe('base');
    expect(row.author).toBe(authorName(root));
    expect(row.template.text).toBe(VARIANT);
    expect(row.endpoint).toEqual({ baseURL: server.baseURL, model: 'm', temperature: 0, maxTokens: null });
    expect(summaryRows(row.figures!.summary)).toEqual(summaryRows(figures.summary));
    expect(row.cost).toMatchObject({ requests: 16, promptTokens: 1600, completionTokens: 320 });
    expect(second.out.stdout).toContain('compared with base on 12 paired steps of 4 users');
  });

  it('logs a second template, lists newest first, and never stores the key', async () => {
    const { sink } = io();
    expect(await runExperimentCommand([root], experimentOpts('base.plprompt'), sink, false)).toBe(0);
    const list = io();
    expect(await runExperimentsCommand([root], { json: true }, list.sink)).toBe(0);
    const rows = JSON.parse(list.out.stdout) as { template: { text: string }; figures: { summary: unknown[] } }[];
    expect(rows.map((r) => r.template.text)).toEqual([MARKER_TEMPLATE, VARIANT]);
    // the same template as the base run: every paired difference is 0
    const recall = rows[0].figures.summary[0] as { metric: string; diff: number; userWtl: { tie: number } };
    expect(recall).toMatchObject({ metric: 'Recall', diff: 0, userWtl: { tie: 4 } });

    const table = io();
    expect(await runExperimentsCommand([root], {}, table.sink)).toBe(0);
    const lines = table.out.stdout.split('\n');
    expect(lines[0]).toMatch(/^time\s+kind\s+author\s+template\s+model\s+sample\s+base\s+ΔR pp/);
    expect(lines[1]).toContain('+0.0 [+0.0, +0.0]');
    expect(lines[1]).toMatch(/^\S+ \S+\s+template\s/);

    for (const f of [EXPERIMENTS_DB, `${EXPERIMENTS_DB}-wal`, `${EXPERIMENTS_DB}-shm`]) {
      const path = join(root, f);
      if (existsSync(path)) expect(readFileSync(path).includes(KEY)).toBe(false);
    }
    expect(readFileSync(join(root, EXPERIMENTS_DB)).includes(Buffer.from('VARIANT'))).toBe(true);
  });

  it('scores on the sample only, whatever else the runs hold', async () => {
    const bench = await loadBenchmark(root, { runs: ['base'] });
    const base = bench.runs.get('base')!;
    const one = { weibo: [[...bench.users.get('weibo')!.keys()][2]] };
    const f = experimentFigures(bench, base, base, one);
    // 3 scored steps of 4 (step 3 has no positives), one user; the same run on both sides: no difference, no flip
    expect([f.pairedSteps, f.pairedUsers, f.onlyBase, f.onlyRun]).toEqual([3, 1, 0, 0]);
    expect(f.summary.every((r) => r.diff === 0 || Number.isNaN(r.diff))).toBe(true);
    expect(f.flips).toEqual({ gained: 0, lost: 0, newWrong: 0, droppedWrong: 0, top: [] });
    expect(thinPlatforms(f)).toEqual(['weibo']);
    expect(figureLines(f)[0]).toMatch(/^note: one paired user on weibo: the 95 % interval .* too narrow/);
  });

  it('names a sample user missing from the benchmark and a missing option', async () => {
    const { out, sink } = io();
    expect(
      await runExperimentCommand([root], { ...experimentOpts('variant.plprompt'), sample: undefined }, sink, false),
    ).toBe(2);
    expect(out.stderr).toContain('experiment needs --sample NAME');
    expect(await runExperimentCommand([root], experimentOpts('variant.plprompt', { user: 'x' }), sink, false)).toBe(2);
    expect(out.stderr).toContain("experiment runs the sample's users: --user does not apply");
    const path = join(root, '.personalab', 'samples', 'gone.json');
    const json = JSON.parse(readFileSync(join(root, '.personalab', 'samples', 's.json'), 'utf8')) as {
      name: string;
      users: Record<string, string[]>;
    };
    writeFileSync(path, JSON.stringify({ ...json, name: 'gone', users: { weibo: ['we_missing'] } }));
    expect(
      await runExperimentCommand([root], experimentOpts('variant.plprompt', { sample: 'gone' }), sink, false),
    ).toBe(1);
    expect(out.stderr).toContain(`${path}: users.weibo: 1 user(s) not in data/weibo_inference_tasks.jsonl: we_missing`);
  });
});
