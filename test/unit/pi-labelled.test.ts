import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, parseLabelled, precision, recall } from '../../src/core/pi/evaluate';
import { PI_CATEGORIES } from '../../src/core/pi/placeholders';

const content = readFileSync(join(__dirname, '../fixtures/pi-labelled.jsonl'), 'utf8');

describe('labelled PI set', () => {
  const { cases, skipped } = parseLabelled(content);

  it('has at least 300 usable strings, hits and near misses, in every category', () => {
    expect(skipped).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(cases.filter((c) => c.expect.length === 0).length).toBeGreaterThanOrEqual(150);
    for (const cat of PI_CATEGORIES) {
      expect(cases.filter((c) => c.expect.some((e) => e.category === cat)).length, cat).toBeGreaterThanOrEqual(10);
    }
    for (const c of cases) for (const e of c.expect) expect(c.text, JSON.stringify(e)).toContain(e.text);
  });

  it('keeps precision and recall high overall and per category', () => {
    const ev = evaluate(cases, 'low', new Date('2025-06-01T00:00:00Z'));
    expect(precision(ev.overall)).toBeGreaterThanOrEqual(0.97);
    expect(recall(ev.overall)).toBeGreaterThanOrEqual(0.97);
    for (const cat of PI_CATEGORIES) {
      expect(precision(ev.perCategory[cat]), `${cat} precision`).toBeGreaterThanOrEqual(0.9);
      expect(recall(ev.perCategory[cat]), `${cat} recall`).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('keeps precision at 100 % at medium and high confidence, and finds context-free cards there', () => {
    const ev = evaluate(cases, 'medium', new Date('2025-06-01T00:00:00Z'));
    expect(ev.errors.filter((e) => e.kind === 'fp')).toEqual([]);
    expect(recall(ev.perCategory.BANK)).toBeGreaterThanOrEqual(0.95);
  });

  it('parses bad lines into `skipped` instead of throwing', () => {
    const r = parseLabelled(
      '{"text":"a","expect":[]}\nnot json\n{"text":1,"expect":[]}\n{"text":"b","expect":[{"category":"NOPE","text":"b"}]}\n\n',
    );
    expect(r.cases).toHaveLength(1);
    expect(r.skipped).toEqual([2, 3, 4]);
  });
});
