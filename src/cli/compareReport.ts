// What a format's part of `persona-lab compare` gives the shared command (compare.ts): its comparison of run B
// against run A as a report of tables, notes and changed items, and the whole result for --json; and how the command
// prints a report as text, Markdown or CSV. A format's part (cli/formats/<format>/compare.ts) computes its figures with
// the core functions its Compare Runs view calls, so the CLI prints the numbers the view shows.
import type { Format } from '../core/formats';
import { csvField, mdEscape } from '../core/tables/format';
import { wrapLine } from '../core/tables/text';
import { cacheOption } from './cacheOption';

/** A = the reference, B = compared against it. */
export interface RunPair {
  a: string;
  b: string;
}

/** A table of text cells: the first column names the row, the others are figures. */
export interface CompareTable {
  title: string;
  columns: readonly string[];
  rows: readonly (readonly string[])[];
  /** The columns of words, aligned left (the first unless said); the others hold figures, aligned right. */
  words?: readonly number[];
}

export interface CompareReport {
  /** The whole result, printed by --json (its shape is the format's, docs/scoring.md). */
  json: Record<string, unknown>;
  /** What is compared: the lines under the title. */
  heading: readonly string[];
  /** One table per scope, each with the same columns: run A's figure, B's, B − A, its 95 % interval, W / T / L. */
  tables: readonly CompareTable[];
  /** What the figures are over, what was left out and why, and how the intervals were drawn. */
  notes: readonly string[];
  /** The items that changed, the first `limit` of them; `total` counts them all. */
  changed: CompareTable & { total: number; counts: string };
}

export interface CompareRequest {
  pair: RunPair;
  /** Changed items listed at most. */
  limit: number;
}

/** What a part found: a report, or why the runs cannot be compared (the core's words). */
export type CompareOutcome = { report: CompareReport } | { problem: string };

/** A format's part of `compare`: loads the folder's two runs and compares them as its Compare Runs view does. */
export interface CompareCommand {
  compare(dir: string, req: CompareRequest, opts: { 'no-cache'?: boolean }): Promise<CompareOutcome | RunsMissing>;
}

/** Run names the folder lacks, with the runs it has. */
export interface RunsMissing {
  missing: string[];
  runs: readonly string[];
}

/** A benchmark's run type. */
type RunOf<B> = B extends { runs: ReadonlyMap<string, infer R> } ? R : never;

/**
 * The folder loaded with runs A and B only, and the two runs; when either is missing, every run it has (a second
 * load, of figures only) for the message.
 */
export async function loadPair<B extends { runs: ReadonlyMap<string, unknown> }>(
  format: Format<string, B>,
  dir: string,
  pair: RunPair,
  opts: { 'no-cache'?: boolean },
): Promise<{ bench: B; a: RunOf<B>; b: RunOf<B> } | RunsMissing> {
  const { bench } = await format.load(dir, { runs: [pair.a, pair.b], ...cacheOption(opts) });
  const a = bench.runs.get(pair.a) as RunOf<B> | undefined;
  const b = bench.runs.get(pair.b) as RunOf<B> | undefined;
  if (a !== undefined && b !== undefined) return { bench, a, b };
  const all = await format.load(dir, { figuresOnly: true, ...cacheOption(opts) });
  return { missing: [pair.a, pair.b].filter((r) => !bench.runs.has(r)), runs: all.opened.runNames };
}

const GAP = '  ';

const isWords = (t: CompareTable, column: number) => (t.words ?? [0]).includes(column);

function textTable(t: CompareTable): string[] {
  const widths = t.columns.map((c, i) => Math.max(c.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (isWords(t, i) ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join(GAP)
      .trimEnd();
  return [t.title, line(t.columns), line(widths.map((w) => '-'.repeat(w))), ...t.rows.map(line)];
}

function changedNote(r: CompareReport): string {
  const c = r.changed;
  const shown = c.rows.length < c.total ? ` (the first ${c.rows.length}; --limit N lists more)` : '';
  return `${c.title}: ${c.total}${shown}. ${c.counts}`;
}

export function reportText(r: CompareReport): string {
  const out: string[] = [...r.heading.flatMap((l) => wrapLine(l)), ''];
  for (const t of r.tables) out.push(...textTable(t), '');
  out.push(...r.notes.flatMap((n) => wrapLine(n)), '', ...wrapLine(changedNote(r)));
  if (r.changed.rows.length) out.push('', ...textTable({ ...r.changed, title: '' }).slice(1));
  return out.join('\n');
}

function markdownTable(t: CompareTable): string[] {
  const row = (cells: readonly string[]) => `| ${cells.map(mdEscape).join(' | ')} |`;
  return [
    row(t.columns),
    `| ${t.columns.map((_, i) => (isWords(t, i) ? '---' : '---:')).join(' | ')} |`,
    ...t.rows.map(row),
  ];
}

export function reportMarkdown(r: CompareReport): string {
  const out: string[] = [...r.heading.map(mdEscape), ''];
  for (const t of r.tables) out.push(`**${mdEscape(t.title)}**`, '', ...markdownTable(t), '');
  out.push(...r.notes.map((n) => `- ${mdEscape(n)}`), '', mdEscape(changedNote(r)));
  if (r.changed.rows.length) out.push('', ...markdownTable(r.changed));
  return out.join('\n') + '\n';
}

/** One rectangle of data: the tables' rows, each led by its table's title (the changed items are not in it). */
export function reportCsv(r: CompareReport): string {
  const columns = r.tables[0]?.columns ?? [];
  const lines = [['Table', ...columns], ...r.tables.flatMap((t) => t.rows.map((row) => [t.title, ...row]))];
  return lines.map((l) => l.map((c) => csvField(c === '—' ? '' : c)).join(',')).join('\r\n') + '\r\n';
}
