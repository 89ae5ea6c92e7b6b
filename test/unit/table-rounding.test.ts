// The tables round as the reference prints (Python's half to even on the binary value), and
// their "Avg." is what the authors' stats.py computes from the eval reports (the mean of the two-decimal percentages
// it reads back), shown as its xlsx shows it; the JSON keeps the unrounded mean.
import { describe, expect, it } from 'vitest';
import { excelFixed, pyFixed, pyPercent, pyPercentFixed } from '../../src/core/io/pyNumber';
import { componentsTable } from '../../src/core/omni/componentsTable';
import type { OmniRunScore } from '../../src/core/omni/score';
import type { PlatformScore, RunScore } from '../../src/core/spb/score/run';
import { nanMean } from '../../src/core/spb/score/step';
import { scoreJson, statsAvg } from '../../src/core/spb/score/tables';
import { paperTablesText, tableModels } from '../../src/core/spb/score/paperTables';
import { METRIC_KEYS, type Platform } from '../../src/core/spb/types';
import { formatTable, pctText } from '../../src/core/tables/format';
import { wholeCoverage } from '../support/coverage';

function runOf(name: string, recalls: Partial<Record<Platform, number>>): RunScore {
  const platforms = new Map<Platform, PlatformScore>();
  for (const [p, r] of Object.entries(recalls) as [Platform, number][]) {
    const metrics = Object.fromEntries(METRIC_KEYS.map((k) => [k, k === 'Error_Decay' ? 1 - r : r]));
    platforms.set(p, {
      users: 1,
      steps: 1,
      metrics: metrics as PlatformScore['metrics'],
      f1ns: r,
      f1nsHarmonicOfMeans: NaN,
      userScores: new Map(),
    });
  }
  const figures = [...platforms.values()];
  const avg = Object.fromEntries(METRIC_KEYS.map((k) => [k, nanMean(figures.map((f) => f.metrics[k]))]));
  return {
    name,
    platforms,
    avg: { ...(avg as RunScore['avg']), F1NS: nanMean(figures.map((f) => f.f1ns)) },
    coverage: wholeCoverage(platforms.keys()),
  };
}

describe('Python rounding in every table', () => {
  it('rounds an exact binary tie half to even, as f"{v:.2%}" does', () => {
    expect(100 * 0.83125).toBe(83.125); // an exact tie in binary
    expect(pyPercent(0.83125)).toBe('83.12%');
    expect(pyPercentFixed(0.83125, 2)).toBe('83.12');
    expect(pctText(0.83125)).toBe('83.12');
    expect(pctText(0.83375)).toBe('83.38');
  });

  it('prints 83.12 for 0.83125 in the text, Markdown, LaTeX and CSV tables, as the report does', () => {
    const scores = [runOf('a', { weibo: 0.83125 }), runOf('b', { weibo: 0.5 })];
    const [t4] = tableModels(scores);
    expect(t4.rows[0].cells[0].text).toBe('83.12');
    for (const format of ['latex', 'markdown', 'csv'] as const) {
      expect(formatTable(t4, format)).toContain('83.12');
      expect(formatTable(t4, format)).not.toContain('83.13');
    }
    expect(paperTablesText(scores)).toContain('83.12');
    expect(paperTablesText(scores)).not.toContain('83.13');
  });

  it('rounds OmniBehavior components half to even', () => {
    const score = {
      components: { videoBinary: 0.125, liveBinary: 40.625 },
      overall: 12.125,
      coverage: { users: { covered: 1, total: 1 }, items: { covered: 1, total: 1 }, itemNoun: 'test action' },
    } as unknown as OmniRunScore;
    const texts = componentsTable([{ name: 'r', score }]).rows[0].cells.map((c) => c.text);
    expect(texts.slice(0, 2)).toEqual(['0.12', '40.62']);
    expect(texts.at(-1)).toBe('12.12');
  });
});

describe('Avg. as stats.py computes it', () => {
  // Recall 10.0049 %, 10.0049 %, 10.0149 %: the reports print 10.00, 10.00 and 10.01, whose mean (10.0033) shows as
  // 10.00; the mean of the unrounded figures, 10.0082 %, would show 10.01.
  const a = runOf('a', { weibo: 0.100049, douban: 0.100049, zhihu: 0.100149 });
  const b = runOf('b', { weibo: 0.5 });

  it('is the mean of the two-decimal percentages the reports hold', () => {
    expect(statsAvg(a, 'Recall')).toBeCloseTo((10.0 + 10.0 + 10.01) / 3, 12);
    expect(statsAvg(a, 'F1NS')).toBeCloseTo((10.0 + 10.0 + 10.01) / 3, 12);
    expect(statsAvg(runOf('none', {}), 'Recall')).toBeUndefined();
  });

  it('fills the Avg. cells of every table format, while the JSON keeps the unrounded mean', () => {
    const [t4, t5] = tableModels([a, b]);
    const avgR = t4.columns.findIndex((c) => c.group === 'Avg.' && c.head === 'R');
    expect(t4.rows[0].cells[avgR].text).toBe('10.00');
    expect(t5.rows[0].cells.at(-1)!.text).toBe('10.00');
    expect(formatTable(t4, 'csv').split('\r\n')[1]).toBe('a,10.00,10.00,10.01,10.01,10.00,10.00,10.00,10.00');
    // title, the platforms over their columns, the column heads, the rule, then the first run
    const text = paperTablesText([a, b]).split('\n');
    expect(text[4].trim().split(/\s+/).slice(-2)).toEqual(['10.00', '10.00']);
    expect(scoreJson([a, b]).runs[0].avg.Recall).toBeCloseTo(0.10008233333333333, 15);
  });

  it('shows a tie of the mean as the xlsx does (half away from zero), with two platforms', () => {
    // reports 83.12 and 83.13: their mean 83.125 shows as 83.13 in Excel (Python's round would give 83.12), while
    // the unrounded mean, 83.12055 %, would show 83.12
    const two = runOf('two', { weibo: 0.83116, douban: 0.831251 });
    const [t4] = tableModels([two]);
    const avgR = t4.columns.findIndex((c) => c.group === 'Avg.' && c.head === 'R');
    expect(t4.rows[0].cells[avgR].text).toBe('83.13');
  });
});

describe('excelFixed', () => {
  it('shows the 15-digit value rounded half away from zero', () => {
    expect(excelFixed(83.125, 2)).toBe('83.13');
    expect(pyFixed(83.125, 2)).toBe('83.12');
    expect(excelFixed(2.675, 2)).toBe('2.68');
    expect(excelFixed(0.004, 2)).toBe('0.00');
    expect(excelFixed(0.005, 2)).toBe('0.01');
    expect(excelFixed(99.995, 2)).toBe('100.00');
    expect(excelFixed(7, 2)).toBe('7.00');
    expect(excelFixed(0.1 + 0.2, 2)).toBe('0.30');
    expect(excelFixed(-1.005, 2)).toBe('-1.01');
    expect(excelFixed(1e-20, 2)).toBe('0.00');
  });
});
