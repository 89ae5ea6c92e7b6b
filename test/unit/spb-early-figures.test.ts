// The tree's early figures: on a folder its index has never seen, the index worker first reads it as a cold `score`
// does and posts the figures, and the tree shows them until the open ends. What the tree shows early must be what it
// shows after: every run's figures, failed requests and row texts, problems included.
import { appendFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { INDEX_DIR } from '../../src/core/cache/store';
import {
  benchFromSummary,
  isFiguresSummary,
  summarizeFigures,
  type FiguresSummary,
} from '../../src/core/spb/format/figuresSummary';
import { discover, firstReadBytes, loadBenchmark } from '../../src/core/spb/format/load';
import { failedRequests } from '../../src/core/spb/score/failedRequests';
import { scoreRun } from '../../src/core/spb/score/run';
import { scoreJson } from '../../src/core/spb/score/tables';
import type { Benchmark } from '../../src/core/spb/types';
import { coldLoadInWorker } from '../../src/extension/benchmarks/spb/coldLoad/inWorker';
import type { EarlyFigures } from '../../src/extension/benchmarks/spb/roots';
import { SpbStore } from '../../src/extension/benchmarks/spb/store';
import { benchmarkDescription, platformRows } from '../../src/extension/benchmarks/spb/treeModel';
import type { LoadHost } from '../../src/extension/benchmarks/types';
import { copySample, open } from '../support/indexFolder';
import { buildColdLoadWorker } from '../support/coldLoadWorker';

vi.mock('vscode', async () => ({
  ...(await import('../support/vscodeEvents')).vscodeEvents(),
  commands: { executeCommand: async () => undefined },
}));

let script = '';

beforeAll(async () => {
  ({ script } = await buildColdLoadWorker('pl-early-'));
});

/** The bytes of a folder's tasks and results files. */
const fileBytes = (root: string) =>
  ['data', ...readdirSync(join(root, 'results')).map((r) => join('results', r))]
    .flatMap((d) => readdirSync(join(root, d)).map((f) => statSync(join(root, d, f)).size))
    .reduce((a, b) => a + b, 0);

/** Everything the tree and the CLI show of a benchmark's runs, as plain data. */
function shown(bench: Benchmark) {
  return [...bench.runs.values()].map((run) => {
    const score = scoreRun(bench, run);
    const failed = failedRequests(bench, run, undefined, score);
    return {
      json: scoreJson([score]),
      failed: { failed: failed.failed, steps: failed.steps, avg: failed.avg },
      benchmarkRow: benchmarkDescription(run, score),
      platformRows: platformRows(bench, score).map((r) => [r.platform, r.users, r.steps, r.description]),
    };
  });
}

describe('early figures', () => {
  it("survive the trip to the extension host and show what the full open's tree shows, problems included", async () => {
    const root = copySample();
    const full = (await open(root, false)).bench;
    const figures = await loadBenchmark(root, { figuresOnly: true });
    // What crosses the thread: a structured clone, checked by the protocol's guard.
    const summary: unknown = structuredClone(summarizeFigures(figures));
    expect(isFiguresSummary(summary)).toBe(true);
    const early = benchFromSummary(summary as FiguresSummary);
    expect(full.diagnostics.length).toBeGreaterThanOrEqual(3);
    expect(early.diagnostics).toEqual(full.diagnostics);
    expect([...early.runs.keys()]).toEqual([...full.runs.keys()]);
    expect(shown(early)).toEqual(shown(full));
    // It keeps no users or rows: reading one is an error that says so, never an empty answer.
    expect(() => early.users.get('douban')!.get('anyone')).toThrow(/keeps no users' steps/);
    expect(() => early.runs.get('demo-llm')!.results.get('weibo')!.get('anyone')).toThrow(/keeps no rows/);
  });

  it('are refused by the guard when a figure is missing or a platform unknown', async () => {
    const summary = summarizeFigures(await loadBenchmark(copySample(), { figuresOnly: true }));
    const noRecall = structuredClone(summary);
    delete (noRecall.runs[0].files[0].figures.score.metrics as Partial<Record<string, number>>).Recall;
    expect(isFiguresSummary(noRecall)).toBe(false);
    const badPlatform = structuredClone(summary);
    (badPlatform.tasks[0] as { platform: string }).platform = 'myspace';
    expect(isFiguresSummary(badPlatform)).toBe(false);
    const full = (await open(copySample(), false)).bench;
    expect(() => summarizeFigures(full)).toThrow(/not from a figures-only load/);
  });

  it('are posted by the worker before the index on a large folder new to it, and not once the index knows it', async () => {
    const root = copySample();
    const cacheDir = join(root, INDEX_DIR);
    const bytes = firstReadBytes(discover(root), () => cacheDir)!;
    expect(bytes).toBe(fileBytes(root));
    // Below the size the job names, a folder is read once.
    const small: string[] = [];
    const job = (earlyFrom: number) => ({ target: root, cacheDir, earlyFrom });
    await coldLoadInWorker(
      script,
      job(bytes + 1),
      () => {},
      () => small.push('figures'),
    ).done;
    expect(small).toEqual([]);
    rmSync(cacheDir, { recursive: true });
    const events: string[] = [];
    const progress: [number, number][] = [];
    let posted: FiguresSummary | undefined;
    const first = coldLoadInWorker(
      script,
      job(bytes),
      (done, total) => progress.push([done, total]),
      (summary) => {
        posted = summary;
        events.push('figures');
      },
    );
    await first.done;
    events.push('done');
    expect(events).toEqual(['figures', 'done']);
    expect(shown(benchFromSummary(posted!))).toEqual(shown((await open(root, false)).bench));
    // Two reads, one bar: the bytes of both against twice the folder's, never going back.
    const total = progress[0][1];
    expect(progress.every(([, t]) => t === total)).toBe(true);
    expect(progress.at(-1)![0]).toBe(total);
    expect(progress.some(([d]) => d === total / 2)).toBe(true);
    expect(progress.map(([d]) => d)).toEqual(progress.map(([d]) => d).sort((a, b) => a - b));
    expect(firstReadBytes(discover(root), () => cacheDir)).toBeUndefined();
    const again: string[] = [];
    const load = () =>
      coldLoadInWorker(
        script,
        job(0),
        () => {},
        () => again.push('figures'),
      ).done;
    await load();
    expect(again).toEqual([]);
    // Once every tasks file has changed since the index was written, every file is read in full again: early.
    for (const f of readdirSync(join(root, 'data'))) appendFileSync(join(root, 'data', f), '\n');
    expect(firstReadBytes(discover(root), () => cacheDir)).toBe(fileBytes(root));
    await load();
    expect(again).toEqual(['figures']);
  });

  it("are posted before the worker loads node:crypto, which only the index needs (the figures' start)", async () => {
    const root = copySample();
    // The worker's bundle, required by a file that notes, with each message but progress, whether crypto is loaded.
    const wrapper = join(dirname(script), 'noting-crypto.cjs');
    writeFileSync(
      wrapper,
      `const { parentPort } = require('node:worker_threads');
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (m) =>
  post(m.type === 'progress' ? m : { ...m, crypto: process.moduleLoadList.includes('NativeModule crypto') });
require(${JSON.stringify(script)});
`,
    );
    const seen = await new Promise<string[]>((resolve, reject) => {
      const notes: string[] = [];
      const worker = new Worker(wrapper, {
        workerData: { target: root, cacheDir: join(root, INDEX_DIR), earlyFrom: 0 },
      });
      worker.on('error', reject);
      worker.on('message', (m: { type: string; crypto?: boolean; reason?: string }) => {
        if (m.type === 'progress') return;
        notes.push(`${m.type}: crypto ${m.crypto ? 'loaded' : 'not loaded'}${m.reason ? ` (${m.reason})` : ''}`);
        if (m.type !== 'figures') void worker.terminate().then(() => resolve(notes));
      });
    });
    expect(seen).toEqual(['figures: crypto not loaded', 'done: crypto loaded']);
  });

  it('show in the store while the open reads, for the selected run, and go once it has loaded', async () => {
    const root = copySample();
    const kept = new Map<string, unknown>([['personaLab.selectedRun', 'random']]);
    const state = { keys: () => [...kept.keys()], get: (k: string) => kept.get(k), update: async () => {} };
    const host: LoadHost = {
      progress: (_title, task) => task(() => {}),
      preferredRun: () => undefined,
      cacheDir: (r) => join(r, INDEX_DIR),
    };
    const s = new SpbStore(state as never, host, script, 0);
    const seen: (EarlyFigures | undefined)[] = [];
    s.onDidChangeEarly(() => seen.push(s.early));
    let earlyAtChange: EarlyFigures | undefined | null = null;
    s.onDidChange(() => (earlyAtChange = s.early));
    await s.open(root);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.run?.name).toBe('random');
    expect(seen[0]!.bench.root).toBe(s.bench!.root);
    expect(earlyAtChange).toBeUndefined();
    expect(s.early).toBeUndefined();
    expect(shown(seen[0]!.bench)).toEqual(shown(s.bench!));
    // A reload of the loaded folder keeps showing it: nothing early, even with its index gone.
    rmSync(join(root, INDEX_DIR), { recursive: true });
    await s.reload();
    expect(seen).toHaveLength(1);
  });
});
