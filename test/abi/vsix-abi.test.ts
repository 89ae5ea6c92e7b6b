// The packaged .vsix loads its SQLite on every current host: its better-sqlite3 is a Node-API 10 addon, so the one
// binary per platform that it ships works under two different module ABIs (Node 22 = 127, Node 24 = 137, both
// from the npm registry), and a host without Node-API 10 (Node 20) gets the plain message and exit status 2
// instead of a crash. Everything runs from the unpacked .vsix, never from this checkout's node_modules.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeRuntime } from '../../scripts/node-runtime.mjs';
import { extractZip } from '../../scripts/lib/zip.mjs';
import { SAMPLE } from '../support/committedSample';

const root = resolve(__dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'pl-abi-'));
const ext = join(work, 'extension');
const cli = join(ext, 'dist/cli.js');
const probe = join(ext, 'dist/abi-probe.cjs');
const writer = join(ext, 'dist/label-writer.cjs');
const node: Record<20 | 22 | 24, string> = { 20: '', 22: '', 24: '' };

beforeAll(async () => {
  const vsix = join(work, 'persona-lab.vsix');
  const packaged = spawnSync(process.execPath, [join(root, 'scripts/package.mjs'), '--out', vsix], {
    encoding: 'utf8',
  });
  expect(packaged.status, packaged.stderr + packaged.stdout).toBe(0);
  extractZip(readFileSync(vsix), work);
  for (const line of [20, 22, 24] as const) node[line] = nodeRuntime(line).bin;
  // Two helpers bundled into the unpacked extension, so that `require('better-sqlite3')` resolves to the shipped copy.
  writeFileSync(
    join(work, 'probe.ts'),
    `import Database from 'better-sqlite3';
const db = new Database(process.argv[2], { fileMustExist: true });
const out = {
  binding: require.resolve('better-sqlite3'),
  modules: process.versions.modules,
  journal: db.pragma('journal_mode', { simple: true }),
  integrity: db.pragma('integrity_check', { simple: true }),
  labels: db.prepare('SELECT count(*) AS n FROM labels').get(),
};
db.close();
process.stdout.write(JSON.stringify(out));
`,
  );
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['better-sqlite3'],
    logLevel: 'warning',
  };
  await build({ ...common, entryPoints: [join(work, 'probe.ts')], outfile: probe });
  await build({ ...common, entryPoints: [join(root, 'test/support/labelWriter.ts')], outfile: writer });
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(bin: string, args: string[]): SpawnSyncReturns<string> {
  // cwd outside the checkout, and no NODE_PATH: nothing but the unpacked extension can supply better-sqlite3.
  return spawnSync(bin, args, { cwd: work, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
}

function labelFile(path: string, count: number, firstStep: number, author: string): void {
  const rows = [];
  for (let i = 0; i < count; i++) {
    rows.push(
      JSON.stringify({
        benchmark: 'abi',
        platform: 'weibo',
        user_id: 'we_00000000aa',
        step_id: firstStep + i,
        run: 'run-1',
        author,
        target_kind: 'step',
        label: 'decay-error',
        note: '',
        created_at: '2026-12-01T00:00:00.000Z',
      }),
    );
  }
  writeFileSync(path, rows.join('\n') + '\n');
}

describe('the packaged .vsix', () => {
  it('ships a Node-API binary for every required platform and nothing built for one ABI', () => {
    const prebuilds = readdirSync(join(ext, 'node_modules/better-sqlite3/prebuilds')).sort();
    for (const p of ['win32-x64', 'darwin-x64', 'darwin-arm64', 'linux-x64', 'linux-arm64']) {
      expect(prebuilds).toContain(`${p}.node`);
    }
    expect(existsSync(join(ext, 'node_modules/better-sqlite3/build'))).toBe(false);
    expect(existsSync(join(ext, 'node_modules/bindings'))).toBe(false);
  });

  for (const line of [22, 24] as const) {
    it(`opens a label store, writes in WAL mode and reads back under Node ${line}`, () => {
      const db = join(work, `labels-${line}.db`);
      const file = join(work, `in-${line}.jsonl`);
      labelFile(file, 25, 1, `annotator-${line}`);
      const imported = run(node[line], [cli, 'labels', 'import', db, file]);
      expect(imported.status, imported.stderr).toBe(0);
      const probed = run(node[line], [probe, db]);
      expect(probed.status, probed.stderr).toBe(0);
      const out = JSON.parse(probed.stdout) as {
        binding: string;
        modules: string;
        journal: string;
        integrity: string;
        labels: { n: number };
      };
      expect(out.binding.startsWith(join(ext, 'node_modules/better-sqlite3'))).toBe(true);
      expect(out.modules).toBe(line === 22 ? '127' : '137');
      expect(out.journal).toBe('wal');
      expect(out.integrity).toBe('ok');
      expect(out.labels.n).toBe(25);
      const exported = run(node[line], [cli, 'labels', 'export', db]);
      expect(exported.status, exported.stderr).toBe(0);
      expect(exported.stdout.trim().split('\n')).toHaveLength(25);
    });
  }

  it('says what it needs under Node 20 (no Node-API 10) and exits 2, without a crash or a stack trace', () => {
    const db = join(work, 'labels-24.db');
    for (const args of [
      ['labels', 'summary', db],
      ['labels', 'summary', SAMPLE],
      ['audit', SAMPLE, '--db', db],
    ]) {
      const r = run(node[20], [cli, ...args]);
      expect(r.signal).toBeNull();
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain('needs Node-API 10: VS Code 1.101 or newer, or Node.js 22.14 or newer for the CLI');
      expect(r.stderr).toContain('Node.js 20.');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    // What needs no storage still works there.
    const scored = run(node[20], [cli, 'score', SAMPLE, '--json']);
    expect(scored.status, scored.stderr).toBe(0);
    expect(JSON.parse(scored.stdout)).toBeTruthy();
  });

  it('loses nothing when the CLI on Node 24 and a writer on Node 22 write the same labels.db at once', async () => {
    const db = join(work, 'shared.db');
    const file = join(work, 'cli-rows.jsonl');
    const count = 400;
    labelFile(file, count, 1, 'cli-author');
    // The Node 22 writer opens the store first (so the schema exists), then both start together.
    const w = spawn(node[22], [writer, db, String(count), '100001', 'writer-author', '5000', '--wait'], { cwd: work });
    let printed = '';
    w.stdout.on('data', (d: Buffer) => (printed += d.toString()));
    let stderr = '';
    w.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((res, rej) => {
      const poll = setInterval(() => {
        if (printed.includes('ready')) {
          clearInterval(poll);
          res();
        }
      }, 10);
      w.once('exit', (code) => {
        clearInterval(poll);
        rej(new Error(`writer exited (${code}) before it was ready: ${stderr}`));
      });
    });
    const done = new Promise<number | null>((res) => w.once('exit', res));
    w.stdin.write('go\n');
    const cliRun = new Promise<{ code: number | null; err: string }>((res) => {
      const c = spawn(node[24], [cli, 'labels', 'import', db, file], { cwd: work });
      let err = '';
      c.stderr.on('data', (d: Buffer) => (err += d.toString()));
      c.once('exit', (code) => res({ code, err }));
    });
    const [writerCode, cliResult] = await Promise.all([done, cliRun]);
    expect(writerCode, stderr).toBe(0);
    expect(cliResult.code, cliResult.err).toBe(0);
    const exported = run(node[24], [cli, 'labels', 'export', db]);
    expect(exported.status, exported.stderr).toBe(0);
    const rows = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { author: string; step_id: number });
    expect(rows.filter((r) => r.author === 'cli-author')).toHaveLength(count);
    expect(rows.filter((r) => r.author === 'writer-author')).toHaveLength(count);
    expect(new Set(rows.map((r) => `${r.author}/${r.step_id}`)).size).toBe(2 * count);
    const probed = JSON.parse(run(node[22], [probe, db]).stdout) as { integrity: string; labels: { n: number } };
    expect(probed.integrity).toBe('ok');
    expect(probed.labels.n).toBe(2 * count);
  }, 120_000);
});
