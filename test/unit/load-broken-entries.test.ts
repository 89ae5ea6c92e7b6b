// One broken entry under results/ (a dangling link, a link loop, a folder where a file belongs, a
// file that cannot be opened) becomes a diagnostic naming it and why; every good run still loads and scores, on both
// benchmarks, in the core and through the CLI. Root reads every file, so "permission denied" is simulated: opening
// any path under a folder named `locked` fails with EACCES, as it would for a chmod 000 file.
import { spawnSync } from 'node:child_process';
import * as realFs from 'node:fs';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { chooseCacheDir } from '../../src/core/cache/store';
import type { Diagnostic } from '../../src/core/io/diagnostics';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { scoreOmniRun } from '../../src/core/omni/score';
import { writeBaselineRun } from '../../src/core/spb/baselines/baselines';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { scoreRun } from '../../src/core/spb/score/run';
import { writeTinyBench } from '../support/tinyBench';
import { video, writeOmniFolder } from './omni-folder';

const LOCKED = `${sep}locked${sep}`;
const denied = (path: unknown) =>
  Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), { code: 'EACCES' });

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof realFs>();
  const openSync = (...args: Parameters<typeof fs.openSync>) => {
    if (String(args[0]).includes(LOCKED)) throw denied(args[0]);
    return fs.openSync(...args);
  };
  return { ...fs, default: { ...fs, openSync }, openSync };
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const fsp = await importOriginal<typeof import('node:fs/promises')>();
  const open = (...args: Parameters<typeof fsp.open>) =>
    String(args[0]).includes(LOCKED) ? Promise.reject(denied(args[0])) : fsp.open(...args);
  return { ...fsp, default: { ...fsp, open }, open };
});

const CLI = join(resolve(__dirname, '../..'), 'dist/cli.js');

function problem(diagnostics: readonly Diagnostic[], file: string): string {
  const found = diagnostics.filter((d) => d.file === file);
  expect(found, `one diagnostic for ${file} in ${JSON.stringify(diagnostics)}`).toHaveLength(1);
  expect(found[0].severity).toBe('error');
  return found[0].message;
}

/** Adds the broken entries under `results/` (names relative to it) next to the good runs. */
function breakResults(root: string, resultFile: string, goodRun: string): void {
  const results = join(root, 'results');
  symlinkSync(join(root, 'nowhere'), join(results, 'dangling'));
  symlinkSync(join(results, 'loop'), join(results, 'loop'));
  mkdirSync(join(results, 'dir-file', resultFile), { recursive: true });
  mkdirSync(join(results, 'locked'));
  copyFileSync(join(results, goodRun, resultFile), join(results, 'locked', resultFile));
}

describe('StreamProfileBench: broken entries under results/', () => {
  let clean: string;
  let broken: string;
  beforeAll(async () => {
    clean = writeTinyBench({}, 'pl-broken-');
    await writeBaselineRun(await loadBenchmark(clean), 'random', 'good');
    broken = mkdtempSync(join(tmpdir(), 'pl-broken-'));
    cpSync(clean, broken, { recursive: true });
    breakResults(broken, 'inference_results_weibo.jsonl', 'good');
    // A run with one good and one dangling results file keeps its good platform.
    mkdirSync(join(broken, 'results', 'half'));
    copyFileSync(
      join(broken, 'results', 'good', 'inference_results_xiaohongshu.jsonl'),
      join(broken, 'results', 'half', 'inference_results_xiaohongshu.jsonl'),
    );
    symlinkSync(join(broken, 'gone.jsonl'), join(broken, 'results', 'half', 'inference_results_weibo.jsonl'));
  });

  it.each([
    ['without the index', false],
    ['through the index', true],
  ])('the good runs load and score %s; each bad entry is one located diagnostic', async (_, indexed) => {
    const cacheDir = indexed ? (root: string) => chooseCacheDir(root) : undefined;
    const bench = await loadBenchmark(broken, { cacheDir });
    const want = await loadBenchmark(clean);
    expect([...bench.runs.keys()].sort()).toEqual(['good', 'half']);
    const good = bench.runs.get('good');
    const wantGood = want.runs.get('good');
    if (!good || !wantGood) throw new Error('fixture');
    expect(scoreRun(bench, good)).toEqual(scoreRun(want, wantGood));
    expect([...(bench.runs.get('half')?.files.keys() ?? [])]).toEqual(['xiaohongshu']);

    expect(problem(bench.diagnostics, 'results/dangling')).toMatch(/^dangling symbolic link \(points to .*nowhere/);
    expect(problem(bench.diagnostics, 'results/loop')).toMatch(/^symbolic link loop/);
    expect(problem(bench.diagnostics, 'results/dir-file/inference_results_weibo.jsonl')).toMatch(
      /^a folder where a file is expected; skipped/,
    );
    expect(problem(bench.diagnostics, 'results/locked/inference_results_weibo.jsonl')).toMatch(/^permission denied/);
    expect(problem(bench.diagnostics, 'results/half/inference_results_weibo.jsonl')).toMatch(/dangling symbolic link/);
    // The clean folder's own warnings, and nothing else.
    expect(bench.diagnostics.filter((d) => d.severity !== 'error')).toEqual(want.diagnostics);
    expect(bench.diagnostics).toHaveLength(want.diagnostics.length + 5);
  });

  it('score --json scores the good runs and validate --json names each bad entry (the CLI)', () => {
    // The CLI runs in its own process, unmocked: its broken entries are the link and folder kinds.
    const r = spawnSync(process.execPath, [CLI, 'score', broken, '--json', '--no-cache'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(1);
    const runs = (JSON.parse(r.stdout) as { runs: { name: string }[] }).runs.map((run) => run.name);
    expect(runs).toEqual(['good', 'half', 'locked']);
    const v = spawnSync(process.execPath, [CLI, 'validate', broken, '--json', '--no-cache'], { encoding: 'utf8' });
    const { diagnostics } = JSON.parse(v.stdout) as { diagnostics: Diagnostic[] };
    expect(problem(diagnostics, 'results/dangling')).toContain('dangling symbolic link');
    expect(problem(diagnostics, 'results/loop')).toContain('symbolic link loop');
    expect(problem(diagnostics, 'results/dir-file/inference_results_weibo.jsonl')).toContain('a folder where a file');
  });
});

describe('OmniBehavior: broken entries under results/ and raw/', () => {
  const prediction = { user_id: 'u1', index: 1, questions: [] as unknown[] };
  prediction.questions.push({
    type: 'binary',
    field: 'video_liked',
    true_value: 1,
    predicted_value: 0.9,
    predicted_label: 1,
    raw_output: 'Yes',
  });
  const spec = {
    users: [
      {
        id: 'u1',
        profile: 'p',
        records: [
          video('2025-03-01 10:00:00', { caption: 'cats' }),
          video('2025-03-01 11:00:00', { caption: 'dogs' }, [{ type: 'watch', play_duration: 3 }, { type: 'like' }]),
        ],
      },
    ],
    tests: [{ user_id: 'u1', index: 1, fields: ['video_liked'] }],
    runs: { good: [prediction] },
  };

  it('the good run loads and scores; each bad entry is one located diagnostic', async () => {
    const clean = writeOmniFolder(spec);
    const root = writeOmniFolder(spec);
    breakResults(root, 'predictions.jsonl', 'good');
    symlinkSync(join(root, 'nowhere.json'), join(root, 'raw', 'ghost.json'));
    const bench = await loadOmniBenchmark(root);
    const want = await loadOmniBenchmark(clean);
    expect([...bench.runs.keys()]).toEqual(['good']);
    const [run, wantRun] = [bench.runs.get('good'), want.runs.get('good')];
    if (!run || !wantRun) throw new Error('fixture');
    expect(run.predictions.size).toBe(1);
    expect(scoreOmniRun(bench, run)).toEqual(scoreOmniRun(want, wantRun));

    expect(problem(bench.diagnostics, 'raw/ghost.json')).toMatch(/^dangling symbolic link/);
    expect(problem(bench.diagnostics, 'results/dangling')).toMatch(/^dangling symbolic link/);
    expect(problem(bench.diagnostics, 'results/loop')).toMatch(/^symbolic link loop/);
    expect(problem(bench.diagnostics, 'results/dir-file/predictions.jsonl')).toMatch(/^a folder where a file/);
    expect(problem(bench.diagnostics, 'results/locked/predictions.jsonl')).toMatch(/^permission denied/);
    // The clean folder's own warnings, and nothing else.
    expect(bench.diagnostics.filter((d) => d.severity !== 'error')).toEqual(want.diagnostics);
    expect(bench.diagnostics).toHaveLength(want.diagnostics.length + 5);
  });
});
