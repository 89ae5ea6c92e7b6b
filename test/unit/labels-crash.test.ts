// Child-process tests of the label store: SIGKILL in the middle of 10,000 transactions, and two writers at once.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { LabelStore } from '../../src/core/labels/store';

const root = resolve(__dirname, '../..');
let writer = '';

beforeAll(async () => {
  // Plain node cannot run the TypeScript helper, so bundle it; better-sqlite3 stays external (NODE_PATH finds it).
  writer = join(mkdtempSync(join(tmpdir(), 'pl-writer-')), 'labelWriter.cjs');
  await build({
    entryPoints: [join(root, 'test/support/labelWriter.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: writer,
    external: ['better-sqlite3'],
    logLevel: 'warning',
  });
});

interface Child {
  printed: number[];
  retries: number;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Started {
  ready: Promise<void>;
  go: () => void;
  finished: Promise<Child>;
}

/**
 * Starts the writer; `onLine(count)` may kill it. `finished` resolves with the step ids it printed (whole lines
 * only). With --wait among the args the writer opens the store, says `ready`, and writes once `go()` is called.
 */
function startWriter(args: string[], onLine?: (count: number, kill: () => void) => void): Started {
  const child = spawn(process.execPath, [writer, ...args], {
    env: { ...process.env, NODE_PATH: join(root, 'node_modules') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let markReady = () => {};
  const ready = new Promise<void>((r) => (markReady = r));
  const finished = new Promise<Child>((done, fail) => {
    let out = '';
    let stderr = '';
    let count = 0;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.startsWith('ready\n')) {
        out = out.slice('ready\n'.length);
        markReady();
      }
      count += chunk.split('\n').length - 1;
      onLine?.(count, () => child.kill('SIGKILL'));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code, signal) => {
      markReady();
      const lines = out.split('\n');
      lines.pop(); // an unterminated last line was not fully printed
      const retries = Number(lines.find((l) => l.startsWith('# retries '))?.slice(10) ?? 0);
      done({ printed: lines.filter((l) => !l.startsWith('#')).map(Number), retries, stderr, code, signal });
    });
  });
  return { ready, finished, go: () => child.stdin.end('go\n') };
}

function stepIds(db: string, author?: string): Set<number> {
  const raw = new Database(db, { readonly: true });
  try {
    const rows = raw
      .prepare<[], { step_id: number; author: string }>('SELECT step_id, author FROM labels')
      .all()
      .filter((r) => author === undefined || r.author === author);
    return new Set(rows.map((r) => r.step_id));
  } finally {
    raw.close();
  }
}

describe('label store under crashes and concurrency', () => {
  it('survives SIGKILL at a random moment: the DB is intact and every returned transaction is in it', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'pl-crash-')), 'labels.db');
    const killAt = 1 + Math.floor(Math.random() * 9000);
    let killed = false;
    const result = await startWriter([db, '10000', '1', 'alice'], (count, kill) => {
      if (!killed && count >= killAt) {
        killed = true;
        kill();
      }
    }).finished;
    // Reported so that a failure can be replayed with the same kill point.
    console.log(`crash test: kill after ${killAt} printed, ${result.printed.length} printed, signal ${result.signal}`);
    expect(result.stderr).toBe('');
    expect(result.printed.length).toBeGreaterThanOrEqual(killAt);
    expect(result.signal === 'SIGKILL' || result.printed.length === 10000).toBe(true);

    const raw = new Database(db);
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
    const present = stepIds(db);
    const missing = result.printed.filter((id) => !present.has(id));
    expect(missing).toEqual([]);
    // Committed in order: nothing after the last committed id is half there, nothing before it is lost.
    const max = Math.max(...present);
    expect(present.size).toBe(max);

    const store = LabelStore.open(db);
    expect(store.count()).toBe(present.size);
    expect(store.integrityCheck()).toBe('ok');
    store.close();
  });

  it.each([
    ['the default busy timeout', '5000'],
    ['no busy timeout (the retry loop alone)', '0'],
  ])('two processes writing at once with %s: no SQLITE_BUSY surfaces, no write is lost', async (_name, busy) => {
    const db = join(mkdtempSync(join(tmpdir(), 'pl-concurrent-')), 'labels.db');
    const n = 400;
    const writers = [
      startWriter([db, String(n), '1', 'alice', busy, '--wait']),
      startWriter([db, String(n), '1', 'bob', busy, '--wait']),
    ];
    await Promise.all(writers.map((w) => w.ready));
    writers.forEach((w) => w.go());
    const [a, b] = await Promise.all(writers.map((w) => w.finished));
    console.log(`concurrency (busy_timeout ${busy}): lock waits in the retry loop ${a.retries} + ${b.retries}`);
    expect(a.stderr + b.stderr).toBe('');
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.printed).toHaveLength(n);
    expect(b.printed).toHaveLength(n);
    expect(stepIds(db, 'alice').size).toBe(n);
    expect(stepIds(db, 'bob').size).toBe(n);
    const store = LabelStore.open(db);
    expect(store.count()).toBe(2 * n);
    store.close();
  });
});
