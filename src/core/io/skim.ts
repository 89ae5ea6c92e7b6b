// Reads a JSON line without decoding the values a job does not need. The long texts of a line (posts, reasoning,
// personas) are most of its bytes; decoding them to strings and collecting them afterwards is most of a cold load.
// The skim finds the value of each named key in the bytes, checks that it is one valid JSON string (or array of
// strings) token, and parses the line with that token replaced: a string by a marker naming its byte span, an array
// by []. A line the skim cannot vouch for is left to the full parser, so both give the same values and messages.
import { parseJsonText, type ParsedLine } from './jsonl';

const STRING = 0 as const;
const ARRAY = 1 as const;
const INVALID = -2;
const NOT_THIS = -1;

/**
 * The keys whose values are skipped: string values are replaced by the marker `"<n>"`, n indexing the spans; arrays
 * of strings nobody reads by [].
 */
export interface SkimSpec {
  all: readonly { key: Buffer; kind: typeof STRING | typeof ARRAY }[];
}

export function skimSpec(strings: readonly string[], arrays: readonly string[] = []): SkimSpec {
  const key = (k: string) => Buffer.from(JSON.stringify(k));
  return {
    all: [...strings.map((k) => ({ key: key(k), kind: STRING })), ...arrays.map((k) => ({ key: key(k), kind: ARRAY }))],
  };
}

/** A skimmed line: its parsed value and, for marker n, the string's bytes at [spans[2n], spans[2n + 1]). */
export interface Skimmed {
  value: unknown;
  spans: number[];
}

/**
 * Null when the line has none of the keys (parse it whole: nothing to gain), when a skipped token is not valid JSON,
 * or when the rest does not parse: the full parser then gives the line's one message.
 */
export function skimLine(b: Buffer, spec: SkimSpec): Skimmed | null {
  const keys = spec.all;
  // The next match of each key at or after `from`, kept in step: each key's search starts after the last cut, so
  // the skipped texts are scanned once (by stringEnd), not once per key.
  const next = keys.map((k) => b.indexOf(k.key));
  const spans: number[] = [];
  let at = 0;
  let out = 0; // bytes of the line as parsed, in `scratch`
  let cuts = 0;
  for (;;) {
    let which = -1;
    for (let k = 0; k < keys.length; k++) if (next[k] !== -1 && (which === -1 || next[k] < next[which])) which = k;
    if (which === -1) break;
    const { key, kind } = keys[which];
    const i = next[which];
    let cut = NOT_THIS;
    let j = 0;
    // An escaped quote is inside a string; an unescaped one followed by the key's letters opens the key.
    if (!oddBackslashesBefore(b, i)) {
      j = skipSpace(b, i + key.length);
      if (b[j] === 0x3a) {
        j = skipSpace(b, j + 1);
        cut = kind === STRING ? (b[j] === 0x22 ? stringEnd(b, j) : NOT_THIS) : stringArrayEnd(b, j);
      }
    }
    if (cut === INVALID) return null;
    if (cut === NOT_THIS) {
      next[which] = b.indexOf(key, i + key.length);
      continue;
    }
    out = put(b, at, j, out);
    out = putText(kind === STRING ? `"${spans.length / 2}"` : '[]', out);
    if (kind === STRING) spans.push(j, cut);
    at = cut;
    cuts++;
    for (let k = 0; k < keys.length; k++) if (next[k] !== -1 && next[k] < at) next[k] = b.indexOf(keys[k].key, at);
  }
  if (cuts === 0) return null;
  out = put(b, at, b.length, out);
  const parsed: ParsedLine = parseJsonText(scratch.toString('utf8', 0, out));
  if (scratch.length > 1 << 20) scratch = Buffer.allocUnsafe(1 << 16); // a long line's buffer is not kept
  return parsed.ok ? { value: parsed.value, spans } : null;
}

// The line as parsed is assembled here, not in a new buffer per line: less for the collector.
let scratch = Buffer.allocUnsafe(1 << 16);

function room(out: number, n: number): void {
  if (out + n <= scratch.length) return;
  const grown = Buffer.allocUnsafe(Math.max(scratch.length * 2, out + n));
  scratch.copy(grown, 0, 0, out);
  scratch = grown;
}

function put(b: Buffer, from: number, to: number, out: number): number {
  room(out, to - from);
  return out + b.copy(scratch, out, from, to);
}

function putText(text: string, out: number): number {
  room(out, text.length);
  return out + scratch.write(text, out, 'latin1');
}

function oddBackslashesBefore(b: Buffer, i: number): boolean {
  let n = 0;
  while (i - 1 - n >= 0 && b[i - 1 - n] === 0x5c) n++;
  return n % 2 === 1;
}

function skipSpace(b: Buffer, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0d || b[i] === 0x0a)) i++;
  return i;
}

const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;
const ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') ESCAPE[c.charCodeAt(0)] = 1;

/** The end (after the closing quote) of the string token opening at `j`, or INVALID. */
export function stringEnd(b: Buffer, j: number): number {
  const n = b.length;
  for (let k = j + 1; k < n; k++) {
    const c = b[k];
    if (c === 0x22) return k + 1;
    if (c === 0x5c) {
      const e = b[k + 1];
      if (e === 0x75) {
        if (k + 5 >= n || !HEX[b[k + 2]] || !HEX[b[k + 3]] || !HEX[b[k + 4]] || !HEX[b[k + 5]]) return INVALID;
        k += 5;
      } else if (k + 1 < n && ESCAPE[e]) k++;
      else return INVALID;
    } else if (c < 0x20) return INVALID;
  }
  return INVALID;
}

/** The end of an array of strings opening at `j`; NOT_THIS when it is something else (left to the parser). */
function stringArrayEnd(b: Buffer, j: number): number {
  if (b[j] !== 0x5b) return NOT_THIS;
  let k = skipSpace(b, j + 1);
  if (b[k] === 0x5d) return k + 1;
  for (;;) {
    if (b[k] !== 0x22) return NOT_THIS;
    const end = stringEnd(b, k);
    if (end < 0) return end;
    k = skipSpace(b, end);
    if (b[k] === 0x5d) return k + 1;
    if (b[k] !== 0x2c) return NOT_THIS;
    k = skipSpace(b, k + 1);
  }
}

/** A skipped string read back: its token's bytes as the string they write, or undefined when they are not one. */
export function spanString(bytes: Buffer): string | undefined {
  if (bytes.length < 2 || bytes[0] !== 0x22 || stringEnd(bytes, 0) !== bytes.length) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as string;
  } catch {
    return undefined;
  }
}
