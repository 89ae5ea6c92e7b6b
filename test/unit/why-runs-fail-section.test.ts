// The dashboards' "why runs fail" section (src/extension/labels/gold/whyRunsFailSection.ts): its table is the runs of
// `labels gold --json` for the benchmark (the same core rows, other benchmarks left out), it says what it covers, and
// each empty state says why: no label store, no gold yet, decisions that cannot be read or not read yet.
import { describe, expect, it } from 'vitest';
import { goldReport, goldReportJson } from '../../src/core/labels/goldReport';
import { READING_DECISIONS } from '../../src/extension/labels/gold/decisionSource';
import { whyRunsFailSection, type WhyRunsFailInput } from '../../src/extension/labels/gold/whyRunsFailSection';
import { decisionOn, stepLabel } from './labelStore-fixture';

const row = stepLabel;
const decide = decisionOn;
// gpt: 1 unanimous A, 2 open, 3 decided B, 5 decided "none applies". qwen: 4 unanimous A and B. other: elsewhere.
const rows = [
  ...['ann', 'bob'].map((a) => row(a, 1, 'A')),
  row('ann', 2, 'A'),
  row('bob', 2, 'B'),
  row('ann', 3, 'A'),
  row('bob', 3, 'B'),
  row('ann', 5, 'A'),
  row('bob', 5, 'C'),
  ...['ann', 'bob'].flatMap((a) => [row(a, 4, 'A', 'qwen'), row(a, 4, 'B', 'qwen')]),
  ...['ann', 'bob'].map((a) => row(a, 9, 'C', 'gpt', 'other')),
];
const decisions = [decide(3, ['B']), decide(5, [])];
const input = (over: Partial<WhyRunsFailInput> = {}): WhyRunsFailInput => ({
  source: '/w/.personalab/labels.db',
  exists: true,
  error: null,
  benchmark: 'spb',
  rows,
  decisions: { adjudications: decisions },
  names: new Map([['A', 'Alpha']]),
  ...over,
});

describe('whyRunsFailSection', () => {
  it("is the benchmark's runs of labels gold --json, cell by cell", () => {
    const s = whyRunsFailSection(input());
    expect(s.state).toBe('shown');
    const json = goldReportJson(goldReport(rows, decisions), false).benchmarks.find((b) => b.benchmark === 'spb')!;
    expect(s.table!.runs.map((r) => [r.run, r.units, r.settled, r.failing, r.leftOut])).toEqual(
      json.runs.map((r) => [r.run, r.units, r.settled, r.failing, r.open + r.single]),
    );
    expect(s.table!.labels.map((l) => l.label)).toEqual(Object.keys(json.runs[0].byLabel));
    expect(s.table!.runs.map((r) => r.cells.map((c) => c.count))).toEqual(
      json.runs.map((r) => Object.values(r.byLabel).map((c) => c.count)),
    );
    // gpt: 3 settled (1, 3, 5), of which 5 has no failure label; 2 is open.
    expect(s.table!.runs[0]).toMatchObject({ run: 'gpt', units: 4, settled: 3, failing: 2, leftOut: 1 });
    expect(s.table!.labels[0]).toEqual({ label: 'A', name: 'Alpha' });
    expect(s.covers).toContain('"spb"');
    expect(s.covers).toContain('/w/.personalab/labels.db');
    expect(s.settled).toContain('5 step(s): 2 adjudicated, 2 unanimous, 1 open');
  });

  it('leaves the other benchmarks out', () => {
    const s = whyRunsFailSection(input({ benchmark: 'other' }));
    expect(s.table!.runs.map((r) => r.run)).toEqual(['gpt']);
    expect(s.table!.labels.map((l) => l.label)).toEqual(['C']);
  });

  it('says there is no store yet, and no gold yet, instead of an empty table', () => {
    const none = whyRunsFailSection(input({ exists: false, rows: [], decisions: { adjudications: [] } }));
    expect(none).toMatchObject({ state: 'no-store', table: null });
    expect(none.covers).toContain('does not exist');
    const open = whyRunsFailSection(
      input({ rows: [row('ann', 2, 'A'), row('bob', 2, 'B')], decisions: { adjudications: [] } }),
    );
    expect(open).toMatchObject({ state: 'no-gold', table: null });
    expect(open.message).toMatch(/No gold yet/);
    expect(open.settled).toContain('1 open');
    expect(whyRunsFailSection(input({ benchmark: 'elsewhere' })).state).toBe('no-gold');
  });

  it('says why when the decisions or the labels cannot be read', () => {
    const s = whyRunsFailSection(input({ decisions: { error: 'file is not a database' } }));
    expect(s).toMatchObject({ state: 'error', table: null });
    expect(s.message).toContain('file is not a database');
    expect(whyRunsFailSection(input({ error: 'locked' })).message).toContain('locked');
  });

  it("says the label server's decisions are being read before their first answer, never 'no gold yet'", () => {
    // Units 3 and 5 are adjudicated on the server: without its answer they would count as open.
    const s = whyRunsFailSection(input({ decisions: { reading: true } }));
    expect(s).toMatchObject({ state: 'reading', table: null, settled: '' });
    expect(s.message).toBe(READING_DECISIONS);
    expect(s.covers).toContain('"spb"');
    // Even where only open units are labelled so far.
    const open = whyRunsFailSection(
      input({ rows: [row('ann', 2, 'A'), row('bob', 2, 'B')], decisions: { reading: true } }),
    );
    expect(open.state).toBe('reading');
    expect(open.message).not.toMatch(/No gold yet/);
  });
});
