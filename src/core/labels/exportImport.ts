// Label files: JSONL (one label per line, every key) and CSV (RFC 4180). Reading one never throws: each bad line
// becomes a located diagnostic and the other lines still import.
import { extname } from 'node:path';
import { type Diagnostic } from '../io/diagnostics';
import { noteProblem, TARGET_KINDS, type LabelRow, type LabelTarget, type TargetKind } from './model';
import { importedPlatformProblem, labelKeyProblem } from './platformRules';
import { isStoredHash } from './staleness';
import { readRegularText } from '../io/safeFs';
import { csvRecords } from '../io/csv';
import { goldFrom, goldLine, isGoldLine, type ImportedGold } from './goldFile';
import type { GoldRow } from './goldRows';

export { csvRecords };

export type LabelFileFormat = 'jsonl' | 'csv';

/** The columns of both formats, in this order. */
export const LABEL_COLUMNS = [
  'benchmark',
  'platform',
  'user_id',
  'step_id',
  'run',
  'author',
  'label',
  'target_kind',
  'tag',
  'span_field',
  'span_start',
  'span_end',
  'note',
  'created_at',
  'content_hash',
] as const;
/**
 * The column of history-item labels (target_kind "history"). Written only where it is needed (on those JSONL lines;
 * in a CSV that holds such a row, as the last column), so that files without them stay as they were.
 */
export const HISTORY_COLUMN = 'history_index';
type Column = (typeof LABEL_COLUMNS)[number] | typeof HISTORY_COLUMN;
const REQUIRED: readonly Column[] = ['platform', 'user_id', 'step_id', 'author', 'label'];

export interface ImportedRow {
  row: LabelRow;
  /** 1-based line of the row in its file (a CSV record's first line). */
  line: number;
}

export interface ParsedLabelFile {
  rows: ImportedRow[];
  diagnostics: Diagnostic[];
  /** An adjudicator's decisions (goldFile.ts): JSONL only, absent from a file that has none. */
  gold?: ImportedGold[];
}

function flat(r: LabelRow): Partial<Record<Column, string | number | null>> {
  const t = r.target;
  const history = t.kind === 'history' ? { [HISTORY_COLUMN]: t.historyIndex } : {};
  return {
    benchmark: r.benchmark,
    platform: r.platform,
    user_id: r.userId,
    step_id: r.stepId,
    run: r.run,
    author: r.author,
    label: r.label,
    target_kind: t.kind,
    tag: t.kind === 'tag' ? t.tag : null,
    span_field: t.kind === 'span' ? t.field : null,
    span_start: t.kind === 'span' ? t.start : null,
    span_end: t.kind === 'span' ? t.end : null,
    note: r.note,
    created_at: r.createdAt,
    content_hash: r.contentHash,
    ...history,
  };
}

/** One line per label, then one per gold decision (goldFile.ts), each as its `kind`. */
export function toJsonl(rows: readonly LabelRow[], gold: readonly GoldRow[] = []): string {
  return rows.map((r) => JSON.stringify(flat(r)) + '\n').join('') + gold.map((g) => goldLine(g) + '\n').join('');
}

// OWASP "CSV injection": a cell starting with = + - @ tab or CR is a formula to a spreadsheet. Such a cell is written
// with a ' before it, which spreadsheets show as text. So that import can strip exactly what export added, a cell
// made of quotes followed by such a character gets one more quote: every string reads back as it was written.
const FORMULA_CELL = /^'*[=+\-@\t\r]/;
const ESCAPED_CELL = /^'+[=+\-@\t\r]/;

/** The cell as written to a CSV file: a ' before one a spreadsheet would run as a formula. */
export function csvCellOut(s: string): string {
  return FORMULA_CELL.test(s) ? `'${s}` : s;
}

/** The inverse of csvCellOut. */
export function csvCellIn(s: string): string {
  return ESCAPED_CELL.test(s) ? s.slice(1) : s;
}

function csvField(value: string | number | null): string {
  const s = value === null ? '' : typeof value === 'string' ? csvCellOut(value) : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * RFC 4180: a header line, CRLF line ends, fields with a quote, comma or line break quoted, quotes doubled; text that
 * a spreadsheet would run as a formula is written as text (csvCellOut).
 */
export function toCsv(rows: readonly LabelRow[]): string {
  const columns: Column[] = [...LABEL_COLUMNS];
  if (rows.some((r) => r.target.kind === 'history')) columns.push(HISTORY_COLUMN);
  const lines = [columns.join(',')];
  for (const r of rows) {
    const f = flat(r);
    lines.push(columns.map((c) => csvField(f[c] ?? null)).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

export function formatFor(path: string, text = ''): LabelFileFormat {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  return text
    .replace(/^\ufeff/, '')
    .trimStart()
    .startsWith('{')
    ? 'jsonl'
    : 'csv';
}

/** Reads and parses a label file; `file` names it in diagnostics. An unreadable file is one diagnostic. */
export function readLabelFile(path: string, file = path, format?: LabelFileFormat): ParsedLabelFile {
  let text: string;
  try {
    text = readRegularText(path);
  } catch (err) {
    return {
      rows: [],
      diagnostics: [{ severity: 'error', file, line: 0, field: '', message: `cannot read: ${(err as Error).message}` }],
    };
  }
  return parseLabelFile(text, file, format ?? formatFor(path, text));
}

export function parseLabelFile(text: string, file: string, format: LabelFileFormat): ParsedLabelFile {
  const body = text.replace(/^\ufeff/, '');
  return format === 'csv' ? parseCsv(body, file) : parseJsonl(body, file);
}

function parseJsonl(text: string, file: string): ParsedLabelFile {
  const out: ParsedLabelFile = { rows: [], diagnostics: [] };
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const s = raw.replace(/\r$/, '');
    if (s.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(s);
    } catch (err) {
      out.diagnostics.push({
        severity: 'error',
        file,
        line,
        field: '',
        message: `not valid JSON: ${(err as Error).message}`,
      });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      out.diagnostics.push({ severity: 'error', file, line, field: '', message: 'a label line must be a JSON object' });
      return;
    }
    if (isGoldLine(value as Record<string, unknown>)) {
      const gold = goldFrom(value as Record<string, unknown>, file, line, out.diagnostics);
      if (gold) (out.gold ??= []).push({ gold, line });
      return;
    }
    const row = rowFrom(value as Record<string, unknown>, false, file, line, out.diagnostics);
    if (row) out.rows.push({ row, line });
  });
  return out;
}

function parseCsv(text: string, file: string): ParsedLabelFile {
  const out: ParsedLabelFile = { rows: [], diagnostics: [] };
  const records = csvRecords(text);
  const header = records.shift();
  if (!header) return out;
  const cols = header.fields.map((h) => h.trim());
  for (const c of cols) {
    if (!(LABEL_COLUMNS as readonly string[]).includes(c) && c !== HISTORY_COLUMN) {
      out.diagnostics.push({
        severity: 'warning',
        file,
        line: header.line,
        field: c,
        message: `unknown column "${c}" is ignored`,
      });
    }
  }
  const missing = REQUIRED.filter((c) => !cols.includes(c));
  if (missing.length > 0) {
    out.diagnostics.push({
      severity: 'error',
      file,
      line: header.line,
      field: missing.join(', '),
      message: 'the header lacks required column(s); nothing can be read',
    });
    return out;
  }
  for (const rec of records) {
    if (rec.unterminated) {
      out.diagnostics.push({
        severity: 'error',
        file,
        line: rec.line,
        field: '',
        message: 'a quoted field is never closed',
      });
      continue;
    }
    if (rec.fields.length !== cols.length) {
      out.diagnostics.push({
        severity: 'error',
        file,
        line: rec.line,
        field: '',
        message: `${rec.fields.length} field(s), the header has ${cols.length}`,
      });
      continue;
    }
    const obj: Record<string, unknown> = {};
    cols.forEach((c, j) => (obj[c] = csvCellIn(rec.fields[j])));
    const row = rowFrom(obj, true, file, rec.line, out.diagnostics);
    if (row) out.rows.push({ row, line: rec.line });
  }
  return out;
}

function intOf(v: unknown, csv: boolean): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (csv && typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim())) return Number(v.trim());
  return null;
}

/** Validates one record; pushes located diagnostics and returns null when it cannot be imported. */
function rowFrom(
  o: Record<string, unknown>,
  csv: boolean,
  file: string,
  line: number,
  diags: Diagnostic[],
): LabelRow | null {
  const err = (field: string, message: string) => diags.push({ severity: 'error', file, line, field, message });
  // Warnings only matter for rows that import; a rejected row shows its errors alone.
  const warnings: Diagnostic[] = [];
  const warn = (field: string, message: string) => warnings.push({ severity: 'warning', file, line, field, message });
  const blank = (v: unknown) => v === undefined || v === null || v === '';
  const str = (c: Column, required: boolean): string | null => {
    const v = o[c];
    if (blank(v)) {
      if (required) err(c, 'missing');
      return required ? null : '';
    }
    if (typeof v !== 'string') {
      err(c, `must be a string, got ${JSON.stringify(v)}`);
      return null;
    }
    return v;
  };
  const benchmark = str('benchmark', false);
  const platform = str('platform', true);
  const userId = str('user_id', true);
  const run = str('run', false);
  const author = str('author', true);
  const label = str('label', true);
  const note = str('note', false);
  const tooLong = note === null ? null : noteProblem(note);
  if (tooLong) err('note', tooLong);
  const stepId = intOf(o.step_id, csv);
  if (stepId === null || stepId < 0)
    err('step_id', `must be a non-negative integer, got ${JSON.stringify(o.step_id ?? null)}`);
  const kind = blank(o.target_kind) ? 'step' : o.target_kind;
  // The formats decide which platforms each target kind's labels carry (platformRules.ts); a kind no format knows is
  // refused below, whatever its platform.
  const known = (TARGET_KINDS as readonly unknown[]).includes(kind);
  const platformProblem = platform !== null && known ? importedPlatformProblem(kind as TargetKind, platform) : null;
  if (platformProblem) err('platform', platformProblem);
  let target: LabelTarget | null = null;
  if (kind === 'step') target = { kind: 'step' };
  else if (kind === 'tag') {
    const tag = str('tag', true);
    if (tag !== null) target = { kind: 'tag', tag };
  } else if (kind === 'span') {
    const f = str('span_field', true);
    const start = intOf(o.span_start, csv);
    const end = intOf(o.span_end, csv);
    if (start === null || end === null || start < 0 || end < start)
      err('span_start', 'a span needs integers 0 <= span_start <= span_end');
    else if (f !== null) target = { kind: 'span', field: f, start, end };
  } else if (kind === 'action') target = { kind: 'action' };
  else if (kind === 'history') {
    const h = intOf(o[HISTORY_COLUMN], csv);
    if (h === null || h < 0)
      err(
        HISTORY_COLUMN,
        `a history label needs a non-negative integer ${HISTORY_COLUMN}, got ${JSON.stringify(o[HISTORY_COLUMN] ?? null)}`,
      );
    else target = { kind: 'history', historyIndex: h };
  } else err('target_kind', `must be step, tag, span, action or history, got ${JSON.stringify(kind)}`);

  const createdAt = str('created_at', false) ?? '';
  if (createdAt === '') warn('created_at', 'no time; the label imports without one');
  else if (Number.isNaN(Date.parse(createdAt))) {
    warn('created_at', `not an ISO time: ${JSON.stringify(createdAt)}; kept as text`);
  }
  let contentHash = str('content_hash', false) ?? '';
  if (contentHash !== '' && !isStoredHash(contentHash)) {
    warn('content_hash', 'not a sha256 hex digest nor part hashes; the label imports with an unknown content state');
    contentHash = '';
  }
  if (benchmark === null || platform === null || userId === null || run === null || author === null || label === null)
    return null;
  if (note === null || tooLong || stepId === null || stepId < 0 || target === null || platformProblem) return null;
  const row: LabelRow = {
    benchmark,
    platform,
    userId,
    stepId,
    run,
    author,
    label,
    target,
    note,
    createdAt,
    contentHash,
  };
  const problem = labelKeyProblem(row);
  if (problem) {
    err('', problem);
    return null;
  }
  diags.push(...warnings);
  return row;
}
