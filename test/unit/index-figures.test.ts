// A warm `score` reads the index's figures pages only (issue #47 item 3), prints what a cold one prints, and falls
// back to the full load whenever a figures page does not check out against the files as they are now.
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/core/cache/codec';
import { indexKey, seal, unseal } from '../../src/core/cache/seal';
import { IndexCache, INDEX_DIR } from '../../src/core/cache/store';
import { encodeFigures, pageBytes, readFigures } from '../../src/core/spb/format/figuresPage';
import type { ScoreOutput } from '../../src/core/formats/descriptor';
import type { CacheReport } from '../../src/core/spb/format/indexed';
import { streamProfileBench } from '../../src/core/spb/format/format';
import { LazyResults } from '../../src/core/spb/format/lazyResults';
import { scoreRun } from '../../src/core/spb/score/run';
import type { Benchmark } from '../../src/core/spb/types';
import { loadView } from '../support/loadView';
import { cacheFiles, copySample, fileCount, open } from '../support/indexFolder';

const OUTPUTS: ScoreOutput[] = [{ kind: 'json' }, { kind: 'text' }, { kind: 'table', format: 'markdown' }];

/**
 * `score`'s stdout and the problems, as the CLI's job opens the folder (with the index, or --no-cache); with
 * `figuresOnly` false, as a load for every purpose (the extension's) opens it: the reference.
 */
async function score(root: string, cache: boolean, output: ScoreOutput = { kind: 'json' }, figuresOnly = true) {
  const report: CacheReport = { hits: 0, appended: 0, read: 0, pages: [] };
  const opts = cache ? { cacheDir: join(root, INDEX_DIR), cacheReport: report } : {};
  const { bench, opened } = await streamProfileBench.load(root, { ...opts, figuresOnly });
  const { text } = await opened.score({ output });
  return { text, diagnostics: opened.diagnostics, report, bench };
}

const kinds = (pages: readonly string[]) => [...new Set(pages.map((p) => p.slice(0, p.indexOf(':'))))].sort();

describe('figures pages', () => {
  it('a warm score reads one figures page per file, no rows, and prints what a cold score prints', async () => {
    const root = copySample();
    const n = fileCount(root);
    await open(root); // an open that writes the index, as the extension's: no figures pages
    expect(cacheFiles(root, 'spb-figures').length + cacheFiles(root, 'spb-totals').length).toBe(0);
    const first = await score(root, true); // reads the files' pages and writes their figures pages
    expect(first.report).toMatchObject({ hits: n, read: 0 });
    expect(cacheFiles(root, 'spb-figures').length + cacheFiles(root, 'spb-totals').length).toBe(n);
    for (const output of OUTPUTS) {
      const cold = await score(root, false, output, false);
      const warm = await score(root, true, output);
      expect(warm.text).toBe(cold.text);
      expect(warm.diagnostics).toEqual(cold.diagnostics);
      // A cold figures-only job (--no-cache) keeps each file's figures and none of its rows.
      const coldFigures = await score(root, false, output);
      expect(coldFigures.text).toBe(cold.text);
      expect(coldFigures.diagnostics).toEqual(cold.diagnostics);
      const rows = coldFigures.bench.runs.get('demo-llm')!.results.get('weibo')!;
      expect(() => rows.get('anyone')).toThrow(/keeps no rows/);
      expect(warm.report).toMatchObject({ hits: n, appended: 0, read: 0 });
      // The pages read: each file's figures (results) or totals (tasks) page once, and nothing else.
      expect(warm.report.pages).toHaveLength(n);
      expect(kinds(warm.report.pages!)).toEqual(['spb-figures', 'spb-totals']);
      const maps = [...warm.bench.runs.values()].flatMap((run) => [...run.results.values()]);
      expect(maps.every((m) => m instanceof LazyResults && m.isPending)).toBe(true);
    }
  });

  it('gives failed requests and the reading without them as a cold score does', async () => {
    const root = copySample();
    const file = join(root, 'results', 'demo-llm', 'inference_results_weibo.jsonl');
    const [first, ...rest] = readFileSync(file, 'utf8').split('\n');
    const row = JSON.parse(first.replace(/\bNaN\b/g, 'null')) as { steps: Record<string, unknown>[] };
    Object.assign(row.steps[0], { prediction: [], reasoning: 'Error: Connection error.', persona_summary: '' });
    writeFileSync(file, [JSON.stringify(row), ...rest].join('\n'));
    await score(root, true); // writes the index and its figures pages
    const cold = await score(root, false, { kind: 'json' }, false);
    const warm = await score(root, true);
    expect(kinds(warm.report.pages!)).toEqual(['spb-figures', 'spb-totals']);
    expect(warm.text).toBe(cold.text);
    expect((await score(root, false)).text).toBe(cold.text);
    const json = JSON.parse(warm.text) as { runs: { name: string; failedRequests: { failed: number } }[] };
    expect(json.runs.find((r) => r.name === 'demo-llm')?.failedRequests.failed).toBeGreaterThanOrEqual(1);
  });

  it('reads users and rows from their own pages when asked, equal to a cold open', async () => {
    const root = copySample();
    await score(root, true); // writes the index and its figures pages
    const warm = await score(root, true);
    const users = (b: Benchmark) => [...b.users.get('weibo')!.values()];
    expect(kinds(warm.report.pages!)).toEqual(['spb-figures', 'spb-totals']);
    const cold = await open(root, false);
    // Each run's per-user scores too (a view's), which the figures pages do not hold.
    for (const run of warm.bench.runs.values()) {
      const w = scoreRun(warm.bench, run);
      const c = scoreRun(cold.bench, cold.bench.runs.get(run.name)!);
      for (const [platform, p] of w.platforms)
        expect(new Map(p.userScores)).toEqual(c.platforms.get(platform)!.userScores);
    }
    expect(loadView(warm.bench)).toEqual(loadView(cold.bench));
    expect(users(warm.bench).length).toBeGreaterThan(0);
    expect(kinds(warm.report.pages!)).toEqual(['spb-figures', 'spb-results', 'spb-tasks', 'spb-totals']);
  });

  it('falls back to the full load when a figures page is missing, out of date or corrupt, then writes it', async () => {
    const root = copySample();
    const n = fileCount(root);
    await open(root);
    const expectCold = async () => {
      const warm = await score(root, true);
      expect(warm.text).toBe((await score(root, false, { kind: 'json' }, false)).text);
      return warm.report;
    };
    // An index written before figures pages existed: the job reads in full once and writes them.
    for (const f of [...cacheFiles(root, 'spb-figures'), ...cacheFiles(root, 'spb-totals')]) rmSync(f);
    expect(await expectCold()).toMatchObject({ hits: n, read: 0 });
    expect(cacheFiles(root, 'spb-figures').length + cacheFiles(root, 'spb-totals').length).toBe(n);
    expect(kinds((await expectCold()).pages!)).toEqual(['spb-figures', 'spb-totals']);

    // A results file edited: its figures are out of date and it is read again; the others still come from pages.
    const results = join(root, 'results', 'demo-llm', 'inference_results_weibo.jsonl');
    writeFileSync(results, readFileSync(results, 'utf8').replace('"Recall": 0.', '"Recall": 9.'));
    expect(await expectCold()).toMatchObject({ hits: n - 1, read: 1 });
    expect(kinds((await expectCold()).pages!)).toEqual(['spb-figures', 'spb-totals']);

    // A tasks file grown: its totals and every figures page computed against it are out of date.
    appendFileSync(join(root, 'data', 'weibo_inference_tasks.jsonl'), '{"user_id": 3}\n');
    expect((await expectCold()).read).toBeGreaterThan(1);
    expect(kinds((await expectCold()).pages!)).toEqual(['spb-figures', 'spb-totals']);

    // A page computed by other code (another build): not read, computed again.
    const [other] = cacheFiles(root, 'spb-figures');
    const key = indexKey() as Buffer;
    const header = decode(unseal(key, readFileSync(other))!)!.header as Parameters<typeof pageBytes>[0];
    const cache = new IndexCache(join(root, INDEX_DIR));
    const stored = readFigures(cache, header.rel, header.stamp, header.tasks!)!;
    writeFileSync(
      other,
      seal(
        key,
        pageBytes({ ...header, code: 'other' }, (enc) => encodeFigures(enc, stored.rows, stored.figures))!,
      ),
    );
    expect(kinds((await expectCold()).pages!)).toContain('spb-results');
    expect(kinds((await expectCold()).pages!)).toEqual(['spb-figures', 'spb-totals']);

    // A flipped bit in a figures page: its checksum fails, and the full load serves.
    const [page] = cacheFiles(root, 'spb-figures');
    const bytes = readFileSync(page);
    bytes[bytes.length - 3] ^= 0xff;
    writeFileSync(page, bytes);
    expect(kinds((await expectCold()).pages!)).toContain('spb-results');
    expect(kinds((await expectCold()).pages!)).toEqual(['spb-figures', 'spb-totals']);
  });
});
