// Bad input never throws: mutated label sets and label files always come back as values with diagnostics.
import { describe, expect, it } from 'vitest';
import { csvRecords, parseLabelFile, toCsv, toJsonl } from '../../src/core/labels/exportImport';
import { scanJsonLines } from '../../src/core/labels/jsonLines';
import type { LabelRow } from '../../src/core/labels/model';
import { parseLabelSet } from '../../src/core/labels/taxonomy';
import { DEFAULT_LABELS } from '../../src/core/spb/labels/labelSet';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = ['"', ',', '{', '}', '[', ']', ':', '\\', '\n', '\r', ' ', 'a', '1', '#', '话', '\u0000', 'null', '-'];

function mutate(text: string, rand: () => number): string {
  let s = text;
  const edits = 1 + Math.floor(rand() * 6);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * (s.length + 1));
    const op = rand();
    if (op < 0.4) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rand() * 8));
    else if (op < 0.8) s = s.slice(0, at) + ALPHABET[Math.floor(rand() * ALPHABET.length)] + s.slice(at);
    else s = s.slice(0, at);
  }
  return s;
}

const rows: LabelRow[] = [1, 2, 3].map((i) => ({
  benchmark: 'spb',
  platform: 'weibo',
  userId: 'we_000000000' + i,
  stepId: i,
  run: 'r',
  author: 'a',
  target: i === 2 ? { kind: 'tag', tag: '#t,"x"#' } : { kind: 'step' },
  label: 'decay-error',
  note: i === 3 ? 'two\nlines' : '',
  createdAt: '2025-01-01T00:00:00Z',
  contentHash: '',
}));

describe('fuzzed input', () => {
  it('never throws and every diagnostic is located inside the text', () => {
    const rand = prng(20250101);
    const seeds = [JSON.stringify({ labels: DEFAULT_LABELS }, null, 2), toJsonl(rows), toCsv(rows)];
    for (let n = 0; n < 600; n++) {
      const base = seeds[n % 3];
      const text = mutate(base, rand);
      const lines = text.split('\n').length;
      if (n % 3 === 0) {
        scanJsonLines(text);
        const set = parseLabelSet(text, 'labels.json');
        expect(set.labels.length).toBeGreaterThan(0);
        for (const d of set.diagnostics) expect(d.line).toBeLessThanOrEqual(lines);
      } else {
        csvRecords(text);
        const parsed = parseLabelFile(text, 'f', n % 3 === 1 ? 'jsonl' : 'csv');
        for (const d of parsed.diagnostics) expect(d.line).toBeLessThanOrEqual(lines);
        for (const r of parsed.rows) expect(r.row.userId).not.toBe('');
      }
    }
  });
});
