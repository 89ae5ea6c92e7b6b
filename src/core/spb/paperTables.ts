// The paper's Tables 4, 5 and 6 as data (cells with best / second best marks, for the dashboard) and as LaTeX,
// Markdown or CSV (the dashboard's copy buttons and `persona-lab score --format`). Columns follow tables.ts.
import type { RunScore } from './score/run';
import { PLATFORM_LABELS } from './tables';
import { PLATFORMS, type MetricKey, type Platform } from './types';

export const TABLE_IDS = ['t4', 't5', 't6'] as const;
export type TableId = (typeof TABLE_IDS)[number];
export const TABLE_FORMATS = ['latex', 'markdown', 'csv'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

export interface TableColumn {
  /** platform label or "Avg." */
  group: string;
  head: string;
  lowerIsBetter: boolean;
}
export interface TableCell {
  /** percentage with two decimals, or "—" */
  text: string;
  value: number | null;
  /** 1 best, 2 second best, 0 neither (ranked on the shown figures) */
  rank: 0 | 1 | 2;
}
export interface TableModel {
  id: TableId;
  title: string;
  columns: TableColumn[];
  rows: { run: string; cells: TableCell[] }[];
}

type Key = MetricKey | 'F1NS';

interface ColumnDef extends TableColumn {
  value: (s: RunScore) => number | undefined;
}

const TITLES: Record<TableId, string> = {
  t4: 'Table 4. Recall and F1^NS (%), two-level macro average',
  t5: 'Table 5. Stability and novelty recall (%)',
  t6: 'Table 6. Error rates by distractor class (%), lower is better',
};

function platformValue(p: Platform, key: Key): (s: RunScore) => number | undefined {
  return (s) => {
    const ps = s.platforms.get(p);
    return ps ? (key === 'F1NS' ? ps.f1ns : ps.metrics[key]) : undefined;
  };
}

function columns(id: TableId, platforms: readonly Platform[]): ColumnDef[] {
  const pair = (a: [Key, string], b: [Key, string]): ColumnDef[] => [
    ...platforms.flatMap((p) =>
      [a, b].map(([key, head]) => ({
        group: PLATFORM_LABELS[p],
        head,
        lowerIsBetter: false,
        value: platformValue(p, key),
      })),
    ),
    ...[a, b].map(([key, head]) => ({
      group: 'Avg.',
      head,
      lowerIsBetter: false,
      value: (s: RunScore) => (key === 'F1NS' ? s.avg.F1NS : s.avg[key]),
    })),
  ];
  if (id === 't4') return pair(['Recall', 'R'], ['F1NS', 'F1NS']);
  if (id === 't5') return pair(['Recall_Stability', 'R_stab'], ['Recall_Novelty', 'R_nov']);
  const errors: [Key, string][] = [
    ['Error_Decay', 'E_decay'],
    ['Error_Peer', 'E_peer'],
    ['Error_Viral', 'E_viral'],
    ['Error_Random', 'E_rand'],
  ];
  return platforms.flatMap((p) =>
    errors.map(([key, head]) => ({
      group: PLATFORM_LABELS[p],
      head,
      lowerIsBetter: true,
      value: platformValue(p, key),
    })),
  );
}

/** Percentage with two decimals, as the paper prints it; "—" when undefined. */
export function pctText(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? '—' : (100 * x).toFixed(2);
}

/**
 * Ranks of one column on the shown figures (two decimals), so that equal-looking numbers share a rank: 1 for the
 * best, 2 for the second best distinct figure. Best needs at least two defined figures, second best three.
 */
export function rankColumn(texts: readonly string[], lowerIsBetter: boolean): (0 | 1 | 2)[] {
  const values = texts.map((t) => (t === '—' ? NaN : Number(t)));
  const defined = values.filter((v) => !Number.isNaN(v));
  const distinct = [...new Set(defined)].sort((a, b) => (lowerIsBetter ? a - b : b - a));
  return values.map((v) => {
    if (Number.isNaN(v) || defined.length < 2) return 0;
    if (v === distinct[0]) return 1;
    if (defined.length >= 3 && v === distinct[1]) return 2;
    return 0;
  });
}

export function tableModels(scores: readonly RunScore[]): TableModel[] {
  const platforms = PLATFORMS.filter((p) => scores.some((s) => s.platforms.has(p)));
  return TABLE_IDS.map((id) => {
    const cols = columns(id, platforms);
    const texts = scores.map((s) => cols.map((c) => pctText(c.value(s))));
    const ranks = cols.map((c, ci) =>
      rankColumn(
        texts.map((row) => row[ci]),
        c.lowerIsBetter,
      ),
    );
    return {
      id,
      title: TITLES[id],
      columns: cols.map(({ group, head, lowerIsBetter }) => ({ group, head, lowerIsBetter })),
      rows: scores.map((s, ri) => ({
        run: s.name,
        cells: cols.map((c, ci): TableCell => {
          const v = c.value(s);
          return { text: texts[ri][ci], value: v !== undefined && Number.isFinite(v) ? v : null, rank: ranks[ci][ri] };
        }),
      })),
    };
  });
}

function mdEscape(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|#]/g, '\\$&');
}

/** GitHub-flavoured Markdown: best in bold, second best underlined (<u>), as in the paper. */
export function tableMarkdown(t: TableModel): string {
  const head = ['Run', ...t.columns.map((c) => `${c.group} ${c.head}`)];
  const lines = [
    `**${mdEscape(t.title)}**`,
    '',
    `| ${head.map(mdEscape).join(' | ')} |`,
    `| ${['---', ...t.columns.map(() => '---:')].join(' | ')} |`,
  ];
  for (const row of t.rows) {
    const cells = row.cells.map((c) => (c.rank === 1 ? `**${c.text}**` : c.rank === 2 ? `<u>${c.text}</u>` : c.text));
    lines.push(`| ${[mdEscape(row.run), ...cells].join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV of the shown figures (percent, two decimals); an undefined figure is an empty field. */
export function tableCsv(t: TableModel): string {
  const lines = [['Run', ...t.columns.map((c) => `${c.group} ${c.head}`)].map(csvField).join(',')];
  for (const row of t.rows)
    lines.push([row.run, ...row.cells.map((c) => (c.text === '—' ? '' : c.text))].map(csvField).join(','));
  return lines.join('\r\n') + '\r\n';
}

const LATEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

function texEscape(text: string): string {
  return text.replace(/[\\&%$#_{}~^]/g, (c) => LATEX_SPECIAL[c]);
}

/** Column heads in LaTeX: the paper's symbols (R, F1^NS, R_stab, E_decay …) in math mode. */
function texHead(head: string): string {
  const m = /^(R|E|F1)(?:_?(NS|stab|nov|decay|peer|viral|rand))?$/.exec(head);
  if (!m) return texEscape(head);
  const sub = m[2] ? (m[1] === 'F1' ? `^{\\mathrm{${m[2]}}}` : `_{\\mathrm{${m[2]}}}`) : '';
  return `$${m[1] === 'F1' ? '\\mathrm{F1}' : m[1]}${sub}$`;
}

/**
 * A booktabs table as in the papers: platforms as column groups with \cmidrule, best in bold, second best
 * underlined, "—" for an undefined figure. Needs \usepackage{booktabs} in the preamble.
 */
export function tableLatex(t: TableModel): string {
  const groups: { name: string; span: number }[] = [];
  for (const c of t.columns) {
    const last = groups.at(-1);
    if (last && last.name === c.group) last.span++;
    else groups.push({ name: c.group, span: 1 });
  }
  const rules: string[] = [];
  let at = 2;
  for (const g of groups) {
    rules.push(`\\cmidrule(lr){${at}-${at + g.span - 1}}`);
    at += g.span;
  }
  const cell = (c: TableCell) =>
    c.text === '—' ? '--' : c.rank === 1 ? `\\textbf{${c.text}}` : c.rank === 2 ? `\\underline{${c.text}}` : c.text;
  const lines = [
    '% \\usepackage{booktabs}',
    '\\begin{table}[t]',
    '\\centering',
    `\\caption{${texEscape(t.title.replace(/^Table \d+\.\s*/, '')).replace('F1\\textasciicircum{}NS', 'F1$^{\\mathrm{NS}}$')}}`,
    `\\label{tab:${t.id}}`,
    `\\begin{tabular}{l${'r'.repeat(t.columns.length)}}`,
    '\\toprule',
    ` & ${groups.map((g) => `\\multicolumn{${g.span}}{c}{${texEscape(g.name)}}`).join(' & ')} \\\\`,
    rules.join(' '),
    `Run & ${t.columns.map((c) => texHead(c.head)).join(' & ')} \\\\`,
    '\\midrule',
    ...t.rows.map((r) => `${texEscape(r.run)} & ${r.cells.map(cell).join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
  ];
  return lines.join('\n') + '\n';
}

export function formatTable(t: TableModel, format: TableFormat): string {
  return format === 'latex' ? tableLatex(t) : format === 'markdown' ? tableMarkdown(t) : tableCsv(t);
}
