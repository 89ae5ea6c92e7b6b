// Import Labels' conflict table (core/labels/importTable.ts) and its protocol: every conflict with both sides, no
// decision until one is chosen, Apply refused while a row is undecided, and a cancelled, refused or failed import
// leaves the store as it was.
import { describe, expect, it } from 'vitest';
import type { ImportedRow } from '../../src/core/labels/exportImport';
import { ConflictTable } from '../../src/core/labels/importTable';
import { ImportSession } from '../../src/core/labels/merge';
import { labelStores } from './labelStore-fixture';
import type { LabelRow } from '../../src/core/labels/model';
import { LabelStore } from '../../src/core/labels/store';
import { labelNames, defaultLabelSet } from '../../src/core/labels/taxonomy';
import { isExtensionToWebview, isWebviewToExtension } from '../../src/shared/labelImportProtocol';

const stores = labelStores();
const open = () => stores.fresh('pl-import-table-');

const row = (over: Partial<LabelRow> = {}): LabelRow => ({
  benchmark: 'sample',
  platform: 'weibo',
  userId: 'we_01',
  stepId: 1,
  run: 'demo-llm',
  author: 'alice',
  target: { kind: 'step' },
  label: 'decay-error',
  note: '',
  createdAt: '2025-01-01T00:00:00.000Z',
  contentHash: 'f'.repeat(64),
  ...over,
});
const imported = (rows: LabelRow[]): ImportedRow[] => rows.map((r, i) => ({ row: r, line: i + 1 }));
const names = labelNames(defaultLabelSet());
const dump = (s: LabelStore) => JSON.stringify(s.list());

/** A store with labels on three targets, and a file that conflicts on each of them and adds one new label. */
function scenario() {
  const store = open();
  store.add(row({ note: 'mine' }));
  store.add(row({ stepId: 2, label: 'pi-leak' }));
  store.add(row({ stepId: 3, target: { kind: 'tag', tag: '#a#' }, label: 'popularity-bias' }));
  const file = imported([
    row({ note: 'theirs' }),
    row({ stepId: 2, label: 'peer-confusion' }),
    row({ stepId: 2, label: 'pi-leak' }),
    row({ stepId: 3, target: { kind: 'tag', tag: '#a#' }, label: 'random-pick', note: 'uniform' }),
    row({ stepId: 4, author: 'bob', label: 'format-error' }),
  ]);
  const session = new ImportSession(store, file, 'bob.jsonl');
  return { store, session, table: new ConflictTable(session.conflicts, names) };
}

describe('the conflict table', () => {
  it('shows every conflict with both sides in full, and no decision on any row', () => {
    const { table } = scenario();
    const rows = table.rows();
    expect(rows.map((r) => [r.index, r.where, r.target, r.author, r.decision])).toEqual([
      [1, 'weibo/we_01 · step 1 · run demo-llm', 'whole step', 'alice', null],
      [2, 'weibo/we_01 · step 2 · run demo-llm', 'whole step', 'alice', null],
      [3, 'weibo/we_01 · step 3 · run demo-llm', 'tag #a#', 'alice', null],
    ]);
    expect(rows[0].mine).toEqual([{ label: 'decay-error', name: 'D_decay pick', note: 'mine', status: 'note' }]);
    expect(rows[0].theirs).toEqual([
      { label: 'decay-error', name: 'D_decay pick', note: 'theirs', status: 'note', line: 1 },
    ]);
    expect(rows[1].mine.map((l) => [l.name, l.status])).toEqual([['PI leak', 'same']]);
    expect(rows[1].theirs.map((l) => [l.name, l.status, l.line])).toEqual([
      ['D_peer pick', 'only', 2],
      ['PI leak', 'same', 3],
    ]);
    expect(rows[2].mine.map((l) => [l.name, l.status])).toEqual([['D_viral pick', 'only']]);
    expect(rows[2].theirs.map((l) => [l.name, l.note, l.status])).toEqual([['D_random pick', 'uniform', 'only']]);
    expect(rows[2].title).toBe('sample:weibo/we_01#3 run demo-llm [tag:#a#] by alice');
    expect(table.decidedCount).toBe(0);
    expect(table.undecided()).toHaveLength(3);
  });

  it('refuses Apply while any row is undecided, naming the rows, and gives the decisions once all have one', () => {
    const { table, session } = scenario();
    const [a, b, c] = session.conflicts.map((x) => x.id);
    const none = table.apply();
    expect(none).toMatchObject({ ok: false, undecided: [a, b, c] });
    expect(!none.ok && none.message).toBe(
      '3 of 3 conflict(s) have no decision yet (rows 1, 2, 3): choose Keep mine, Take theirs or Keep both on each. ' +
        'Nothing has been written.',
    );
    expect(table.decide(b, 'incoming')).toBe(true);
    expect(table.decide('no such conflict', 'local')).toBe(false);
    const one = table.apply();
    expect(!one.ok && one.message).toMatch(/^2 of 3 conflict\(s\) have no decision yet \(rows 1, 3\)/);
    expect(table.rows().map((r) => r.decision)).toEqual([null, 'incoming', null]);
    // A decision can be changed before Apply.
    table.decide(b, 'both');
    table.decide(a, 'local');
    const last = table.apply();
    expect(!last.ok && last.message).toMatch(/\(row 3\)/);
    table.decide(c, 'incoming');
    const done = table.apply();
    expect(done.ok && [...done.decisions]).toEqual([
      [b, 'both'],
      [a, 'local'],
      [c, 'incoming'],
    ]);
  });

  it('decides only the undecided rows at once, when asked', () => {
    const { table, session } = scenario();
    table.decide(session.conflicts[1].id, 'incoming');
    expect(table.decideRest('local')).toBe(2);
    expect(table.rows().map((r) => r.decision)).toEqual(['local', 'incoming', 'local']);
    expect(table.decideRest('both')).toBe(0);
  });

  it('writes each decision as chosen when applied, the additions included', () => {
    const { store, session, table } = scenario();
    const [a, b, c] = session.conflicts.map((x) => x.id);
    table.decide(a, 'local');
    table.decide(b, 'both');
    table.decide(c, 'incoming');
    const check = table.apply();
    if (!check.ok) throw new Error(check.message);
    expect(session.resolve(check.decisions)).toMatchObject({ ok: true, added: 3, removed: 1, notesChanged: 0 });
    const rows = store.list().map((r) => `${r.author} ${r.stepId} ${r.label} ${r.note}`);
    expect(rows.sort()).toEqual(
      [
        'alice 1 decay-error mine',
        'alice 2 peer-confusion ',
        'alice 2 pi-leak ',
        'alice 3 random-pick uniform',
        'bob 4 format-error ',
      ].sort(),
    );
  });
});

describe('never losing a label', () => {
  it('a cancelled import (decisions made, never applied) leaves the store as it was', () => {
    const { store, table, session } = scenario();
    const before = dump(store);
    table.decideRest('incoming');
    expect(session.conflicts).toHaveLength(3);
    // Cancel: the table and session are dropped; nothing was written.
    expect(dump(store)).toBe(before);
  });

  it('a refused import (a conflict undecided) writes nothing, the additions neither', () => {
    const { store, session, table } = scenario();
    const before = dump(store);
    table.decide(session.conflicts[0].id, 'incoming');
    const partial = new Map([[session.conflicts[0].id, 'incoming' as const]]);
    expect(session.resolve(partial)).toMatchObject({ ok: false, unresolved: session.conflicts.slice(1) });
    expect(dump(store)).toBe(before);
  });

  it('an import that fails half-way through its write leaves the store as it was', () => {
    const { store, session, table } = scenario();
    const before = dump(store);
    table.decideRest('incoming');
    const check = table.apply();
    if (!check.ok) throw new Error(check.message);
    const write = store.applyInTx.bind(store);
    // The batch is written (labels removed and added), then the disk fails before the commit.
    store.applyInTx = (action) => {
      write(action);
      throw new Error('SQLITE_FULL: database or disk is full');
    };
    expect(() => session.resolve(check.decisions)).toThrow('SQLITE_FULL');
    store.applyInTx = write;
    expect(dump(store)).toBe(before);
  });
});

describe('the label import protocol', () => {
  it('accepts the page messages it knows and nothing else', () => {
    expect(isWebviewToExtension({ type: 'ready' })).toBe(true);
    expect(isWebviewToExtension({ type: 'decide', id: 'x', decision: 'incoming' })).toBe(true);
    expect(isWebviewToExtension({ type: 'decide', id: 'x', decision: 'mine' })).toBe(false);
    expect(isWebviewToExtension({ type: 'decide', decision: 'local' })).toBe(false);
    expect(isWebviewToExtension({ type: 'decideRest', decision: 'both' })).toBe(true);
    expect(isWebviewToExtension({ type: 'apply' })).toBe(true);
    expect(isWebviewToExtension({ type: 'cancel' })).toBe(true);
    expect(isWebviewToExtension({ type: 'applyAll' })).toBe(false);
  });

  it('carries the table model', () => {
    const { table } = scenario();
    const model = { file: 'bob.jsonl', summary: '5 read', additions: 1, rows: table.rows(), decided: 0, refusal: null };
    expect(isExtensionToWebview({ type: 'show', model })).toBe(true);
    expect(isExtensionToWebview({ type: 'show', model: { ...model, decided: -1 } })).toBe(false);
    expect(isExtensionToWebview({ type: 'show', model: { ...model, refusal: 3 } })).toBe(false);
  });
});
