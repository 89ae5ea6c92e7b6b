import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LabelStore } from '../../src/core/labels/store';
import { type AuditFinding } from '../../src/core/spb/pi/audit';
import { textHash } from '../../src/core/pi/tally';
import {
  VERDICT_SCHEMA_VERSION,
  VerdictStore,
  VerdictStoreError,
  latestByKey,
  type VerdictRow,
  type VerdictTarget,
} from '../../src/core/pi/verdicts';

const dir = mkdtempSync(join(tmpdir(), 'pl-pi-verdicts-'));

const target = (over: Partial<AuditFinding> = {}): VerdictTarget => ({
  key: 'data/weibo_inference_tasks.jsonl:4:prediction_tasks[1].posts_text:60-71:PHONE:abc',
  file: 'data/weibo_inference_tasks.jsonl',
  line: 4,
  field: 'prediction_tasks[1].posts_text',
  start: 60,
  end: 71,
  category: 'PHONE',
  text: '13800138000',
  platform: 'weibo',
  userId: 'we_b5ce11fb65',
  stepId: 2,
  run: null,
  ...over,
});

let clock = 0;
const now = () => `2025-01-01T00:00:${String(clock++).padStart(2, '0')}.000Z`;

describe('verdict store', () => {
  it('creates the schema with WAL and user_version, and keeps an append-only trail', () => {
    const path = join(dir, 'a.db');
    const s = VerdictStore.open(path, { now });
    try {
      expect(s.schemaVersion()).toBe(VERDICT_SCHEMA_VERSION);
      s.record({ benchmark: 'sample', target: target(), verdict: 'needs-review', author: 'alice' });
      s.record({
        benchmark: 'sample',
        target: target(),
        verdict: 'confirmed-leak',
        author: 'bob',
        note: 'real number',
      });
      s.record({ benchmark: 'other', target: target(), verdict: 'false-positive', author: 'bob' });
      const trail = s.trail({ benchmark: 'sample' });
      expect(trail.map((r) => [r.author, r.verdict])).toEqual([
        ['alice', 'needs-review'],
        ['bob', 'confirmed-leak'],
      ]);
      expect(trail[1]).toMatchObject({ note: 'real number', stepId: 2, run: '', textHash: textHash('13800138000') });
      expect(trail[0].createdAt < trail[1].createdAt).toBe(true);
      const current = s.current('sample');
      expect(current.get(target().key)?.verdict).toBe('confirmed-leak');
      expect(s.current('other').get(target().key)?.verdict).toBe('false-positive');
    } finally {
      s.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      const cols = raw
        .prepare<[], { name: string }>('PRAGMA table_info(pi_verdicts)')
        .all()
        .map((c) => c.name);
      expect(cols).not.toContain('text'); // only a hash of the leaked value is stored
      expect(JSON.stringify(raw.prepare('SELECT * FROM pi_verdicts').all())).not.toContain('13800138000');
    } finally {
      raw.close();
    }
  });

  it('survives reopening and sees writes from another connection', () => {
    const path = join(dir, 'b.db');
    const a = VerdictStore.open(path, { now });
    const b = VerdictStore.open(path, { now });
    try {
      a.record({ benchmark: 's', target: target(), verdict: 'needs-review', author: 'alice' });
      b.record({ benchmark: 's', target: target(), verdict: 'false-positive', author: 'bob' });
      expect(a.current('s').get(target().key)?.author).toBe('bob');
    } finally {
      a.close();
      b.close();
    }
    const again = VerdictStore.open(path, { mustExist: true });
    try {
      expect(again.trail().length).toBe(2);
    } finally {
      again.close();
    }
  });

  it('rejects bad verdicts, empty authors, missing files, newer schemas and label databases with readable errors', () => {
    const s = VerdictStore.open(join(dir, 'c.db'));
    try {
      expect(() =>
        s.record({ benchmark: 's', target: target(), verdict: 'maybe' as 'needs-review', author: 'a' }),
      ).toThrow(/unknown verdict/);
      expect(() => s.record({ benchmark: 's', target: target(), verdict: 'needs-review', author: ' ' })).toThrow(
        /author/,
      );
      expect(s.trail()).toEqual([]);
    } finally {
      s.close();
    }
    expect(() => VerdictStore.open(join(dir, 'missing.db'), { mustExist: true })).toThrow(VerdictStoreError);

    const newer = join(dir, 'newer.db');
    VerdictStore.open(newer).close();
    const raw = new Database(newer);
    raw.pragma(`user_version = ${VERDICT_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => VerdictStore.open(newer)).toThrow(/newer than this Persona Lab knows/);

    const labels = join(dir, 'labels.db');
    LabelStore.open(labels).close();
    expect(() => VerdictStore.open(labels)).toThrow(/other tables/);
  });

  it('takes the latest row per key', () => {
    const row = (id: number, key: string, verdict: VerdictRow['verdict']): VerdictRow => ({
      id,
      key,
      verdict,
      benchmark: 's',
      file: 'f',
      line: 1,
      field: 'bio',
      start: 0,
      end: 1,
      category: 'PHONE',
      textHash: '',
      platform: 'weibo',
      userId: 'u',
      stepId: null,
      run: '',
      note: '',
      author: 'a',
      createdAt: '',
    });
    const rows = [row(3, 'k', 'false-positive'), row(1, 'k', 'confirmed-leak'), row(2, 'j', 'needs-review')];
    const m = latestByKey(rows);
    expect(m.get('k')?.id).toBe(3);
    expect(m.get('j')?.id).toBe(2);
  });
});
