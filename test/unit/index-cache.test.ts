// The persistent index: a warm open gives exactly what a cold open gives (users, results, diagnostics, scores), on
// the sample, on a generated paper-scale folder, and after each kind of change to the files or to the cache.
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEC_VERSION } from '../../src/core/cache/codec';
import { INDEX_DIR } from '../../src/core/cache/store';
import type { CacheReport } from '../../src/core/spb/format/indexed';
import { LazyResults } from '../../src/core/spb/format/lazyResults';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { streamProfileBench } from '../../src/core/spb/format/format';
import { failedRequests } from '../../src/core/spb/score/failedRequests';
import { scoreRun } from '../../src/core/spb/score/run';
import type { Benchmark } from '../../src/core/spb/types';
import { loadView } from '../support/loadView';
import { cacheFiles, copySample, fileCount, open } from '../support/indexFolder';

async function expectSameAsCold(root: string): Promise<CacheReport> {
  const warm = await open(root);
  const cold = await open(root, false);
  expect(loadView(warm.bench)).toEqual(loadView(cold.bench));
  return warm.report;
}

describe('persistent index', () => {
  it('warm opens of the sample read only the cache and equal a cold open', async () => {
    const root = copySample();
    const n = fileCount(root);
    const first = await open(root);
    expect(first.report).toEqual({ hits: 0, appended: 0, read: n });
    expect(first.bench.diagnostics.length).toBeGreaterThanOrEqual(3);
    // Each file's own page; figures pages are a figures-only job's (index-figures.test.ts).
    expect(cacheFiles(root, 'spb-tasks').length + cacheFiles(root, 'spb-results').length).toBe(n);
    expect(cacheFiles(root)).toHaveLength(n);
    expect(readFileSync(join(root, INDEX_DIR, '.gitignore'), 'utf8')).toBe('*\n');
    const warm = await expectSameAsCold(root);
    expect(warm).toEqual({ hits: n, appended: 0, read: 0 });
    // Scoring a warm open reads the index's pick tables only: no results row is built until a view asks for one.
    const again = await open(root);
    for (const run of again.bench.runs.values()) scoreRun(again.bench, run);
    const maps = [...again.bench.runs.values()].flatMap((run) => [...run.results.values()]);
    expect(maps.length).toBeGreaterThan(0);
    expect(maps.every((m) => m instanceof LazyResults && m.isPending)).toBe(true);
    const user = [...again.bench.users.get('weibo')!.values()][0];
    expect(again.bench.runs.get('demo-llm')!.results.get('weibo')!.get(user.userId)?.steps.size).toBeGreaterThan(0);
  });

  it('writes nothing during an open whose writes are deferred, and everything once they run', async () => {
    const root = copySample();
    const n = fileCount(root);
    const writes: (() => void)[] = [];
    const report: CacheReport = { hits: 0, appended: 0, read: 0 };
    const cacheDir = join(root, INDEX_DIR);
    await loadBenchmark(root, { cacheDir, cacheReport: report, deferIndexWrites: (w) => writes.push(w) });
    expect(report.read).toBe(n);
    expect(writes).toHaveLength(n);
    expect(() => cacheFiles(root)).toThrow(); // no index folder yet
    writes.forEach((w) => w());
    expect(await expectSameAsCold(root)).toEqual({ hits: n, appended: 0, read: 0 });
  });

  it('re-reads an edited file alone, and a results file that grew only from its old end', async () => {
    const root = copySample();
    const n = fileCount(root);
    await open(root);
    const results = join(root, 'results', 'demo-llm', 'inference_results_weibo.jsonl');
    const lines = readFileSync(results, 'utf8').trimEnd().split('\n');

    // Append: a run still writing. One row moves to the end; the old end stays where it was.
    writeFileSync(results, lines.slice(0, -1).join('\n') + '\n');
    await open(root);
    appendFileSync(results, lines[lines.length - 1] + '\n');
    expect(await expectSameAsCold(root)).toEqual({ hits: n - 1, appended: 1, read: 0 });
    // A duplicate row appended is reported as a cold read reports it.
    appendFileSync(results, lines[0] + '\n');
    expect(await expectSameAsCold(root)).toEqual({ hits: n - 1, appended: 1, read: 0 });

    // Edit in the middle, same length: mtime and fingerprint decide.
    const edited = readFileSync(results, 'utf8').replace('"Recall": 0.', '"Recall": 9.');
    writeFileSync(results, edited);
    expect(await expectSameAsCold(root)).toEqual({ hits: n - 1, appended: 0, read: 1 });

    // A changed tasks file invalidates its results too: they were checked against the old splits.
    const tasks = join(root, 'data', 'weibo_inference_tasks.jsonl');
    appendFileSync(tasks, '{"user_id": 3}\n');
    const runs = readdirSync(join(root, 'results')).filter((r) =>
      readdirSync(join(root, 'results', r)).includes('inference_results_weibo.jsonl'),
    ).length;
    expect(await expectSameAsCold(root)).toEqual({ hits: n - 1 - runs, appended: 0, read: 1 + runs });

    // Delete a results file: the cache of the others still serves.
    rmSync(results);
    expect(await expectSameAsCold(root)).toEqual({ hits: n - 1, appended: 0, read: 0 });
  });

  it('re-reads a file edited in the middle with its size and mtime kept (rsync -t, touch -r)', async () => {
    const root = copySample();
    const n = fileCount(root);
    await open(root);
    // Over 128 KiB, so the edit is outside the fingerprint's first and last 64 KiB.
    const tasks = join(root, 'data', 'zhihu_inference_tasks.jsonl');
    const before = statSync(tasks);
    expect(before.size).toBeGreaterThan(2 << 16);
    const edited = readFileSync(tasks);
    // one ASCII letter between the first and the last 64 KiB becomes another: the size stays
    let at = (1 << 16) + 16;
    while (at < before.size - (1 << 16) && !(edited[at] >= 0x61 && edited[at] < 0x7a)) at++;
    expect(at).toBeLessThan(before.size - (1 << 16));
    edited[at] += 1;
    // touch -r keeps the time to the nanosecond, as rsync -t does (Node's utimes rounds it)
    const ref = join(root, 'mtime-ref');
    execFileSync('touch', ['-r', tasks, ref]);
    writeFileSync(tasks, edited);
    execFileSync('touch', ['-r', ref, tasks]);
    expect(statSync(tasks).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(tasks).size).toBe(before.size);
    const report = await expectSameAsCold(root);
    expect(report.read).toBeGreaterThanOrEqual(1);
    expect(report.hits).toBeLessThan(n);
  });

  it('ignores and rebuilds a corrupt, truncated, foreign or older-version cache', async () => {
    const root = copySample();
    const n = fileCount(root);
    await open(root);
    const [a, b, c, d] = [...cacheFiles(root, 'spb-results'), ...cacheFiles(root, 'spb-tasks')];
    const bytes = readFileSync(a);
    bytes[bytes.length - 3] ^= 0xff; // one flipped bit in the numbers
    writeFileSync(a, bytes);
    truncateSync(b, 100);
    const old = readFileSync(c);
    old.writeUInt32LE(CODEC_VERSION - 1, 4);
    writeFileSync(c, old);
    writeFileSync(d, 'not a cache');
    expect(await expectSameAsCold(root)).toEqual({ hits: n - 4, appended: 0, read: 4 });
    expect(await expectSameAsCold(root)).toEqual({ hits: n, appended: 0, read: 0 });
  });

  it('counts failed requests warm without building rows, where the empty steps are no error records', async () => {
    const root = copySample();
    const plant = (run: string, platform: string, reasoning: string) => {
      const file = join(root, 'results', run, `inference_results_${platform}.jsonl`);
      const [first, ...rest] = readFileSync(file, 'utf8').split('\n');
      const row = JSON.parse(first.replace(/\bNaN\b/g, 'null')) as { steps: Record<string, unknown>[] };
      Object.assign(row.steps[0], { prediction: [], reasoning, persona_summary: '' });
      writeFileSync(file, [JSON.stringify(row), ...rest].join('\n'));
    };
    plant('demo-llm', 'weibo', 'Error: Connection error.');
    plant('random', 'zhihu', 'nothing fitted'); // empty, and no error record
    const figures = (bench: Benchmark) =>
      [...bench.runs.values()].map((run) => ({ name: run.name, ...failedRequests(bench, run) }));
    const cold = figures((await open(root, false)).bench);
    await open(root); // writes the index
    const warm = await open(root);
    expect(figures(warm.bench)).toEqual(cold);
    const failed = Object.fromEntries(cold.map((f) => [f.name, f.failed]));
    expect(failed.random).toBe(0);
    expect(failed['demo-llm']).toBeGreaterThanOrEqual(1);
    const pending = (run: string) =>
      [...warm.bench.runs.get(run)!.results.values()].every((m) => m instanceof LazyResults && m.isPending);
    expect(pending('random')).toBe(true); // its empty step was told apart by the index
    expect(pending('demo-llm')).toBe(false); // an error record: the rows are read for the excluding reading
  });

  it('gives a paper-scale folder the same figures and problems warm as cold', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-index-paper-'));
    execFileSync(process.execPath, ['scripts/gen-sample.mjs', '--scale', 'paper', '--out', root], { stdio: 'ignore' });
    const n = fileCount(root);
    const cold = await open(root);
    expect(cold.report.read).toBe(n);
    const warm = await open(root);
    expect(warm.report).toEqual({ hits: n, appended: 0, read: 0 });
    expect(loadView(warm.bench)).toEqual(loadView(cold.bench));
    // A warm `score` from the figures pages alone, and a cold one folding each row as read, print what a load for
    // every purpose prints (index-figures.test.ts on the sample).
    const scoreJson = async (figuresOnly: boolean, cacheDir?: string, report?: CacheReport) => {
      const { opened } = await streamProfileBench.load(root, { figuresOnly, cacheDir, cacheReport: report });
      return (await opened.score({ output: { kind: 'json' } })).text;
    };
    const reference = await scoreJson(false);
    expect(await scoreJson(true)).toBe(reference);
    // The first figures-only job reads the index files and writes the figures pages; the next reads those alone.
    expect(await scoreJson(true, join(root, INDEX_DIR))).toBe(reference);
    const pages: string[] = [];
    expect(await scoreJson(true, join(root, INDEX_DIR), { hits: 0, appended: 0, read: 0, pages })).toBe(reference);
    expect(pages.every((p) => p.startsWith('spb-figures:') || p.startsWith('spb-totals:'))).toBe(true);
    expect(pages).toHaveLength(n);
  }, 120_000);
});
