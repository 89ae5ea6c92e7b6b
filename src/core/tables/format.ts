// Tables of figures with best and second best marked, as LaTeX (booktabs, as in the papers), Markdown or CSV: every
// format's paper tables (each format builds its TableModels).
export const TABLE_FORMATS = ['latex', 'markdown', 'csv'] as const;
import { pyPercentFixed } from '../io/pyNumber';
export type TableFormat = (typeof TABLE_FORMATS)[number];

export interface TableColumn {
  /** the heading over a group of columns: a platform, "Avg.", a kind of component */
  group: string;
  head: string;
  /** The head as the paper typesets it in LaTeX (a metric's symbol); the escaped head when absent. */
  latex?: string;
  lowerIsBetter: boolean;
}
export interface TableCell {
  /** the figure with two decimals (a percentage), or "—" */
  text: string;
  value: number | null;
  /** 1 best, 2 second best, 0 neither (ranked on the shown figures) */
  rank: 0 | 1 | 2;
}
/** What a row's figures cover (core/coverage.ts): a row over part of the benchmark is marked and footnoted. */
export interface RowCoverage {
  whole: boolean;
  /** "1 of 10 users, 2 of 17 steps (Weibo: 1 of 2 users, 2 of 4 steps; none of Zhihu)", "all 10 users, all 166 steps" */
  text: string;
}
export interface TableRow {
  run: string;
  cells: TableCell[];
  coverage?: RowCoverage;
}
export interface TableModel<Id extends string = string> {
  id: Id;
  title: string;
  columns: TableColumn[];
  rows: TableRow[];
  /** what a whole row covers: "the benchmark" (the default) or "sample s5 (5 users)" */
  scope?: string;
}

/** The mark of a row whose figures cover part of the benchmark (or sample), explained under its table. */
export const PARTIAL_MARK = '‡';

const isPartial = (r: TableRow) => r.coverage !== undefined && !r.coverage.whole;

/** A row's name as shown, with the partial mark when it covers part of the scope. */
export const rowName = (r: TableRow) => (isPartial(r) ? `${r.run} ${PARTIAL_MARK}` : r.run);

/**
 * The footnote of a table with partial rows: a heading, then one line per such row ("one-user: over 1 of 10 users,
 * …"). Empty when every row is whole, so a table of whole runs prints as it always has.
 */
export function coverageFootnote(t: TableModel): string[] {
  const partial = t.rows.filter(isPartial);
  if (partial.length === 0) return [];
  return [
    `${PARTIAL_MARK} Over part of ${t.scope ?? 'the benchmark'}: these figures cover only what the run has results for`,
    ...partial.map((r) => `${r.run}: over ${r.coverage!.text}`),
  ];
}

/** Percentage with two decimals, rounded as the reference's reports print it (f"{v:.2%}"); "—" when undefined. */
export function pctText(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? '—' : pyPercentFixed(x, 2);
}

/**
 * Ranks of one column on the shown figures (two decimals), so that equal-looking numbers compare equal: 1 for the
 * best, 2 for the second best (competition ranking: one more than the rows strictly better). A figure that several
 * rows share gets no mark, so that a tie is never shown as a best or second best. Best needs at least two defined
 * figures, second best three.
 */
export function rankColumn(texts: readonly string[], lowerIsBetter: boolean): (0 | 1 | 2)[] {
  const values = texts.map((t) => (t === '—' ? NaN : Number(t)));
  const defined = values.filter((v) => !Number.isNaN(v));
  return values.map((v) => {
    if (Number.isNaN(v) || defined.length < 2) return 0;
    if (defined.filter((x) => x === v).length > 1) return 0;
    const rank = 1 + defined.filter((x) => (lowerIsBetter ? x < v : x > v)).length;
    if (rank === 1) return 1;
    if (rank === 2 && defined.length >= 3) return 2;
    return 0;
  });
}

/** "Weibo R", "Avg. F1NS"; a column without a group is its head alone. */
const columnName = (c: TableColumn) => (c.group ? `${c.group} ${c.head}` : c.head);

export function mdEscape(text: string): string {
  return text.replace(/[\\`*_{}[\]<>|#]/g, '\\$&');
}

/** GitHub-flavoured Markdown: best in bold, second best underlined (<u>), as in the paper. */
export function tableMarkdown(t: TableModel): string {
  const head = ['Run', ...t.columns.map(columnName)];
  const lines = [
    `**${mdEscape(t.title)}**`,
    '',
    `| ${head.map(mdEscape).join(' | ')} |`,
    `| ${['---', ...t.columns.map(() => '---:')].join(' | ')} |`,
  ];
  for (const row of t.rows) {
    const cells = row.cells.map((c) => (c.rank === 1 ? `**${c.text}**` : c.rank === 2 ? `<u>${c.text}</u>` : c.text));
    lines.push(`| ${[mdEscape(rowName(row)), ...cells].join(' | ')} |`);
  }
  const [heading, ...notes] = coverageFootnote(t);
  if (heading) lines.push('', `_${mdEscape(heading)}_`, '', ...notes.map((n) => `- ${mdEscape(n)}`));
  return lines.join('\n') + '\n';
}

/** A CSV field as RFC 4180 (and Python's csv.writer) quote it: only when it holds a quote, a comma or a line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 CSV of the shown figures (percent, two decimals); an undefined figure is an empty field. When a row covers
 * part of the benchmark, a last column "Coverage" gives every row's ("1 of 10 users, 2 of 17 steps (…)", "all 10
 * users, all 166 steps"), so the file stays one rectangle of data; a table of whole runs has no such column.
 */
export function tableCsv(t: TableModel): string {
  const withCoverage = t.rows.some(isPartial);
  const head = ['Run', ...t.columns.map(columnName), ...(withCoverage ? ['Coverage'] : [])];
  const lines = [head.map(csvField).join(',')];
  for (const row of t.rows) {
    const cells = [row.run, ...row.cells.map((c) => (c.text === '—' ? '' : c.text))];
    if (withCoverage) cells.push(row.coverage?.text ?? '');
    lines.push(cells.map(csvField).join(','));
  }
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
  '−': '$-$',
  '×': '$\\times$',
};

const TEX_MARK = '$^{\\ddagger}$';

function texEscape(text: string): string {
  return text.replace(/[\\&%$#_{}~^−×]/g, (c) => LATEX_SPECIAL[c]);
}

/** A column head in LaTeX: as the paper typesets it where the format says, else the head escaped. */
function texHead(c: TableColumn): string {
  return c.latex ?? texEscape(c.head);
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
    if (g.name) rules.push(`\\cmidrule(lr){${at}-${at + g.span - 1}}`);
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
    `Run & ${t.columns.map((c) => texHead(c)).join(' & ')} \\\\`,
    '\\midrule',
    ...t.rows.map((r) => `${texEscape(r.run)}${isPartial(r) ? TEX_MARK : ''} & ${r.cells.map(cell).join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
    ...texFootnote(t),
    '\\end{table}',
  ];
  return lines.join('\n') + '\n';
}

/** The coverage footnote under the tabular, inside the table float so that it travels with the table. */
function texFootnote(t: TableModel): string[] {
  const [heading, ...notes] = coverageFootnote(t);
  if (!heading) return [];
  const text = (line: string) => texEscape(line).replace(PARTIAL_MARK, TEX_MARK);
  return [
    '\\par\\smallskip',
    `{\\footnotesize ${text(heading)}.${notes.map((n) => `\\\\\n${text(n)}`).join('')}\\par}`,
  ];
}

export function formatTable(t: TableModel, format: TableFormat): string {
  return format === 'latex' ? tableLatex(t) : format === 'markdown' ? tableMarkdown(t) : tableCsv(t);
}
