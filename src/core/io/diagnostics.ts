// Located diagnostics (file:line, field, reason), collected while loading: bad input never throws. Shared by both
// benchmarks, the label files and the prompt templates.
import { isRecord } from '../guards';
import { withoutMarkers } from './pyMarkers';

export type Severity = 'error' | 'warning' | 'info';

/** A located problem. `file` is relative to the benchmark folder, `line` is 1-based (0 = the file as a whole). */
export interface Diagnostic {
  severity: Severity;
  file: string;
  line: number;
  field: string;
  message: string;
}

/** Whether a value read back (from an index's header) is a diagnostic. */
export const isDiagnostic = (x: unknown): x is Diagnostic =>
  isRecord(x) &&
  (x.severity === 'error' || x.severity === 'warning' || x.severity === 'info') &&
  typeof x.file === 'string' &&
  typeof x.line === 'number' &&
  typeof x.field === 'string' &&
  typeof x.message === 'string';

/** Where a JSONL line lives on disk, so large text can be read back on demand instead of held in memory. */
export interface LineRef {
  file: string; // absolute path
  offset: number; // byte offset of the line
  length: number; // byte length of the line (without the newline)
  line: number; // 1-based line number
}

export class DiagnosticSink {
  readonly items: Diagnostic[] = [];
  constructor(readonly file: string) {}

  add(severity: Severity, line: number, field: string, message: string): void {
    // A message may quote a value read from a NaN / Infinity token; the marker it was read as is never shown.
    this.items.push({
      severity,
      file: this.file,
      line,
      field: withoutMarkers(field),
      message: withoutMarkers(message),
    });
  }
  error(line: number, field: string, message: string): void {
    this.add('error', line, field, message);
  }
  warn(line: number, field: string, message: string): void {
    this.add('warning', line, field, message);
  }
}

/** `file:line field: message`, the one-line form used by the CLI and logs. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}` : d.file;
  return `${where}: ${d.severity}: ${d.field ? d.field + ': ' : ''}${d.message}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Reads `obj[key]` from an unknown value without trusting its shape. */
export function field(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && !Array.isArray(obj)
    ? (obj as Record<string, unknown>)[key]
    : undefined;
}

export { isRecord } from '../guards';

/** Python-style int check: a JSON number with no fractional part (json.loads gives int for `3`, float for `3.0`). */
export function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}
