import { describe, expect, it } from 'vitest';
import type { PlatformScore, RunScore } from '../../src/core/spb/score/run';
import { nanMean } from '../../src/core/spb/score/step';
import { METRIC_KEYS, type MetricKey, type Platform } from '../../src/core/spb/types';
import { execFileSync, spawnSync } from 'node:child_process';
import { omniBehavior } from '../../src/core/formats';
import { componentsTable } from '../../src/core/omni/componentsTable';
import { COMPONENT_LABELS, COMPONENTS } from '../../src/core/omni/fields';
import { scoreOmniRun, type OmniRunScore } from '../../src/core/omni/score';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { scoreRun } from '../../src/core/spb/score/run';
import { tableModels } from '../../src/core/spb/score/paperTables';
import { formatTable, pctText, rankColumn, tableCsv, tableLatex, tableMarkdown } from '../../src/core/tables/format';
import { wholeCoverage } from '../support/coverage';
import { OMNI_SAMPLE, SAMPLE } from '../support/committedSample';

function platform(values: Partial<Record<MetricKey, number>>, f1ns: number): PlatformScore {
  const metrics = Object.fromEntries(METRIC_KEYS.map((k) => [k, values[k] ?? NaN])) as Record<MetricKey, number>;
  return { users: 1, steps: 1, metrics, f1ns, f1nsHarmonicOfMeans: NaN, userScores: new Map() };
}

function run(name: string, per: Partial<Record<Platform, [recall: number, f1: number, decay: number]>>): RunScore {
  const platforms = new Map<Platform, PlatformScore>();
  for (const [p, [recall, f1, decay]] of Object.entries(per) as [Platform, [number, number, number]][]) {
    platforms.set(
      p,
      platform({ Recall: recall, Error_Decay: decay, Recall_Stability: recall, Recall_Novelty: 1 - recall }, f1),
    );
  }
  const figures = [...platforms.values()];
  const avg = Object.fromEntries(
    METRIC_KEYS.map((k) => [k, nanMean(figures.map((f) => f.metrics[k]))]),
  ) as RunScore['avg'];
  avg.F1NS = nanMean(figures.map((f) => f.f1ns));
  // These tables are about marks and formats: every run is given one coverage, so all are ranked together.
  return { name, platforms, avg, coverage: wholeCoverage(['weibo', 'douban']) };
}

const scores = [
  run('alpha', { weibo: [0.4, 0.3, 0.5], douban: [0.2, 0.1, 0.1] }),
  run('beta|x', { weibo: [0.5, 0.3, 0.2], douban: [0.1, NaN, 0.3] }),
  run('gamma', { weibo: [0.45, 0.2, 0.2] }),
];

describe('rankColumn', () => {
  it('marks best and second best on the shown figures, lowest first for error rates', () => {
    expect(rankColumn(['40.00', '50.00', '45.00'], false)).toEqual([0, 1, 2]);
    expect(rankColumn(['40.00', '50.00', '45.00'], true)).toEqual([1, 0, 2]);
    // a tie is never marked: two rows at 50.00 share no best, and 45.00 is third, not second
    expect(rankColumn(['50.00', '50.00', '45.00'], false)).toEqual([0, 0, 0]);
    expect(rankColumn(['5.00', '0.00', '0.00', '0.00'], false)).toEqual([1, 0, 0, 0]);
    expect(rankColumn(['50.00', '45.00', '45.00'], false)).toEqual([1, 0, 0]);
    // undefined figures are never ranked; best needs two figures, second three
    expect(rankColumn(['—', '50.00', '45.00'], false)).toEqual([0, 1, 0]);
    expect(rankColumn(['50.00', '—', '—'], false)).toEqual([0, 0, 0]);
  });
});

describe('tableModels', () => {
  const [t4, t5, t6] = tableModels(scores);

  it('lays out Table 4 as platform (R, F1NS) pairs and the Avg.', () => {
    expect(t4.columns.map((c) => `${c.group} ${c.head}`)).toEqual([
      'Weibo R',
      'Weibo F1^NS',
      'Douban R',
      'Douban F1^NS',
      'Avg. R',
      'Avg. F1^NS',
    ]);
    expect(t4.rows.map((r) => r.run)).toEqual(['alpha', 'beta|x', 'gamma']);
    expect(t4.rows[0].cells.map((c) => c.text)).toEqual(['40.00', '30.00', '20.00', '10.00', '30.00', '20.00']);
    // gamma has no douban results; beta's douban F1NS is undefined
    expect(t4.rows[2].cells[2]).toEqual({ text: '—', value: null, rank: 0 });
    expect(t4.rows[1].cells[3].text).toBe('—');
    // Weibo R: beta 50 best, gamma 45 second; Weibo F1NS: alpha and beta tie at 30 (best), gamma 20 second
    expect(t4.rows.map((r) => r.cells[0].rank)).toEqual([0, 1, 2]);
    expect(t4.rows.map((r) => r.cells[1].rank)).toEqual([0, 0, 0]);
    expect(t5.columns[0]).toEqual({
      group: 'Weibo',
      head: 'R_stab',
      latex: '$R_{\\mathrm{stab}}$',
      lowerIsBetter: false,
    });
  });

  it('ranks Table 6 error rates lowest first', () => {
    expect(t6.columns.slice(0, 4).map((c) => c.head)).toEqual(['Err_decay', 'Err_peer', 'Err_viral', 'Err_random']);
    expect(t6.columns.every((c) => c.lowerIsBetter)).toBe(true);
    // Weibo E_decay: alpha 50, beta 20, gamma 20 -> beta and gamma best, alpha second
    expect(t6.rows.map((r) => r.cells[0].rank)).toEqual([0, 0, 0]);
  });

  it('copies as Markdown with bold best, underlined second and escaped run names', () => {
    const md = tableMarkdown(t4);
    const lines = md.trimEnd().split('\n');
    expect(lines[0]).toBe('**Table 4. Recall and F1^NS (%), two-level macro average**');
    expect(lines[2]).toBe('| Run | Weibo R | Weibo F1^NS | Douban R | Douban F1^NS | Avg. R | Avg. F1^NS |');
    expect(lines[3]).toBe('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    // Douban R has two figures (best only), Douban F1NS one (no mark); Avg. R: gamma 45 best, 30 and 30 second
    expect(lines[4]).toBe('| alpha | 40.00 | 30.00 | **20.00** | 10.00 | 30.00 | 20.00 |');
    expect(lines[5]).toBe('| beta\\|x | **50.00** | 30.00 | 10.00 | — | 30.00 | **30.00** |');
    expect(lines[6]).toBe('| gamma | <u>45.00</u> | 20.00 | — | — | **45.00** | 20.00 |');
  });

  it('copies as RFC 4180 CSV, quoting where needed, empty for undefined', () => {
    const csv = tableCsv(tableModels([run('a,"b"', { weibo: [0.12345, 0.5, 0] })])[0]);
    expect(csv).toBe('Run,Weibo R,Weibo F1^NS,Avg. R,Avg. F1^NS\r\n"a,""b""",12.35,50.00,12.35,50.00\r\n');
    expect(tableCsv(t4).split('\r\n')[3]).toBe('gamma,45.00,20.00,,,45.00,20.00');
    expect(pctText(NaN)).toBe('—');
    expect(pctText(0.00005)).toBe('0.01');
  });
});

describe('tableLatex', () => {
  const [t4, , t6] = tableModels(scores);

  it('writes a booktabs table: platform groups, symbols in math mode, bold best, underlined second', () => {
    const lines = tableLatex(t4).trimEnd().split('\n');
    expect(lines.slice(0, 7)).toEqual([
      '% \\usepackage{booktabs}',
      '\\begin{table}[t]',
      '\\centering',
      '\\caption{Recall and F1$^{\\mathrm{NS}}$ (\\%), two-level macro average}',
      '\\label{tab:t4}',
      '\\begin{tabular}{lrrrrrr}',
      '\\toprule',
    ]);
    expect(lines[7]).toBe(
      ' & \\multicolumn{2}{c}{Weibo} & \\multicolumn{2}{c}{Douban} & \\multicolumn{2}{c}{Avg.} \\\\',
    );
    expect(lines[8]).toBe('\\cmidrule(lr){2-3} \\cmidrule(lr){4-5} \\cmidrule(lr){6-7}');
    expect(lines[9]).toBe(
      'Run & $R$ & $\\mathrm{F1}^{\\mathrm{NS}}$ & $R$ & $\\mathrm{F1}^{\\mathrm{NS}}$ & $R$ & $\\mathrm{F1}^{\\mathrm{NS}}$ \\\\',
    );
    expect(lines[10]).toBe('\\midrule');
    // The same marks as the Markdown above; "beta|x" needs no escape in LaTeX, an undefined figure is "--".
    expect(lines[11]).toBe('alpha & 40.00 & 30.00 & \\textbf{20.00} & 10.00 & 30.00 & 20.00 \\\\');
    expect(lines[12]).toBe('beta|x & \\textbf{50.00} & 30.00 & 10.00 & -- & 30.00 & \\textbf{30.00} \\\\');
    expect(lines.slice(-3)).toEqual(['\\bottomrule', '\\end{tabular}', '\\end{table}']);
    expect(tableLatex(t6)).toContain(
      'Run & $E_{\\mathrm{decay}}$ & $E_{\\mathrm{peer}}$ & $E_{\\mathrm{viral}}$ & $E_{\\mathrm{rand}}$',
    );
  });

  it('escapes what LaTeX would read as commands in run names', () => {
    const tex = tableLatex(tableModels([run('gpt_4o & 50% {x} #1 ~a^b\\', { weibo: [0.5, 0.5, 0] })])[0]);
    expect(tex).toContain(
      '\ngpt\\_4o \\& 50\\% \\{x\\} \\#1 \\textasciitilde{}a\\textasciicircum{}b\\textbackslash{} & ',
    );
  });
});

describe('persona-lab score --format', () => {
  it('prints the tables the dashboard copies, in each format', async () => {
    const bench = await loadBenchmark(SAMPLE);
    const models = tableModels([...bench.runs.values()].map((r) => scoreRun(bench, r)));
    for (const format of ['latex', 'markdown', 'csv'] as const) {
      const out = execFileSync(process.execPath, ['dist/cli.js', 'score', SAMPLE, '--format', format, '--no-cache'], {
        encoding: 'utf8',
      });
      const tables = models.map((t) => formatTable(t, format)).join('\n');
      // Under the tables, the sample's one failed request (demo-llm), both figures named; CSV stays bare data.
      const note = {
        latex:
          /^\n% Failed requests [^\n]*\n% demo-llm: 1 of 166 steps; Avg\. R [\d.]+ % \(official, with them\), [\d.]+ % excluding failed requests, not the paper's figure\n\n$/,
        markdown:
          /^\n_Failed requests [^\n]*_\n- demo-llm: 1 of 166 steps; [^\n]* excluding failed requests, not the paper's figure\n\n$/,
        csv: /^\n$/,
      }[format];
      expect(out.startsWith(tables)).toBe(true);
      expect(out.slice(tables.length)).toMatch(note);
    }
    expect(() =>
      execFileSync(process.execPath, ['dist/cli.js', 'score', SAMPLE, '--format', 'html'], { stdio: 'pipe' }),
    ).toThrow(/expected one of latex, markdown, csv/);
  });
});

describe('OmniBehavior components table', () => {
  const omniScore = (components: (number | undefined)[], overall: number | undefined) =>
    ({
      components: Object.fromEntries(COMPONENTS.map((c, i) => [c, components[i]])),
      overall,
      coverage: { users: { covered: 1, total: 1 }, items: { covered: 1, total: 1 }, itemNoun: 'test action' },
    }) as unknown as OmniRunScore;

  it('puts each run on a row, the six components then the overall, best and second marked', () => {
    const t = componentsTable([
      { name: 'a', score: omniScore([10, 20, 30, 40, 50, 60], 35) },
      { name: 'b', score: omniScore([20, 20, 10, 40, 50, undefined], undefined) },
      { name: 'c', score: omniScore([15, 10, 5, 40, 55, 61], 31) },
    ]);
    expect(t.columns.map((c) => c.head)).toEqual([...COMPONENTS.map((c) => COMPONENT_LABELS[c]), 'Overall']);
    expect(t.rows.map((r) => r.cells.map((c) => c.text))).toEqual([
      ['10.00', '20.00', '30.00', '40.00', '50.00', '60.00', '35.00'],
      ['20.00', '20.00', '10.00', '40.00', '50.00', '—', '—'],
      ['15.00', '10.00', '5.00', '40.00', '55.00', '61.00', '31.00'],
    ]);
    expect(t.rows.map((r) => r.cells[0].rank)).toEqual([0, 1, 2]);
    expect(t.rows.map((r) => r.cells[6].rank)).toEqual([1, 0, 0]); // two figures: best only
    const md = tableMarkdown(t).split('\n');
    expect(md[2].startsWith(`| Run | Components ${COMPONENT_LABELS.videoBinary} |`)).toBe(true);
    expect(md[2].endsWith('| Components Shop text (judge × 10) | Overall |')).toBe(true);
    const tex = tableLatex(t);
    expect(tex).toContain(' & \\multicolumn{6}{c}{Components} & \\multicolumn{1}{c}{} \\\\\n\\cmidrule(lr){2-7}\n');
    expect(tex).toContain('Video (100 $-$ NMAE) & Shop text (judge $\\times$ 10) & Overall \\\\');
  });

  it('is what `score --format` prints for an OmniBehavior folder', async () => {
    const loaded = await omniBehavior.load(OMNI_SAMPLE);
    if (loaded.format !== 'omnibehavior') throw new Error('not an OmniBehavior folder');
    const bench = loaded.bench;
    const t = componentsTable([...bench.runs.values()].map((r) => ({ name: r.name, score: scoreOmniRun(bench, r) })));
    for (const format of ['latex', 'csv'] as const) {
      const run = spawnSync(process.execPath, ['dist/cli.js', 'score', OMNI_SAMPLE, '--format', format], {
        encoding: 'utf8',
      });
      expect(run.stdout).toBe(formatTable(t, format) + '\n');
    }
  });
});
