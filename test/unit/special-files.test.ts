// Only regular files inside the folder are read. A results file linked to /dev/zero (which never ends), a FIFO
// (which blocks a read until someone writes), or a link out of the folder (which would quote another file's lines in
// diagnostics) each become one located diagnostic, in the core and through the CLI; nothing hangs, nothing grows.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/io/diagnostics';
import { readLines } from '../../src/core/io/jsonl';
import { probeFile, readRegularFile, UnreadableFile } from '../../src/core/io/safeFs';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { writeBaselineRun } from '../../src/core/spb/baselines/baselines';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { writeTinyBench } from '../support/tinyBench';
import { video, writeOmniFolder } from './omni-folder';

const CLI = join(resolve(__dirname, '../..'), 'dist/cli.js');
const MARKER = 'PL-MARKER-7f3c-never-quoted';

const mkfifo = (path: string) => {
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo ${path}: ${r.stderr}`);
};

/** Runs the CLI to its end; a generous kill timer only catches a hang, the test asserts it was not needed. */
function runCli(args: string[]): Promise<{ code: number | null; killed: boolean; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, killed, out });
    });
  });
}

const one = (diagnostics: readonly Diagnostic[], file: string): string => {
  const found = diagnostics.filter((d) => d.file === file);
  expect(found, `one diagnostic for ${file} in ${JSON.stringify(diagnostics)}`).toHaveLength(1);
  return found[0].message;
};

describe('the one open path', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'pl-special-'));
    mkfifo(join(dir, 'fifo'));
    writeFileSync(join(dir, 'plain.txt'), 'hello\n');
    symlinkSync('/dev/zero', join(dir, 'zero'));
    mkdirSync(join(dir, 'inner'));
    symlinkSync(join(dir, 'plain.txt'), join(dir, 'inner', 'back'));
  });

  it('refuses a FIFO, a device and a folder, and reads a regular file', async () => {
    expect(() => readRegularFile(join(dir, 'fifo'))).toThrow(/FIFO/);
    expect(() => readRegularFile(join(dir, 'zero'))).toThrow(/a device/);
    expect(() => readRegularFile(join(dir, 'inner'))).toThrow(UnreadableFile);
    await expect(readLines(join(dir, 'fifo'), () => undefined)).rejects.toThrow(/FIFO/);
    expect(readRegularFile(join(dir, 'plain.txt')).toString()).toBe('hello\n');
  });

  it('follows a link only when it stays inside the folder it is read for', () => {
    expect(probeFile(join(dir, 'inner', 'back'), dir)).toMatchObject({ ok: true, size: 6 });
    const out = probeFile(join(dir, 'inner', 'back'), join(dir, 'inner'));
    expect(out).toMatchObject({ ok: false, code: 'EOUTSIDE' });
    if (!out.ok) expect(out.reason).toMatch(/symbolic link to .*plain\.txt, outside the folder; not read/);
  });
});

describe('StreamProfileBench: special results files', () => {
  let root: string;
  beforeAll(async () => {
    root = writeTinyBench({}, 'pl-special-spb-');
    await writeBaselineRun(await loadBenchmark(root), 'random', 'good');
    const results = join(root, 'results');
    mkdirSync(join(results, 'zero'));
    symlinkSync('/dev/zero', join(results, 'zero', 'inference_results_weibo.jsonl'));
    mkdirSync(join(results, 'fifo'));
    mkfifo(join(results, 'fifo', 'inference_results_weibo.jsonl'));
    const outside = mkdtempSync(join(tmpdir(), 'pl-outside-'));
    writeFileSync(join(outside, 'secret.jsonl'), `${MARKER}\n{"${MARKER}": 1}\n`);
    mkdirSync(join(results, 'out'));
    symlinkSync(join(outside, 'secret.jsonl'), join(results, 'out', 'inference_results_weibo.jsonl'));
  });

  it('loads the good run; each special entry is one located diagnostic (the core)', async () => {
    const bench = await loadBenchmark(root);
    expect(bench.runs.get('good')?.files.size).toBe(2);
    expect(one(bench.diagnostics, 'results/zero/inference_results_weibo.jsonl')).toMatch(
      /symbolic link to \/dev\/zero, outside the folder; not read/,
    );
    expect(one(bench.diagnostics, 'results/fifo/inference_results_weibo.jsonl')).toMatch(/FIFO/);
    expect(one(bench.diagnostics, 'results/out/inference_results_weibo.jsonl')).toMatch(/outside the folder/);
    expect(JSON.stringify(bench.diagnostics)).not.toContain(MARKER);
  });

  it.each([['validate'], ['score']])(
    '%s ends by itself with the diagnostics and never quotes the marker',
    async (cmd) => {
      const r = await runCli([cmd, root, '--json', '--no-cache']);
      expect(r.killed).toBe(false);
      expect(r.out).not.toContain(MARKER);
      if (cmd === 'validate') {
        const { diagnostics } = JSON.parse(r.out.slice(r.out.indexOf('{'))) as { diagnostics: Diagnostic[] };
        expect(one(diagnostics, 'results/zero/inference_results_weibo.jsonl')).toMatch(/\/dev\/zero, outside/);
        expect(one(diagnostics, 'results/fifo/inference_results_weibo.jsonl')).toMatch(/FIFO/);
        expect(one(diagnostics, 'results/out/inference_results_weibo.jsonl')).toMatch(/outside the folder/);
      } else expect(r.out).toContain('"good"');
    },
  );
});

describe('OmniBehavior: special predictions and raw files', () => {
  it('a FIFO raw file and predictions linked to /dev/zero are diagnostics; the rest loads', async () => {
    const root = writeOmniFolder({
      users: [{ id: 'u1', profile: 'p', records: [video('2025-03-01 10:00:00', { caption: 'cats' })] }],
      tests: [{ user_id: 'u1', index: 0, fields: ['video_liked'] }],
    });
    mkfifo(join(root, 'raw', 'u2.json'));
    mkdirSync(join(root, 'results', 'zero'), { recursive: true });
    symlinkSync('/dev/zero', join(root, 'results', 'zero', 'predictions.jsonl'));
    const bench = await loadOmniBenchmark(root);
    expect([...bench.users.keys()]).toEqual(['u1']);
    expect(one(bench.diagnostics, 'raw/u2.json')).toMatch(/FIFO/);
    expect(one(bench.diagnostics, 'results/zero/predictions.jsonl')).toMatch(/\/dev\/zero, outside the folder/);
  });
});

describe('paths given to the CLI', () => {
  it('labels import given a FIFO refuses it and exits by itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-special-labels-'));
    mkfifo(join(dir, 'labels.jsonl'));
    const r = await runCli(['labels', 'import', join(dir, 'labels.db'), join(dir, 'labels.jsonl')]);
    expect(r.killed).toBe(false);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/labels\.jsonl.*FIFO/);
  });
});
