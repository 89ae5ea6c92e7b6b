// Opening a store only to read writes nothing (no journal-mode change, no lock, no migration, no -wal or -shm), a
// write through such a store is refused with a clear message, and a file that is not one of our databases is refused
// instead of written into.
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExperimentLog } from '../../src/core/spb/experiments/log';
import { migrate } from '../../src/core/labels/migrations';
import { LabelStore, LabelStoreError } from '../../src/core/labels/store';
import { VerdictStore, VerdictStoreError } from '../../src/core/pi/verdicts';
import { RunHistory } from '../../src/core/spb/run/history';
import { labelKey, labelsCli as cli } from './labelStore-fixture';

const key = labelKey;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-readonly-'));
  cleanups.push(() => chmodSync(dir, 0o755));
  return dir;
}

/** A label database with two labels, closed, made read-only (file and folder; root ignores both). */
function labelDb(): { dir: string; path: string; bytes: Buffer } {
  const dir = folder();
  const path = join(dir, 'labels.db');
  const s = LabelStore.open(path);
  s.add({ ...key(), note: 'first' });
  s.add(key({ stepId: 2 }));
  s.close();
  chmodSync(path, 0o444);
  chmodSync(dir, 0o555);
  return { dir, path, bytes: readFileSync(path) };
}

describe('a label store opened read-only', () => {
  it('reads every label, refuses writes clearly, and leaves the file and its folder as they were', () => {
    const { dir, path, bytes } = labelDb();
    const store = LabelStore.open(path, { readOnly: true });
    try {
      expect(store.readOnly).toBe(true);
      expect(store.list().map((r) => [r.stepId, r.note])).toEqual([
        [1, 'first'],
        [2, ''],
      ]);
      expect(() => store.add(key({ stepId: 3 }))).toThrow(LabelStoreError);
      expect(() => store.add(key({ stepId: 3 }))).toThrow(/open read-only; nothing was changed/);
      expect(() => store.setNote(key(), 'changed')).toThrow(/read-only/);
      expect(readdirSync(dir)).toEqual(['labels.db']);
    } finally {
      store.close();
    }
    expect(readdirSync(dir)).toEqual(['labels.db']);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('takes no lock: it reads the committed labels while another connection holds the write lock', () => {
    const dir = folder();
    const path = join(dir, 'labels.db');
    const writer = LabelStore.open(path);
    writer.add(key());
    // The other connection stays open (its -wal holds the row) and keeps the write lock.
    const raw = new Database(path);
    raw.exec('BEGIN IMMEDIATE');
    try {
      const store = LabelStore.open(path, { readOnly: true, busyTimeoutMs: 20, maxRetryMs: 50 });
      expect(store.count()).toBe(1);
      store.close();
    } finally {
      raw.exec('ROLLBACK');
      raw.close();
      writer.close();
    }
  });

  it('reads an older schema without migrating the file', () => {
    const dir = folder();
    const path = join(dir, 'labels.db');
    const raw = new Database(path);
    raw.pragma('journal_mode = WAL');
    migrate(raw, 1);
    raw
      .prepare(
        `INSERT INTO labels (benchmark, platform, user_id, step_id, run, label, target_kind, author, created_at)
         VALUES ('spb', 'weibo', 'we_0000000001', 1, 'gpt', 'decay-error', 'step', 'alice', '2025-01-01')`,
      )
      .run();
    raw.close();
    const bytes = readFileSync(path);
    const store = LabelStore.open(path, { readOnly: true });
    expect(store.list().map((r) => r.label)).toEqual(['decay-error']);
    store.close();
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(readdirSync(dir)).toEqual(['labels.db']);
  });

  it('says an older schema needs writing when another connection has it open (its rows are in the -wal)', () => {
    const dir = folder();
    const path = join(dir, 'labels.db');
    const raw = new Database(path);
    raw.pragma('journal_mode = WAL');
    migrate(raw, 1);
    try {
      expect(() => LabelStore.open(path, { readOnly: true })).toThrow(
        /schema version 1 and needs migrating to 6, which needs writing/,
      );
    } finally {
      raw.close();
    }
  });

  it('refuses a newer schema, an empty file, a text file and a file of another schema, writing none of them', () => {
    const dir = folder();
    const newer = join(dir, 'newer.db');
    const raw = new Database(newer);
    raw.exec('CREATE TABLE labels (id INTEGER PRIMARY KEY)');
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => LabelStore.open(newer, { readOnly: true })).toThrow(/schema version 99, newer than/);

    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    expect(() => LabelStore.open(empty, { readOnly: true })).toThrow(
      `${empty}: not a label database: the file is empty (0 bytes)`,
    );
    expect(readFileSync(empty).length).toBe(0);

    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a database '.repeat(20));
    expect(() => LabelStore.open(text, { readOnly: true })).toThrow(/not a label database: the file is not an SQLite/);

    const bare = join(dir, 'bare.db');
    const b = new Database(bare);
    b.pragma('journal_mode = WAL');
    b.close();
    expect(() => LabelStore.open(bare, { readOnly: true })).toThrow(/not a label database: it has no schema version/);

    const missing = join(dir, 'missing.db');
    expect(() => LabelStore.open(missing, { readOnly: true })).toThrow(/the file does not exist/);
    expect(existsSync(missing)).toBe(false);
  });

  it('refuses an SQLite file of another schema, read-only or to write, and never adds tables to it', () => {
    const dir = folder();
    const other = join(dir, 'other.db');
    const raw = new Database(other);
    raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    raw.close();
    const tables = () => {
      const db = new Database(other, { readonly: true });
      const names = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
      db.close();
      return names.map((n) => n.name);
    };
    const message = /not a label database: it holds other tables \(notes\)/;
    expect(() => LabelStore.open(other, { readOnly: true })).toThrow(message);
    expect(() => LabelStore.open(other)).toThrow(message);
    expect(tables()).toEqual(['notes']);
  });
});

describe('labels export and summary on read-only files', () => {
  it('export and summary read a read-only database without changing it', async () => {
    const { dir, path, bytes } = labelDb();
    const exported = await cli(['export', path]);
    expect(exported.err).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.out.trim().split('\n')).toHaveLength(2);
    const summary = await cli(['summary', path], { json: true });
    expect(summary.code).toBe(0);
    expect((JSON.parse(summary.out) as { total: number }).total).toBe(2);
    expect(readdirSync(dir)).toEqual(['labels.db']);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('export refuses an empty file and another SQLite file instead of writing label tables into them', async () => {
    const dir = folder();
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const a = await cli(['export', empty]);
    expect(a.code).toBe(1);
    expect(a.err).toContain('not a label database: the file is empty (0 bytes)');
    expect(readFileSync(empty).length).toBe(0);

    const other = join(dir, 'other.db');
    const raw = new Database(other);
    raw.exec('CREATE TABLE t (x)');
    raw.close();
    const before = readFileSync(other);
    const b = await cli(['summary', other]);
    expect(b.code).toBe(1);
    expect(b.err).toContain('not a label database: it holds other tables (t)');
    expect(readFileSync(other).equals(before)).toBe(true);
  });
});

describe('verdicts, experiments and run history opened read-only', () => {
  it('the verdict store reads its trail and refuses to record, writing nothing', () => {
    const dir = folder();
    const path = join(dir, 'audit.db');
    const target = {
      key: 'k1',
      file: 'f.jsonl',
      line: 1,
      field: 'posts',
      start: 0,
      end: 3,
      category: 'PHONE' as const,
      text: 'abc',
      platform: 'weibo',
      userId: 'we_0000000001',
      stepId: 1,
      run: 'gpt',
    };
    const w = VerdictStore.open(path);
    w.record({ benchmark: 'spb', target, verdict: 'confirmed-leak', author: 'alice' });
    w.close();
    const bytes = readFileSync(path);
    const r = VerdictStore.open(path, { readOnly: true });
    try {
      expect(r.trail().map((v) => v.verdict)).toEqual(['confirmed-leak']);
      expect(() => r.record({ benchmark: 'spb', target, verdict: 'false-positive', author: 'bob' })).toThrow(
        VerdictStoreError,
      );
      expect(() => r.record({ benchmark: 'spb', target, verdict: 'false-positive', author: 'bob' })).toThrow(
        /open read-only; nothing was recorded/,
      );
    } finally {
      r.close();
    }
    expect(readdirSync(dir)).toEqual(['audit.db']);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('the experiment log read with mustExist and the run history opened readOnly write nothing', () => {
    const dir = folder();
    const sub = join(dir, 'x');
    mkdirSync(sub);
    const logPath = join(sub, 'experiments.db');
    ExperimentLog.open(logPath).close();
    const histPath = join(sub, 'history.db');
    RunHistory.open(histPath).close();
    const before = readdirSync(sub);
    const logBytes = readFileSync(logPath);
    const histBytes = readFileSync(histPath);

    const log = ExperimentLog.open(logPath, { mustExist: true });
    expect(log.list()).toEqual([]);
    log.close();
    const hist = RunHistory.open(histPath, { readOnly: true });
    expect(hist.schemaVersion).toBeGreaterThan(0);
    hist.close();

    expect(readdirSync(sub)).toEqual(before);
    expect(readFileSync(logPath).equals(logBytes)).toBe(true);
    expect(readFileSync(histPath).equals(histBytes)).toBe(true);
    expect(() => RunHistory.open(join(sub, 'nope.db'), { readOnly: true })).toThrow(/does not exist/);
  });
});
