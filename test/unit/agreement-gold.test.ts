// The Label Agreement's gold part (src/extension/labels/agreement/gold.ts): the page's cells are the core report's
// figures (`labels gold`), why runs fail has a column per run in the label order of its rows, and a benchmark with
// no settled, open or decided unit is left out.
import { describe, expect, it } from 'vitest';
import { goldReport, goldReportJson } from '../../src/core/labels/goldReport';
import { goldTables, GoldTablesMemo } from '../../src/extension/labels/agreement/gold';
import { READING_DECISIONS } from '../../src/extension/labels/gold/decisionSource';
import { goldMarkdown } from '../../src/extension/labels/agreement/goldMarkdown';
import { decisionOn, stepLabel } from './labelStore-fixture';

const row = stepLabel;
const decide = decisionOn;

// gpt: 1 unanimous A, 2 open, 3 adjudicated B. qwen: 4 unanimous A and B. other: one annotator only.
const rows = [
  row('ann', 1, 'A'),
  row('bob', 1, 'A'),
  row('ann', 2, 'A'),
  row('bob', 2, 'B'),
  row('ann', 3, 'A'),
  row('bob', 3, 'B'),
  row('ann', 4, 'A', 'qwen'),
  row('ann', 4, 'B', 'qwen'),
  row('bob', 4, 'A', 'qwen'),
  row('bob', 4, 'B', 'qwen'),
  row('ann', 9, 'C', 'gpt', 'other'),
];

describe('goldTables', () => {
  const tables = goldTables(rows, [decide(3, ['B'])], new Map([['A', 'Alpha']]));

  it('has one block per benchmark with gold, with the report’s counts', () => {
    expect(tables.map((t) => t.benchmark)).toEqual(['spb']);
    expect(tables[0].countsText).toBe('4 step(s): 1 adjudicated, 2 unanimous, 1 open, 0 by one annotator only');
  });

  it('counts why each run fails in the label order of its rows', () => {
    const t = tables[0];
    expect(t.whyRunsFail.labels).toEqual([
      { label: 'A', name: 'Alpha' },
      { label: 'B', name: 'B' },
    ]);
    expect(t.whyRunsFail.runs).toEqual([
      {
        run: 'gpt',
        units: 3,
        settled: 2,
        failing: 2,
        leftOut: 1,
        cells: [
          { count: 1, share: '50.0%' },
          { count: 1, share: '50.0%' },
        ],
      },
      {
        run: 'qwen',
        units: 1,
        settled: 1,
        failing: 1,
        leftOut: 0,
        cells: [
          { count: 1, share: '100.0%' },
          { count: 1, share: '100.0%' },
        ],
      },
    ]);
  });

  it('gives each annotator’s figures against gold as the report does', () => {
    const json = goldReportJson(goldReport(rows, [decide(3, ['B'])]), false).benchmarks.find(
      (b) => b.benchmark === 'spb',
    )!;
    const t = tables[0];
    expect(t.annotators.map((a) => [a.author, a.units, a.adjudicated])).toEqual(
      json.annotators.map((a) => [a.author, a.units, a.adjudicated]),
    );
    const ann = t.annotators[0];
    expect(ann.rows[0]).toMatchObject({ name: '(all labels)', kappa: json.annotators[0].overall.kappa?.toFixed(3) });
    expect(ann.rows.slice(1).map((r) => r.name)).toEqual(['Alpha', 'B']);
  });
});

describe('goldMarkdown (Copy as Markdown)', () => {
  const tables = goldTables(rows, [decide(3, ['B'])], new Map([['A', 'Alpha']]));
  const md = goldMarkdown({ gold: tables, goldError: null, goldReading: null }).split('\n');

  it('carries the counts, why runs fail and each annotator against gold, cell for cell as the page', () => {
    expect(md[0]).toBe('## Gold');
    expect(md).toContain('4 step\\(s\\): 1 adjudicated, 2 unanimous, 1 open, 0 by one annotator only');
    expect(md).toContain('| Label | gpt | qwen |');
    expect(md).toContain('| failing of settled | 2 of 2 | 1 of 1 |');
    expect(md).toContain('| Alpha | 1 (50.0%) | 1 (100.0%) |');
    const ann = tables[0].annotators[0];
    const overall = ann.rows[0];
    expect(md).toContain(
      `| ${ann.author} | \\(all labels\\) | ${ann.units} | ${ann.adjudicated} | ${overall.precision} | ${overall.recall} | ${overall.kappa} | ${overall.interval} |`,
    );
  });

  it('says why there is no gold, and a read error', () => {
    const empty = goldMarkdown({ gold: [], goldError: 'file is not a database', goldReading: null });
    expect(empty).toContain('No gold yet');
    expect(empty).toContain('The decisions cannot be read: file is not a database');
  });

  it("says the label server's decisions are being read, never 'no gold yet', before their first answer", () => {
    const memo = new GoldTablesMemo();
    const reading = memo.part(rows, { reading: true }, new Map());
    expect(reading).toEqual({ gold: [], goldError: null, goldReading: READING_DECISIONS });
    const md = goldMarkdown(reading);
    expect(md).toContain('Reading the decisions from the label server');
    expect(md).not.toContain('No gold yet');
    // Once read: the tables, and a failed read keeps the unanimous units' tables with its reason.
    expect(memo.part(rows, { adjudications: [decide(3, ['B'])] }, new Map([['A', 'Alpha']])).gold).toEqual(tables);
    const failed = memo.part(rows, { error: 'connection refused' }, new Map());
    expect(failed.goldError).toBe('connection refused');
    expect(failed.goldReading).toBeNull();
    expect(failed.gold[0].counts.adjudicated).toBe(0);
  });
});
