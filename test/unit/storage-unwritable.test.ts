// A label database this process cannot write (a 0444 file in a 0555 folder): labels export and summary read it, and
// a store opened with readOnly 'when-unwritable' (as the extension opens it) reads it and refuses writes. Root ignores
// file permissions, so when the tests run as root the checks run in a child process as the user "nobody".
import { buildSync } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LabelStore } from '../../src/core/labels/store';

const NOBODY = 65534;
const root = mkdtempSync(join(tmpdir(), 'pl-unwritable-'));
afterAll(() => {
  chmodSync(join(root, 'db'), 0o755);
  rmSync(root, { recursive: true, force: true });
});

// Run in the child: opens the store as the extension does, then runs `labels export` and `labels summary --json`.
const CHILD = `
import { LabelStore } from ${JSON.stringify(resolve('src/core/labels/store'))};
import { runLabelsCommand } from ${JSON.stringify(resolve('src/cli/labels'))};
const path = process.argv[2];
async function main() {
  const out = { uid: process.getuid() };
  const opened = LabelStore.tryOpen(path, { readOnly: 'when-unwritable' });
  out.opened = opened.ok ? { readOnly: opened.store.readOnly, count: opened.store.count() } : { error: opened.message };
  if (opened.ok) {
    try {
      opened.store.add({ benchmark: 'spb', platform: 'weibo', userId: 'we_0000000001', stepId: 9, run: 'gpt',
        author: 'nobody', target: { kind: 'step' }, label: 'decay-error' });
      out.write = 'written';
    } catch (e) {
      out.write = e.message;
    }
    opened.store.close();
  }
  for (const [name, args, opts] of [['export', ['export', path], {}], ['summary', ['summary', path], { json: true }]]) {
    const text = [];
    const io = { write: (t) => text.push(t), out: (t) => text.push(t + '\\n'), err: (t) => text.push('ERR ' + t + '\\n') };
    const code = await runLabelsCommand(args, opts, io);
    out[name] = { code, text: text.join('') };
  }
  process.stdout.write(JSON.stringify(out));
}
void main();
`;

interface ChildResult {
  uid: number;
  opened: { readOnly?: boolean; count?: number; error?: string };
  write?: string;
  export: { code: number; text: string };
  summary: { code: number; text: string };
}

function runUnprivileged(path: string): ChildResult {
  const entry = join(root, 'child.ts');
  writeFileSync(entry, CHILD);
  const bundle = join(root, 'child.js');
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: bundle,
    external: ['better-sqlite3'],
    // as scripts/build.mjs: the formats' CLI parts bundle their reference drivers' Python as text
    loader: { '.py': 'text' },
    logLevel: 'silent',
  });
  chmodSync(root, 0o755);
  chmodSync(bundle, 0o644);
  const asRoot = process.getuid?.() === 0;
  const child = spawnSync(process.execPath, [bundle, path], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', NODE_PATH: resolve('node_modules') },
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  if (child.status !== 0) throw new Error(`child failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout) as ChildResult;
}

describe('a label database that cannot be written', () => {
  it('is read by export, summary and a store opened as the extension opens it; writes are refused', () => {
    const dir = join(root, 'db');
    const path = join(dir, 'labels.db');
    const s = LabelStore.open(path);
    for (const stepId of [1, 2]) {
      s.add({
        benchmark: 'spb',
        platform: 'weibo',
        userId: 'we_0000000001',
        stepId,
        run: 'gpt',
        author: 'alice',
        target: { kind: 'step' },
        label: 'decay-error',
      });
    }
    s.close();
    chmodSync(path, 0o444);
    chmodSync(dir, 0o555);
    const bytes = readFileSync(path);

    const r = runUnprivileged(path);

    // Permissions apply: the child is not root.
    expect(r.uid).not.toBe(0);
    expect(r.opened).toEqual({ readOnly: true, count: 2 });
    expect(r.write).toMatch(/open read-only; nothing was changed/);
    expect(r.export.code).toBe(0);
    expect(r.export.text.trim().split('\n')).toHaveLength(2);
    expect(r.summary.code).toBe(0);
    expect((JSON.parse(r.summary.text) as { total: number }).total).toBe(2);
    expect(readdirSync(dir)).toEqual(['labels.db']);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });
});
