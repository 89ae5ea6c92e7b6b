// The benchmarks' JSONL files (tasks, results, test actions, predictions) read one way: a line that is not valid
// UTF-8 or JSON, or not an object with a string user_id, becomes a located diagnostic and the rest keeps loading.
import { DiagnosticSink, isRecord } from './diagnostics';
import { isUtf8 } from 'node:buffer';
import { parseJsonText, parseRawLine, readLineBytes, readLines, type RawLine, type ReadFrom } from './jsonl';
import { skimLine, type SkimSpec } from './skim';
import { markerNumber } from './pyMarkers';

/**
 * Calls `onValue` with each line's parsed value; a line that does not parse is an error in the sink. Resolves to the
 * number of lines read.
 */
export function readJsonValues(
  path: string,
  sink: DiagnosticSink,
  onValue: (value: unknown, raw: RawLine) => void,
  onProgress?: (bytes: number) => void,
  from?: ReadFrom,
): Promise<number> {
  return readLines(
    path,
    (raw) => {
      const parsed = parseRawLine(raw);
      if (!parsed.ok) return sink.error(raw.line, '', parsed.message);
      onValue(parsed.value, raw);
    },
    onProgress,
    from,
  );
}

export type UserRow = Record<string, unknown> & { user_id: string };

/**
 * As readJsonValues, for lines that must be JSON objects with a string `user_id`; `describe` words a value of the
 * wrong kind in the message (each benchmark words it its own way).
 */
export function readUserRows(
  path: string,
  sink: DiagnosticSink,
  describe: (value: unknown) => string,
  onRow: (row: UserRow, raw: RawLine) => void,
  onProgress?: (bytes: number) => void,
  from?: ReadFrom,
): Promise<number> {
  return readJsonValues(
    path,
    sink,
    (value, raw) => {
      const row = userRow(value, raw.line, sink, describe);
      if (row) onRow(row, raw);
    },
    onProgress,
    from,
  );
}

/** Where a line is, for readers that do not need its text. */
export type LineAt = Pick<RawLine, 'line' | 'offset' | 'length'>;

function userRow(
  value: unknown,
  line: number,
  sink: DiagnosticSink,
  describe: (value: unknown) => string,
): UserRow | undefined {
  if (!isRecord(value)) {
    sink.error(line, '', `expected a JSON object, got ${describe(value)}`);
    return undefined;
  }
  // a NaN / Infinity token is read as a marker string, but it is a number
  if (typeof value.user_id !== 'string' || markerNumber(value.user_id) !== undefined) {
    sink.error(line, 'user_id', 'missing or not a string');
    return undefined;
  }
  return value as UserRow;
}

/** Whether readers skim (skim.ts) or parse every line whole: off only in the tests that compare the two. */
export const skimming = { enabled: true };

/**
 * As readJsonValues, skipping the values of `spec`'s keys (skim.ts): `onValue` gets the spans of the skipped
 * strings, absolute in the file; a string value of such a key is then the marker of its span. A line the skim
 * cannot read is parsed whole (spans []), with the same value and the same message. Without `spec` every line is
 * parsed whole, one line at a time (readJsonValues decodes a whole chunk at once: a string too large for the
 * young generation, which a job that keeps nothing of its lines then holds until a full collection).
 */
export function readSkimmedValues(
  path: string,
  spec: SkimSpec | undefined,
  sink: DiagnosticSink,
  onValue: (value: unknown, at: LineAt, spans: readonly number[]) => void,
  onProgress?: (bytes: number) => void,
  from?: ReadFrom,
): Promise<number> {
  if (!skimming.enabled) return readJsonValues(path, sink, (value, raw) => onValue(value, raw, []), onProgress, from);
  return readLineBytes(
    path,
    (line) => {
      const raw: LineAt = { line: line.line, offset: line.offset, length: line.length };
      if (!isUtf8(line.bytes)) return sink.error(line.line, '', 'invalid UTF-8');
      const skimmed = spec && skimLine(line.bytes, spec);
      if (skimmed) {
        const spans = skimmed.spans;
        for (let i = 0; i < spans.length; i++) spans[i] += line.offset;
        return onValue(skimmed.value, raw, spans);
      }
      const parsed = parseJsonText(line.bytes.toString('utf8'));
      if (!parsed.ok) return sink.error(line.line, '', parsed.message);
      onValue(parsed.value, raw, []);
    },
    onProgress,
    from,
  );
}

/** As readUserRows, skimming `spec`'s keys (see readSkimmedValues). */
export function readSkimmedUserRows(
  path: string,
  spec: SkimSpec | undefined,
  sink: DiagnosticSink,
  describe: (value: unknown) => string,
  onRow: (row: UserRow, at: LineAt, spans: readonly number[]) => void,
  onProgress?: (bytes: number) => void,
  from?: ReadFrom,
): Promise<number> {
  return readSkimmedValues(
    path,
    spec,
    sink,
    (value, at, spans) => {
      const row = userRow(value, at.line, sink, describe);
      if (row) onRow(row, at, spans);
    },
    onProgress,
    from,
  );
}
