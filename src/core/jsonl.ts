// Streaming JSONL reading with byte offsets, tolerant of what Python's json.dumps writes (bare NaN / Infinity).
import { open } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';

export interface RawLine {
  /** 1-based line number */
  line: number;
  /** byte offset of the line's first byte (after a BOM on line 1) */
  offset: number;
  /** the line's bytes without the newline or a trailing CR */
  bytes: Buffer;
}

export type ParsedLine = { ok: true; value: unknown } | { ok: false; message: string };

/** Markers that stand for Python's non-JSON float tokens after parsing. */
export const PY_NAN = '\u0000NaN';
export const PY_INF = '\u0000Infinity';
export const PY_NEG_INF = '\u0000-Infinity';

const CHUNK = 1 << 20;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Calls `onLine` for every non-blank line. Reads in 1 MiB chunks and yields to the event loop between them,
 * so that an extension host stays responsive while a large file loads.
 */
export async function readLines(
  path: string,
  onLine: (line: RawLine) => void,
  onProgress?: (bytes: number) => void,
): Promise<void> {
  const handle = await open(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    let carryOffset = 0;
    let lineNo = 0;
    let filePos = 0;
    let first = true;
    const emit = (bytes: Buffer, offset: number) => {
      lineNo++;
      let start = 0;
      let end = bytes.length;
      if (first) {
        first = false;
        if (end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
      }
      if (end > start && bytes[end - 1] === 0x0d) end--;
      const body = bytes.subarray(start, end);
      if (isBlank(body)) return;
      onLine({ line: lineNo, offset: offset + start, bytes: body });
    };
    for (;;) {
      const buf = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await handle.read(buf, 0, CHUNK, filePos);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      let data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      let dataOffset = carry.length ? carryOffset : filePos;
      filePos += bytesRead;
      let nl: number;
      while ((nl = data.indexOf(0x0a)) !== -1) {
        emit(data.subarray(0, nl), dataOffset);
        data = data.subarray(nl + 1);
        dataOffset += nl + 1;
      }
      // Copy the tail so that the chunk buffer can be collected.
      carry = Buffer.from(data);
      carryOffset = dataOffset;
      onProgress?.(filePos);
      await yieldToLoop();
    }
    if (carry.length) emit(carry, carryOffset);
  } finally {
    await handle.close();
  }
}

function isBlank(bytes: Buffer): boolean {
  for (const b of bytes) if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  return true;
}


/** Parses one line's bytes: invalid UTF-8 and invalid JSON become messages, never exceptions. */
export function parseLine(bytes: Buffer): ParsedLine {
  if (!isUtf8(bytes)) return { ok: false, message: 'invalid UTF-8' };
  return parseJsonText(bytes.toString('utf8'));
}

/** JSON.parse that also accepts Python's bare NaN / Infinity / -Infinity (as the markers below). */
export function parseJsonText(text: string): ParsedLine {
  // Lines that mention a token go straight through the replacement: parsing first would fail half-way and cost twice.
  const source = text.includes('NaN') || text.includes('Infinity') ? (replacePythonTokens(text) ?? text) : text;
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (err) {
    return { ok: false, message: `invalid JSON: ${(err as Error).message}` };
  }
}

// A JSON string literal (left as is) or one of Python's bare float tokens.
const STRING_OR_TOKEN = /"(?:[^"\\]|\\.)*"|-Infinity|Infinity|NaN/g;
const MARKERS: Record<string, string> = {
  NaN: JSON.stringify(PY_NAN),
  Infinity: JSON.stringify(PY_INF),
  '-Infinity': JSON.stringify(PY_NEG_INF),
};

/** Replaces bare NaN / Infinity / -Infinity outside strings with marker strings; null when none was found. */
export function replacePythonTokens(text: string): string | null {
  let found = false;
  const out = text.replace(STRING_OR_TOKEN, (m) => {
    if (m.charCodeAt(0) === 0x22) return m;
    found = true;
    return MARKERS[m];
  });
  return found ? out : null;
}

/** A parsed value as a Python float: markers become NaN / ±Infinity; anything non-numeric is undefined. */
export function pyNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value === PY_NAN) return NaN;
  if (value === PY_INF) return Infinity;
  if (value === PY_NEG_INF) return -Infinity;
  return undefined;
}
