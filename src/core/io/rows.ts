// The benchmarks' JSONL files (tasks, results, test actions, predictions) read one way: a line that is not valid
// UTF-8 or JSON, or not an object with a string user_id, becomes a located diagnostic and the rest keeps loading.
import { DiagnosticSink, isRecord } from './diagnostics';
import { parseRawLine, readLines, type RawLine, type ReadFrom } from './jsonl';
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
      if (!isRecord(value)) return sink.error(raw.line, '', `expected a JSON object, got ${describe(value)}`);
      // a NaN / Infinity token is read as a marker string, but it is a number
      if (typeof value.user_id !== 'string' || markerNumber(value.user_id) !== undefined)
        return sink.error(raw.line, 'user_id', 'missing or not a string');
      onRow(value as UserRow, raw);
    },
    onProgress,
    from,
  );
}
