import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelKey, labelStores } from './labelStore-fixture';
import {
  changedParts,
  stepCanonicalJson,
  stepContentHash,
  stepHash,
  stepHashText,
  stepStaleness,
} from '../../src/core/spb/labels/hash';
import { isStoredHash, staleness } from '../../src/core/labels/staleness';
import { MIGRATIONS, SCHEMA_VERSION, migrate } from '../../src/core/labels/migrations';
import { isNoOp, type LabelKey } from '../../src/core/labels/model';
import { LabelStore, LabelStoreError, withBusyRetry, type LabelInput } from '../../src/core/labels/store';
import type { PoolSplit } from '../../src/core/spb/types';

const dir = () => mkdtempSync(join(tmpdir(), 'pl-labelstore-'));
const stores = labelStores();
const open = (path: string) => {
  let t = 0;
  return stores.open(path, { now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, t++)).toISOString() });
};

const key: (over?: Partial<LabelKey>) => LabelInput = labelKey;

describe('LabelStore', () => {
  it('creates a WAL database at the current schema version', () => {
    const path = join(dir(), 'sub', 'labels.db');
    const s = open(path);
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('adds, toggles, removes and sets notes, each returning its inverse for undo', () => {
    const s = open(join(dir(), 'l.db'));
    const add = s.add({ ...key(), note: 'n1', contentHash: 'h' });
    expect(add.changed).toBe(true);
    expect(s.get(key())).toMatchObject({ note: 'n1', contentHash: 'h', createdAt: '2025-01-01T00:00:00.000Z' });
    expect(s.add(key()).changed).toBe(false); // already there: kept as is

    const note = s.setNote(key(), 'n2');
    expect(s.get(key())?.note).toBe('n2');
    s.apply(note.inverse);
    expect(s.get(key())?.note).toBe('n1');

    const removed = s.remove(key());
    expect(s.get(key())).toBeUndefined();
    s.apply(removed.inverse); // undo restores the whole row, note and time included
    expect(s.get(key())).toMatchObject({ note: 'n1', contentHash: 'h', createdAt: '2025-01-01T00:00:00.000Z' });

    const off = s.toggle(key());
    expect(off.state).toBe('removed');
    const on = s.toggle(key({ label: 'random-pick' }));
    expect(on.state).toBe('added');
    expect(s.listByStep(key()).map((r) => r.label)).toEqual(['random-pick']);
    s.apply(on.inverse);
    s.apply(off.inverse);
    expect(s.listByStep(key()).map((r) => r.label)).toEqual(['decay-error']);
    expect(isNoOp(s.remove(key({ label: 'nope' })).inverse)).toBe(true);
  });

  it('keeps tag and span targets apart from the step target', () => {
    const s = open(join(dir(), 'l.db'));
    s.add(key());
    s.add(key({ target: { kind: 'tag', tag: '#a#' } }));
    s.add(key({ target: { kind: 'tag', tag: '#b#' } }));
    s.add(key({ target: { kind: 'span', field: 'persona_summary', start: 3, end: 9 }, label: 'persona-drift' }));
    s.add(key({ author: 'bob' }));
    const rows = s.listByStep(key());
    expect(rows).toHaveLength(5);
    expect(rows[3].target).toEqual({ kind: 'span', field: 'persona_summary', start: 3, end: 9 });
    expect(() => s.add(key({ target: { kind: 'span', field: 'x', start: 5, end: 2 } }))).toThrow(/span/);
  });

  it('lists by run and by label, and counts per label per platform', () => {
    const s = open(join(dir(), 'l.db'));
    s.add(key());
    s.add(key({ stepId: 2 }));
    s.add(key({ platform: 'zhihu', userId: 'zh_0000000001' }));
    s.add(key({ run: 'other', label: 'format-error' }));
    expect(s.listByRun('spb', 'gpt')).toHaveLength(3);
    expect(s.listByLabel('format-error').map((r) => r.run)).toEqual(['other']);
    expect(s.countsPerLabelPerPlatform()).toEqual([
      { label: 'decay-error', platform: 'weibo', count: 2 },
      { label: 'decay-error', platform: 'zhihu', count: 1 },
      { label: 'format-error', platform: 'weibo', count: 1 },
    ]);
    expect(s.countsPerLabelPerPlatform({ run: 'other' })).toEqual([
      { label: 'format-error', platform: 'weibo', count: 1 },
    ]);
  });

  it('undoes a batch as one action', () => {
    const s = open(join(dir(), 'l.db'));
    s.add(key());
    const r = s.apply({
      kind: 'batch',
      actions: [
        { kind: 'remove', key: key() },
        { kind: 'add', row: { ...key({ label: 'peer-confusion' }), note: '', createdAt: 't', contentHash: '' } },
      ],
    });
    expect(s.listByStep(key()).map((x) => x.label)).toEqual(['peer-confusion']);
    s.apply(r.inverse);
    expect(s.listByStep(key()).map((x) => x.label)).toEqual(['decay-error']);
  });

  it('refuses a database from a newer schema without touching it', () => {
    const path = join(dir(), 'l.db');
    const raw = new Database(path);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => LabelStore.open(path)).toThrow(/schema version 99/);
    const after = new Database(path, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(99);
    after.close();
  });

  it('reports a file that is not a database', () => {
    const path = join(dir(), 'not.db');
    writeFileSync(path, 'this is not sqlite, just some text that is long enough to be read as a header');
    const r = LabelStore.tryOpen(path);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(/not\.db: not a label database: the file is not an SQLite database/);
  });
});

describe('busy handling', () => {
  const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

  it('retries while busy, rethrows other errors, and gives up with a readable error', () => {
    let calls = 0;
    const flaky = () => {
      if (++calls < 3) throw busy();
      return 'done';
    };
    expect(withBusyRetry(flaky)).toBe('done');
    expect(calls).toBe(3);
    const other = () => {
      throw new TypeError('other');
    };
    expect(() => withBusyRetry(other)).toThrow(TypeError);
    const always = () => {
      throw busy();
    };
    expect(() => withBusyRetry(always, 0)).toThrow(LabelStoreError);
  });

  it('a writer blocked by another connection gets a LabelStoreError, never SQLITE_BUSY', () => {
    const path = join(dir(), 'l.db');
    const s = stores.open(path, { busyTimeoutMs: 0, maxRetryMs: 0 });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    let caught: unknown;
    try {
      s.add(key());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(LabelStoreError);
    expect((caught as { code?: string }).code).toBeUndefined();
    other.exec('ROLLBACK');
    other.close();
    expect(s.add(key()).changed).toBe(true);
  });
});

describe('migrations', () => {
  it('v0 (an empty SQLite database) migrates to the current version', () => {
    const path = join(dir(), 'l.db');
    // Written once, so the file has SQLite's header; a 0-byte file is refused (store-open-foreign.test.ts).
    const raw = new Database(path);
    raw.exec('CREATE TABLE t (x); DROP TABLE t');
    raw.close();
    const s = open(path);
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(s.count()).toBe(0);
  });

  it('v1 with rows migrates to the current version keeping every row and every field', () => {
    const path = join(dir(), 'l.db');
    const raw = new Database(path);
    migrate(raw, 1);
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    const insert = raw.prepare(
      `INSERT INTO labels (benchmark, platform, user_id, step_id, run, label, target_kind, tag, span_field, span_start,
       span_end, note, author, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (let i = 1; i <= 50; i++) {
      insert.run(
        'spb',
        'douban',
        'do_0000000001',
        i,
        'r',
        'missed-novelty',
        i % 2 ? 'step' : 'tag',
        i % 2 ? '' : `看过影视:${i}`,
        '',
        -1,
        -1,
        `note, "${i}"`,
        'carol',
        `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
      );
    }
    raw.close();

    const s = open(path);
    expect(s.schemaVersion()).toBe(SCHEMA_VERSION);
    const rows = s.list();
    expect(rows).toHaveLength(50);
    rows.forEach((r, i) => expect([r.stepId, r.note, r.label]).toEqual([i + 1, `note, "${i + 1}"`, 'missed-novelty']));
    expect(rows[1]).toMatchObject({
      stepId: 2,
      target: { kind: 'tag', tag: '看过影视:2' },
      note: 'note, "2"',
      author: 'carol',
      contentHash: '',
    });
    expect(staleness(rows[0], 'abc')).toBe('unknown');
    expect(MIGRATIONS).toHaveLength(SCHEMA_VERSION);
  });

  it('two opens in a row migrate once', () => {
    const path = join(dir(), 'l.db');
    open(path).add(key());
    const again = open(path);
    expect(again.count()).toBe(1);
    expect(again.integrityCheck()).toBe('ok');
  });
});

describe('step content hash', () => {
  const split: PoolSplit = {
    tKeep: ['#k#'],
    tNew: ['#n#'],
    dDecay: ['#d#'],
    dPeer: ['#p#'],
    dViral: [],
    dRandom: ['#r#'],
  };
  const step = { pool: ['#k#', '#n#', '#d#', '#p#', '#r#'], split };

  it('is the sha256 of a canonical JSON of pool, meta and posts', () => {
    const json = stepCanonicalJson(step, '[1] Content: x');
    expect(Object.keys(JSON.parse(json))).toEqual(['meta', 'pool', 'posts']);
    expect(Object.keys(JSON.parse(json).meta)).toEqual([
      'D_cluster',
      'D_decay',
      'D_random',
      'D_viral',
      'T_keep',
      'T_new',
    ]);
    expect(stepContentHash(step, 'p')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with the data and marks labels stale', () => {
    const h = stepContentHash(step, 'posts');
    expect(stepContentHash(step, 'posts')).toBe(h);
    expect(stepContentHash(step, 'posts!')).not.toBe(h);
    expect(stepContentHash({ ...step, split: { ...split, dViral: ['#v#'] } }, 'posts')).not.toBe(h);
    expect(staleness({ contentHash: h }, h)).toBe('fresh');
    expect(staleness({ contentHash: h }, stepContentHash(step, 'other'))).toBe('stale');
    expect(staleness({ contentHash: '' }, h)).toBe('unknown');
  });

  it('says which parts changed for labels stored with part hashes, and still reads the older full hash', () => {
    const before = stepHash(step, 'posts');
    const stored = { contentHash: stepHashText(before) };
    expect(stored.contentHash).toMatch(/^parts1:[0-9a-f]{16}:[0-9a-f]{16}:[0-9a-f]{16}$/);
    // both kinds travel through export and import
    expect([stored.contentHash, stepContentHash(step, 'posts'), 'parts1:x', 'abc'].map(isStoredHash)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(stepStaleness(stored, stepHash(step, 'posts'))).toBe('fresh');
    expect(changedParts(stored, stepHash(step, 'posts'))).toEqual([]);
    // posts only; the split only (a tag moved between classes, same pool); the pool and the split
    expect(changedParts(stored, stepHash(step, 'posts!'))).toEqual(['posts']);
    const moved = { ...split, dRandom: [], dViral: ['#r#'] };
    expect(stepStaleness(stored, stepHash({ ...step, split: moved }, 'posts'))).toBe('stale');
    expect(changedParts(stored, stepHash({ ...step, split: moved }, 'posts'))).toEqual(['split']);
    const grown = { pool: [...step.pool, '#v#'], split: { ...split, dViral: ['#v#'] } };
    expect(changedParts(stored, stepHash(grown, 'posts'))).toEqual(['pool', 'split']);
    // a label stored before part hashes: its full hash still tells fresh from stale, but not what changed
    const legacy = { contentHash: stepContentHash(step, 'posts') };
    expect(stepStaleness(legacy, stepHash(step, 'posts'))).toBe('fresh');
    expect(stepStaleness(legacy, stepHash(step, 'posts!'))).toBe('stale');
    expect(changedParts(legacy, stepHash(step, 'posts!'))).toBeUndefined();
  });
});
