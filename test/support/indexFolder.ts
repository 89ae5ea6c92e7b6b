// A copy of the sample with problems of every kind a file can carry, and opens of it with and without the persistent
// index, for the index's tests.
import { appendFileSync, cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INDEX_DIR } from '../../src/core/cache/store';
import type { CacheReport } from '../../src/core/spb/format/indexed';
import { loadBenchmark } from '../../src/core/spb/format/load';
import type { Benchmark } from '../../src/core/spb/types';
import { SAMPLE } from './committedSample';

export function copySample(): string {
  const root = mkdtempSync(join(tmpdir(), 'pl-index-'));
  cpSync(join(SAMPLE, 'data'), join(root, 'data'), { recursive: true });
  cpSync(join(SAMPLE, 'results'), join(root, 'results'), { recursive: true });
  // Problems of every kind a file can carry, so that the diagnostics travel through the cache too.
  appendFileSync(join(root, 'data', 'douban_inference_tasks.jsonl'), 'not json\n{"user_id": "x"}\n');
  appendFileSync(
    join(root, 'results', 'random', 'inference_results_douban.jsonl'),
    '{"user_id": "nobody", "steps": []}\n',
  );
  return root;
}

/** The tasks and results files of a folder. */
export const fileCount = (root: string) =>
  readdirSync(join(root, 'data')).length +
  readdirSync(join(root, 'results')).reduce((n, run) => n + readdirSync(join(root, 'results', run)).length, 0);

export async function open(root: string, cache = true): Promise<{ bench: Benchmark; report: CacheReport }> {
  const report: CacheReport = { hits: 0, appended: 0, read: 0 };
  const bench = await loadBenchmark(root, cache ? { cacheDir: join(root, INDEX_DIR), cacheReport: report } : {});
  return { bench, report };
}

/** The index's page files of one kind (`spb-tasks`, `spb-results`, `spb-figures`, `spb-totals`), or all. */
export const cacheFiles = (root: string, kind = '') =>
  readdirSync(join(root, INDEX_DIR))
    .filter((f) => f.endsWith('.plx') && (kind === '' || f.startsWith(`${kind}-`)))
    .map((f) => join(root, INDEX_DIR, f));
