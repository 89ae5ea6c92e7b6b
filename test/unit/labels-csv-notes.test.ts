// Label CSV cells a spreadsheet would run as formulas are written as text and read back as they were; a label's note
// has a length limit, in the store and in imported files.
import { describe, expect, it } from 'vitest';
import { csvCellIn, csvCellOut, csvRecords, parseLabelFile, toCsv } from '../../src/core/labels/exportImport';
import { MAX_NOTE_LENGTH, type LabelRow } from '../../src/core/labels/model';
import { LabelStoreError } from '../../src/core/labels/store';
import { labelStores } from './labelStore-fixture';

const stores = labelStores();

const row = (over: Partial<LabelRow> = {}): LabelRow => ({
  benchmark: 'spb',
  platform: 'weibo',
  userId: 'we_0000000001',
  stepId: 1,
  run: 'gpt',
  author: 'alice',
  target: { kind: 'step' },
  label: 'decay-error',
  note: '',
  createdAt: '2025-01-01T00:00:00.000Z',
  contentHash: '',
  ...over,
});

/** Every string of up to `n` characters from `alphabet`. */
function strings(alphabet: string[], n: number): string[] {
  let level = [''];
  const out = [''];
  for (let i = 0; i < n; i++) {
    level = level.flatMap((s) => alphabet.map((c) => s + c));
    out.push(...level);
  }
  return out;
}

const FORMULA_START = /^[=+\-@\t\r]/;

describe('CSV cells that look like formulas', () => {
  const alphabet = ["'", '=', '+', '-', '@', '\t', '\r', '\n', 'a', ',', '"'];

  it('are written so that no cell starts a formula, and every string reads back identically', () => {
    for (const s of strings(alphabet, 3)) {
      const out = csvCellOut(s);
      expect(FORMULA_START.test(out), JSON.stringify(s)).toBe(false);
      expect(csvCellIn(out), JSON.stringify(s)).toBe(s);
    }
    // A cell that really starts with a quote keeps it, and one that starts with the prefix we add keeps that too.
    expect(csvCellOut("'=1+1")).toBe("''=1+1");
    expect(csvCellIn(csvCellOut("'=1+1"))).toBe("'=1+1");
    expect(csvCellOut("'hello")).toBe("'hello");
    expect(csvCellOut('a=b')).toBe('a=b');
  });

  it('round-trip through a whole label CSV file (notes, labels, tags, users, authors)', () => {
    const tricky = ['=HYPERLINK("http://x","y")', '+1', '-1', '@SUM(A1)', '\tcmd', '\rcmd', "'=1+1", "''-2", "'", "'x"];
    const rows = tricky.flatMap((s, i) => [
      row({ stepId: i, note: s, label: s, author: `a${s}` }),
      row({ stepId: i, userId: s, author: s, target: { kind: 'tag', tag: s } }),
    ]);
    const text = toCsv(rows);
    for (const rec of csvRecords(text)) {
      for (const field of rec.fields) expect(FORMULA_START.test(field), JSON.stringify(field)).toBe(false);
    }
    const back = parseLabelFile(text, 'labels.csv', 'csv');
    expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(back.rows.map((r) => r.row)).toEqual(rows);
  });
});

describe('note length', () => {
  it('the store refuses a new note over MAX_NOTE_LENGTH characters with a clear message and keeps the old one', () => {
    const store = stores.fresh('pl-note-');
    const long = 'n'.repeat(MAX_NOTE_LENGTH + 1);
    expect(() => store.add({ ...row(), note: long })).toThrow(LabelStoreError);
    expect(() => store.add({ ...row(), note: long })).toThrow(
      `a note may hold at most ${MAX_NOTE_LENGTH} characters; this one has ${MAX_NOTE_LENGTH + 1}`,
    );
    expect(store.count()).toBe(0);

    store.add({ ...row(), note: 'first' });
    expect(() => store.setNote(row(), long)).toThrow(`at most ${MAX_NOTE_LENGTH} characters`);
    expect(store.get(row())?.note).toBe('first');
    // Characters, not UTF-16 units: MAX_NOTE_LENGTH emoji (twice as many units) fit.
    const emoji = '🙂'.repeat(MAX_NOTE_LENGTH);
    expect(store.setNote(row(), emoji).changed).toBe(true);
    expect(store.get(row())?.note).toBe(emoji);
  });

  it('an imported line with a note too long is a located error; the other lines import', () => {
    const text = toCsv([row({ stepId: 1, note: 'ok' }), row({ stepId: 2, note: 'x'.repeat(MAX_NOTE_LENGTH + 5) })]);
    const parsed = parseLabelFile(text, 'in.csv', 'csv');
    expect(parsed.rows.map((r) => r.row.stepId)).toEqual([1]);
    expect(parsed.diagnostics).toEqual([
      {
        severity: 'error',
        file: 'in.csv',
        line: 3,
        field: 'note',
        message: `a note may hold at most ${MAX_NOTE_LENGTH} characters; this one has ${MAX_NOTE_LENGTH + 5}`,
      },
    ]);
  });
});
