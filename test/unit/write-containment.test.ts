// No write leaves the folder it belongs to. A symbolic link that points out (an eval report, the
// .personalab/ folder, a run folder) is refused with a message naming the link and its target, and the outside
// file or folder is left as it was; a normal write lands and leaves no temporary file behind.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  realpathSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseCacheDir } from '../../src/core/cache/store';
import { drawSample } from '../../src/core/spb/experiments/sample';
import { writeSample } from '../../src/core/experiments/sampleFile';
import { newSample } from '../../src/core/spb/experiments/sampleFile';
import { resolveInside } from '../../src/core/io/safeFs';
import { LabelStore } from '../../src/core/labels/store';
import { RunHistory } from '../../src/core/spb/run/history';
import { runBenchmark } from '../../src/core/spb/run/runner';
import { JOURNAL_FILE } from '../../src/core/runner/runFolder';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { writeBaselineRun } from '../../src/core/spb/baselines/baselines';
import { loadBenchmark } from '../../src/core/spb/format/load';
import type { CacheReport } from '../../src/core/spb/format/indexed';
import { writeTinyBench } from '../support/tinyBench';

const CLI = join(resolve(__dirname, '../..'), 'dist/cli.js');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
const outsideDir = () => mkdtempSync(join(tmpdir(), 'pl-outside-'));
const temps = (dir: string) => readdirSync(dir).filter((name) => name.includes('tmp'));

describe('writes that would leave the benchmark folder are refused', () => {
  let root: string;
  beforeAll(async () => {
    root = writeTinyBench({}, 'pl-contain-');
    await writeBaselineRun(await loadBenchmark(root), 'random', 'good');
  });

  it('score --write-reports: a report linked outside is refused and left alone; the other report is written', () => {
    const outside = join(outsideDir(), 'report.txt');
    writeFileSync(outside, 'not yours\n');
    const link = join(root, 'results', 'good', 'eval_report_weibo.txt');
    symlinkSync(outside, link);
    // A link that stays inside the benchmark is written through, and stays a link.
    mkdirSync(join(root, 'reports'));
    symlinkSync(join(root, 'reports', 'xhs.txt'), join(root, 'results', 'good', 'eval_report_xiaohongshu.txt'));
    const r = cli('score', root, '--json', '--write-reports', '--no-cache');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`refusing to write ${link}: ${link} is a symbolic link to ${outside}, outside ${root}`);
    expect(readFileSync(outside, 'utf8')).toBe('not yours\n');
    expect((JSON.parse(r.stdout) as { runs: unknown[] }).runs).toHaveLength(1);
    expect(readFileSync(join(root, 'reports', 'xhs.txt'), 'utf8')).toContain('Recall');
    expect(lstatSync(join(root, 'results', 'good', 'eval_report_xiaohongshu.txt')).isSymbolicLink()).toBe(true);
    expect(temps(join(root, 'results', 'good'))).toEqual([]);
  });

  it('baseline --out into a run folder linked outside is refused; a plain one is written', () => {
    const outside = outsideDir();
    const link = join(root, 'results', 'linked');
    symlinkSync(outside, link);
    const r = cli('baseline', root, '--method', 'random', '--out', 'linked', '--no-cache');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${link} is a symbolic link to ${outside}, outside ${root}`);
    expect(readdirSync(outside)).toEqual([]);

    const ok = cli('baseline', root, '--method', 'random', '--out', 'plain', '--no-cache');
    expect(ok.status, ok.stderr).toBe(0);
    expect(readdirSync(join(root, 'results', 'plain')).sort()).toEqual([
      'inference_results_weibo.jsonl',
      'inference_results_xiaohongshu.jsonl',
    ]);
  });
});

describe('a run into a run folder linked outside', () => {
  it('fails before anything is written there', async () => {
    const root = writeTinyBench({}, 'pl-contain-');
    const outside = outsideDir();
    const link = join(root, 'results', 'linked');
    mkdirSync(join(root, 'results'));
    symlinkSync(outside, link);
    const summary = await runBenchmark({
      bench: await loadBenchmark(root),
      name: 'linked',
      template: DEFAULT_TEMPLATE,
      // Nothing listens there: the run must stop before its first request.
      endpoint: { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', timeoutMs: 200 },
      retry: { attempts: 1, baseMs: 1, maxMs: 1, sleep: async () => {} },
    });
    expect(summary.status).toBe('failed');
    expect(summary.error).toContain(`${link} is a symbolic link to ${outside}, outside ${root}`);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('a run whose journal was replaced by a link out of its run folder', () => {
  it('fails before it appends to the linked file', async () => {
    const root = writeTinyBench({}, 'pl-contain-');
    const outside = outsideDir();
    const target = join(outside, 'victim.txt');
    writeFileSync(target, 'untouched\n');
    const run = async () =>
      runBenchmark({
        bench: await loadBenchmark(root),
        name: 'journal-link',
        template: DEFAULT_TEMPLATE,
        // Nothing listens there: every step fails at once, and the second run resumes the first.
        endpoint: { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', timeoutMs: 200 },
        retry: { attempts: 1, baseMs: 1, maxMs: 1, sleep: async () => {} },
      });
    await run();
    const journal = join(root, 'results', 'journal-link', JOURNAL_FILE);
    expect(lstatSync(journal).isFile()).toBe(true);
    rmSync(journal);
    symlinkSync(target, journal);
    const summary = await run();
    expect(summary.status).toBe('failed');
    expect(summary.error).toContain(`${journal} is a symbolic link to ${target}, outside ${root}`);
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
  });
});

describe('.personalab/ linked outside the benchmark', () => {
  it('the index is not written through it (the load still works); a plain .personalab/ gets its index', async () => {
    const linked = writeTinyBench({}, 'pl-contain-');
    const outside = outsideDir();
    symlinkSync(outside, join(linked, '.personalab'));
    const report: CacheReport = { hits: 0, appended: 0, read: 0 };
    const bench = await loadBenchmark(linked, { cacheDir: (r) => chooseCacheDir(r), cacheReport: report });
    expect(bench.users.get('weibo')?.size).toBe(3);
    expect(readdirSync(outside)).toEqual([]);
    expect(report.writeError).toContain(`${join(linked, '.personalab')} is a symbolic link to ${outside}`);

    const plain = writeTinyBench({}, 'pl-contain-');
    const fine: CacheReport = { hits: 0, appended: 0, read: 0 };
    await loadBenchmark(plain, { cacheDir: (r) => chooseCacheDir(r), cacheReport: fine });
    expect(fine.writeError).toBeUndefined();
    const index = readdirSync(join(plain, '.personalab', 'index'));
    expect(index.filter((n) => n.endsWith('.plx'))).toHaveLength(2);
    expect(temps(join(plain, '.personalab', 'index'))).toEqual([]);
  });

  it('a sample file is not written through it', async () => {
    const linked = writeTinyBench({}, 'pl-contain-');
    const outside = outsideDir();
    symlinkSync(outside, join(linked, '.personalab'));
    const bench = await loadBenchmark(linked);
    const sample = newSample(bench, 's1', drawSample(bench, { users: 2, seed: 1 }));
    expect(() => writeSample(linked, sample)).toThrow(
      `${join(linked, '.personalab')} is a symbolic link to ${outside}`,
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a label database is not created through it', () => {
    const linked = writeTinyBench({}, 'pl-contain-');
    const outside = outsideDir();
    symlinkSync(outside, join(linked, '.personalab'));
    expect(() => LabelStore.open(join(linked, '.personalab', 'labels.db'))).toThrow(
      `${join(linked, '.personalab')} is a symbolic link to ${outside}, outside ${linked}`,
    );
    expect(readdirSync(outside)).toEqual([]);
  });
  it('a re-run history database is not created through it', () => {
    const linked = writeTinyBench({}, 'pl-contain-');
    const outside = outsideDir();
    symlinkSync(outside, join(linked, '.personalab'));
    expect(() => RunHistory.open(join(linked, '.personalab', 'history.db'))).toThrow(
      `${join(linked, '.personalab')} is a symbolic link to ${outside}, outside ${linked}`,
    );
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('a folder named relative to the working folder', () => {
  it('gets its sample file inside it, not inside a copy of its own name', () => {
    const root = writeTinyBench({}, 'pl-contain-rel-');
    const [parent, name] = [dirname(root), basename(root)];
    const inParent = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, ...args], { cwd: parent, encoding: 'utf8' });
    const sampled = inParent('sample', name, '--users', '1', '--out', 'rel');
    expect(sampled.status, sampled.stderr).toBe(0);
    expect(existsSync(join(root, '.personalab', 'samples', 'rel.json'))).toBe(true);
    expect(existsSync(join(root, name))).toBe(false);
  });
});

describe('template init', () => {
  it('refuses a dangling link that would create the template outside its folder; the default name is written', () => {
    const cwd = outsideDir();
    const away = join(outsideDir(), 'later.plprompt');
    symlinkSync(away, join(cwd, 'linked.plprompt'));
    const r = spawnSync(process.execPath, [CLI, 'template', 'init', 'linked.plprompt'], { cwd, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${join(cwd, 'linked.plprompt')} is a symbolic link to ${away}, outside ${cwd}`);
    expect(readdirSync(resolve(away, '..'))).toEqual([]);

    const ok = spawnSync(process.execPath, [CLI, 'template', 'init'], { cwd, encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(readdirSync(cwd).sort()).toEqual(['linked.plprompt', 'my-template.plprompt']);
  });
});

describe('the refusal names the link that leads out', () => {
  it('not a link on the way that stays inside', () => {
    const root = outsideDir();
    const outside = outsideDir();
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    symlinkSync(outside, join(root, 'real', 'away'));
    expect(() => resolveInside(root, join(root, 'alias', 'away', 'x.txt'))).toThrow(
      `${join(root, 'alias', 'away')} is a symbolic link to ${outside}, outside ${root}`,
    );
    expect(resolveInside(root, join(root, 'alias', 'x.txt'))).toBe(join(realpathSync(root), 'real', 'x.txt'));
  });
});
