import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRecords, parseLabelFile, toCsv, toJsonl, type ImportedRow } from '../../src/core/labels/exportImport';
import { ImportSession } from '../../src/core/labels/merge';
import { labelRow, labelStores } from './labelStore-fixture';
import type { LabelRow } from '../../src/core/labels/model';
import { BY_STEP_SQL, LabelStore } from '../../src/core/labels/store';
import Database from 'better-sqlite3';

const stores = labelStores();
const open = () => stores.fresh('pl-import-');

const row = (over: Partial<LabelRow> = {}): LabelRow =>
  labelRow({ platform: 'xiaohongshu', userId: 'xi_0000000001', contentHash: 'f'.repeat(64), ...over });
const imported = (rows: LabelRow[]): ImportedRow[] => rows.map((r, i) => ({ row: r, line: i + 1 }));

const tricky: LabelRow[] = [
  row({ note: 'comma, "quotes" and\r\na line break' }),
  row({ target: { kind: 'tag', tag: '#话题,有逗号#' }, label: 'peer-confusion' }),
  row({
    target: { kind: 'span', field: 'persona_summary', start: 0, end: 12 },
    label: 'persona-drift',
    note: '=SUM(A1)',
  }),
  row({ run: '', label: 'bad-ground-truth', contentHash: '' }),
];

describe('export formats', () => {
  it('JSONL has every key on every line and round-trips', () => {
    const text = toJsonl(tricky);
    const first = JSON.parse(text.split('\n')[0]) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual([
      'benchmark',
      'platform',
      'user_id',
      'step_id',
      'run',
      'author',
      'label',
      'target_kind',
      'tag',
      'span_field',
      'span_start',
      'span_end',
      'note',
      'created_at',
      'content_hash',
    ]);
    const back = parseLabelFile(text, 'l.jsonl', 'jsonl');
    expect(back.diagnostics).toEqual([]);
    expect(back.rows.map((r) => r.row)).toEqual(tricky);
  });

  it('CSV quotes as RFC 4180 and round-trips, multi-line fields included', () => {
    const text = toCsv(tricky);
    expect(text.split('\r\n')[1]).toBe(
      'spb,xiaohongshu,xi_0000000001,1,gpt,alice,decay-error,step,,,,,"comma, ""quotes"" and',
    );
    const back = parseLabelFile(text, 'l.csv', 'csv');
    expect(back.diagnostics).toEqual([]);
    expect(back.rows.map((r) => r.row)).toEqual(tricky);
    expect(back.rows.map((r) => r.line)).toEqual([2, 4, 5, 6]);
  });

  it('csvRecords reports an unterminated quote at the line its record starts on', () => {
    const recs = csvRecords('a,b\n1,"x\ny\n2,3\n');
    expect(recs.map((r) => [r.line, r.unterminated ?? false])).toEqual([
      [1, false],
      [2, true],
    ]);
  });
});

describe('reading a bad import file', () => {
  it('gives file:line diagnostics and keeps the good lines (JSONL)', () => {
    const lines = toJsonl([row({ stepId: 1 }), row({ stepId: 2 }), row({ stepId: 3 })]).split('\n');
    const text = [
      lines[0],
      '{"platform": "weibo", "user_id": "we_1", "step_id": "two", "author": "a", "label": "x"}',
      'not json',
      lines[1],
      '[1, 2]',
      // a tag is StreamProfileBench's, on one of its platforms (a whole-item label may be any format's)
      '{"platform": "myspace", "user_id": "u", "step_id": 1, "author": "a", "label": "x", "target_kind": "tag", "tag": "t"}',
      '',
      lines[2],
    ].join('\n');
    const parsed = parseLabelFile(text, 'bob.jsonl', 'jsonl');
    expect(parsed.rows.map((r) => [r.line, r.row.stepId])).toEqual([
      [1, 1],
      [4, 2],
      [8, 3],
    ]);
    expect(parsed.diagnostics.map((d) => `${d.file}:${d.line} ${d.field}`)).toEqual([
      'bob.jsonl:2 step_id',
      'bob.jsonl:3 ',
      'bob.jsonl:5 ',
      'bob.jsonl:6 platform',
    ]);
  });

  it('gives file:line diagnostics and keeps the good records (CSV)', () => {
    const good = toCsv([row({ stepId: 1 }), row({ stepId: 2 })]).split('\r\n');
    const text = [
      good[0],
      good[1],
      'spb,weibo,we_1,1',
      'spb,weibo,,3,r,a,l,step,,,,,n,2025-01-01T00:00:00Z,',
      good[2],
      '',
    ].join('\r\n');
    const parsed = parseLabelFile(text, 'bob.csv', 'csv');
    expect(parsed.rows.map((r) => r.row.stepId)).toEqual([1, 2]);
    expect(parsed.diagnostics.map((d) => `${d.line} ${d.field}`)).toEqual(['3 ', '4 user_id']);
    const noHeader = parseLabelFile('platform,step_id\nweibo,1\n', 'x.csv', 'csv');
    expect(noHeader.rows).toEqual([]);
    expect(noHeader.diagnostics[0]).toMatchObject({ line: 1, severity: 'error' });
  });
});

describe('import merge', () => {
  it('adds new rows, keeps identical rows once, and keeps both authors', () => {
    const s = open();
    s.add(row());
    const session = new ImportSession(s, imported([row(), row({ author: 'bob' }), row({ stepId: 2 })]));
    expect(session.plan).toMatchObject({ identical: 1, conflicts: [] });
    expect(session.plan.additions).toHaveLength(2);
    expect(s.count()).toBe(1);
    const r = session.resolve();
    expect(r).toMatchObject({ ok: true, added: 2, removed: 0 });
    expect(s.count()).toBe(3);
    expect(new ImportSession(s, imported([row(), row({ author: 'bob' })])).plan.additions).toEqual([]);
  });

  it('an import with conflicts changes nothing until resolved', () => {
    const s = open();
    s.add(row({ note: 'mine' }));
    s.add(row({ stepId: 5 }));
    const before = s.list();
    const incoming = imported([
      row({ note: 'theirs' }), // same label, different note
      row({ stepId: 5, label: 'random-pick' }), // a different label on a target the store has
      row({ stepId: 9 }), // new
    ]);
    const session = new ImportSession(s, incoming);
    expect(session.conflicts.map((c) => c.local.length + ':' + c.incoming.length)).toEqual(['1:1', '1:1']);
    expect(s.list()).toEqual(before);

    const partial = session.resolve(new Map([[session.conflicts[0].id, 'incoming']]));
    expect(partial.ok).toBe(false);
    expect(partial.ok ? [] : partial.unresolved.map((c) => c.id)).toEqual([session.conflicts[1].id]);
    expect(s.list()).toEqual(before); // not even the new row

    const done = session.resolve(
      new Map([
        [session.conflicts[0].id, 'incoming'],
        [session.conflicts[1].id, 'both'],
      ]),
    );
    expect(done).toMatchObject({ ok: true, added: 3, removed: 1 });
    expect(s.get(row())?.note).toBe('theirs');
    expect(s.listByStep(row({ stepId: 5 })).map((r) => r.label)).toEqual(['decay-error', 'random-pick']);
    expect(s.get(row({ stepId: 9 }))).toBeDefined();

    if (done.ok) s.apply(done.inverse); // an import is undoable as one action
    const summary = (rows: LabelRow[]) => rows.map((r) => `${r.stepId} ${r.label} ${r.note}`).sort();
    expect(summary(s.list())).toEqual(summary(before));
  });

  it("'local' keeps the store's rows and 'both' joins differing notes", () => {
    const s = open();
    s.add(row({ note: 'mine' }));
    const keep = new ImportSession(s, imported([row({ note: 'theirs' })]));
    expect(keep.resolve('local')).toMatchObject({ ok: true, added: 0, removed: 0, notesChanged: 0 });
    expect(s.get(row())?.note).toBe('mine');
    expect(new ImportSession(s, imported([row({ note: 'theirs' })])).resolve('both')).toMatchObject({
      ok: true,
      notesChanged: 1,
    });
    expect(s.get(row())?.note).toBe('mine\ntheirs');
  });

  it('re-plans at resolve time: a conflict that appeared since the plan blocks the write', () => {
    const s = open();
    const session = new ImportSession(s, imported([row({ note: 'theirs' }), row({ stepId: 2 })]));
    expect(session.conflicts).toEqual([]);
    s.add(row({ note: 'written by another window meanwhile' }));
    const r = session.resolve();
    expect(r.ok).toBe(false);
    expect(s.count()).toBe(1);
  });

  it('reports a row repeated in the file with a different note instead of dropping it silently', () => {
    const s = open();
    const session = new ImportSession(
      s,
      [
        { row: row({ note: 'a' }), line: 3 },
        { row: row({ note: 'b' }), line: 7 },
        { row: row({ note: 'a' }), line: 9 },
      ],
      'bob.jsonl',
    );
    expect(session.plan.diagnostics.map((d) => `${d.file}:${d.line} ${d.field}`)).toEqual(['bob.jsonl:7 note']);
    expect(session.plan.additions).toHaveLength(1);
  });
});

describe('import cost grows with the file, not with the store', () => {
  it("looks each step's labels up through the key index, also in a store that holds one benchmark and run", () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pl-import-plan-')), 'labels.db');
    const store = LabelStore.open(path);
    store.transaction(() => {
      for (let i = 0; i < 500; i++) store.add(row({ userId: `u${i}`, stepId: i % 5 }));
    });
    store.close();
    // A second connection, as the CLI would open it: no statistics were gathered (no ANALYZE).
    const db = new Database(path, { readonly: true });
    try {
      const plan = db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${BY_STEP_SQL}`)
        .all('spb', 'xiaohongshu', 'u1', 1, 'gpt')
        .map((r) => r.detail)
        .join('; ');
      expect(plan).toContain(
        'USING INDEX labels_key (benchmark=? AND platform=? AND user_id=? AND step_id=? AND run=?)',
      );
    } finally {
      db.close();
    }
  });
});
