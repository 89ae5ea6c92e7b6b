// One line of a data file, for showing it on its own: read by streaming (files can be hundreds of MB) and, when it
// holds one JSON value (a JSONL line, or one record of a JSON array written a record per line), pretty-printed.
import { closeSync, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pyJsonLoads } from './pyjson';
import { openRegularOrThrow } from './safeFs';

/** Line `line` (1-based) of `file`, without its line break; undefined past the end. */
export async function readLineAt(file: string, line: number): Promise<string | undefined> {
  const { fd, size } = openRegularOrThrow(file);
  if (size === 0) {
    closeSync(fd);
    return undefined;
  }
  const input = createReadStream('', { fd, encoding: 'utf8', end: size - 1 });
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const text of rl) if (++n === line) return text;
    return undefined;
  } finally {
    rl.close();
    input.destroy();
  }
}

/** The line's JSON value pretty-printed (a trailing comma of an array element dropped), or undefined when it is not one. */
export function prettyJsonLine(text: string): string | undefined {
  const body = text.trim().replace(/,$/, '');
  if (!body.startsWith('{') && !body.startsWith('[')) return undefined;
  // Python's json.loads: the reference writes bare NaN in result lines, and the view keeps it as NaN, not null.
  const parsed = pyJsonLoads(body);
  if (!parsed.ok) return undefined;
  const mark = (x: number) => `\u0000${String(x)}\u0000`;
  const out = JSON.stringify(
    parsed.value,
    (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? mark(v) : v),
    2,
  );
  return out.replace(/"\\u0000(NaN|Infinity|-Infinity)\\u0000"/g, '$1');
}
