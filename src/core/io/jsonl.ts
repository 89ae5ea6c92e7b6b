// Streaming JSONL reading with byte offsets, tolerant of what Python's json.dumps writes (bare NaN / Infinity).
import { closeSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';

export interface RawLine {
  /** 1-based line number */
  line: number;
  /** byte offset of the line's first byte (after a BOM on line 1) */
  offset: number;
  /** byte length of the line without the newline or a trailing CR */
  length: number;
  /** the decoded line, or null when its bytes are not valid UTF-8 */
  text: string | null;
}

export type ParsedLine = { ok: true; value: unknown } | { ok: false; message: string };

import { markerNumber, PY_INF, PY_NAN, PY_NEG_INF } from './pyMarkers';
import { openRegularOrThrow, readAt } from './safeFs';

export { PY_INF, PY_NAN, PY_NEG_INF } from './pyMarkers';

const CHUNK = 1 << 19;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Where to start reading: a line's first byte and the number of lines before it (to resume a file that grew). */
export interface ReadFrom {
  offset: number;
  line: number;
}

/**
 * Calls `onLine` for every non-blank line; resolves to the number of lines read (blank ones included). Reads in
 * 512 KiB chunks and decodes each chunk's complete lines in one call.
 */
export async function readLines(
  path: string,
  onLine: (line: RawLine) => void,
  onProgress?: (bytes: number) => void,
  from?: ReadFrom,
): Promise<number> {
  let lineNo = from?.line ?? 0;
  let first = !from?.offset;
  const emitLine = (region: Buffer, start: number, end: number, base: number, decoded: string | undefined) => {
    lineNo++;
    let text = decoded;
    if (first) {
      first = false;
      if (hasBom(region, start, end)) {
        start += 3;
        if (text !== undefined) text = text.slice(1);
      }
    }
    if (end > start && region[end - 1] === 0x0d) {
      end--;
      if (text !== undefined) text = text.slice(0, -1);
    }
    if (text === undefined) {
      const bytes = region.subarray(start, end);
      text = isUtf8(bytes) ? bytes.toString('utf8') : undefined;
    }
    if (text !== undefined && BLANK.test(text)) return;
    onLine({ line: lineNo, offset: base + start, length: end - start, text: text ?? null });
  };
  await readRegions(
    path,
    (region, base) => {
      // One decode for the whole region when it is valid; otherwise each line is checked on its own.
      const texts = isUtf8(region) ? region.toString('utf8').split('\n') : undefined;
      forEachLine(region, (start, end, i) => emitLine(region, start, end, base, texts?.[i]));
    },
    onProgress,
    from,
  );
  return lineNo;
}

/** A line's bytes, valid only during the call (the buffer is reused), without the newline, a trailing CR or a BOM. */
export interface ByteLine {
  line: number;
  offset: number;
  length: number;
  bytes: Buffer;
}

/** As readLines, without decoding: for readers that decode only the parts of a line they need (see skim.ts). */
export async function readLineBytes(
  path: string,
  onLine: (line: ByteLine) => void,
  onProgress?: (bytes: number) => void,
  from?: ReadFrom,
): Promise<number> {
  let lineNo = from?.line ?? 0;
  let first = !from?.offset;
  await readRegions(
    path,
    (region, base) =>
      forEachLine(region, (start, end) => {
        lineNo++;
        if (first) {
          first = false;
          if (hasBom(region, start, end)) start += 3;
        }
        if (end > start && region[end - 1] === 0x0d) end--;
        for (let k = start; k < end; k++) {
          const c = region[k];
          if (c !== 0x20 && c !== 0x09 && c !== 0x0d) {
            onLine({ line: lineNo, offset: base + start, length: end - start, bytes: region.subarray(start, end) });
            return;
          }
        }
      }),
    onProgress,
    from,
  );
  return lineNo;
}

const hasBom = (b: Buffer, start: number, end: number) =>
  end - start >= 3 && b[start] === 0xef && b[start + 1] === 0xbb && b[start + 2] === 0xbf;

function forEachLine(region: Buffer, onLine: (start: number, end: number, i: number) => void): void {
  let pos = 0;
  for (let i = 0; ; i++) {
    const nl = region.indexOf(0x0a, pos);
    onLine(pos, nl === -1 ? region.length : nl, i);
    if (nl === -1) break;
    pos = nl + 1;
  }
}

/**
 * Calls `onRegion` with runs of whole lines (without the last newline): a chunk's complete lines at once (a newline
 * byte never sits inside a multi-byte character), and yields to the event loop between chunks, so that an extension
 * host stays responsive while a large file loads.
 */
async function readRegions(
  path: string,
  onRegion: (region: Buffer, base: number) => void,
  onProgress?: (bytes: number) => void,
  from?: ReadFrom,
): Promise<void> {
  // Only a regular file, and only the bytes it had when opened: a FIFO or a link to /dev/zero is refused, and a file
  // that grows while it is read is read to its size at the start (the rest is read by the next load).
  const { fd, size } = openRegularOrThrow(path);
  const readChunk = (buf: Buffer, pos: number) =>
    pos >= size ? Promise.resolve(0) : readAt(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
  const emitRegion = onRegion;
  // Two buffers: the next chunk is read while this one is parsed, so the load does not sit idle waiting for I/O.
  const bufs = [takeChunk(), takeChunk()];
  let cur = 0;
  let filePos = from?.offset ?? 0;
  let pending = readChunk(bufs[cur], filePos);
  try {
    // The line still open at the end of the last chunk, as copies of its pieces: joined once when its newline
    // comes, so that a line spanning many chunks is copied and scanned once, not once per chunk.
    let parts: Buffer[] = [];
    let partsOffset = 0;
    for (;;) {
      const bytesRead = await pending;
      if (bytesRead === 0) break;
      const chunk = bufs[cur].subarray(0, bytesRead);
      const chunkOffset = filePos;
      filePos += bytesRead;
      cur ^= 1;
      pending = readChunk(bufs[cur], filePos);
      const lastNl = chunk.lastIndexOf(0x0a);
      if (lastNl === -1) {
        if (parts.length === 0) partsOffset = chunkOffset;
        // Copied: its buffer is reused by the read after next.
        parts.push(Buffer.from(chunk));
      } else {
        let start = 0;
        if (parts.length) {
          const firstNl = chunk.indexOf(0x0a);
          parts.push(chunk.subarray(0, firstNl));
          emitRegion(Buffer.concat(parts), partsOffset);
          parts = [];
          start = firstNl + 1;
        }
        if (start <= lastNl) emitRegion(chunk.subarray(start, lastNl), chunkOffset + start);
        if (lastNl + 1 < chunk.length) parts.push(Buffer.from(chunk.subarray(lastNl + 1)));
        partsOffset = chunkOffset + lastNl + 1;
      }
      onProgress?.(filePos);
      await yieldToLoop();
    }
    if (parts.length) emitRegion(parts.length === 1 ? parts[0] : Buffer.concat(parts), partsOffset);
  } finally {
    await pending.catch(() => undefined); // a read still in flight when onLine threw
    closeSync(fd);
    giveChunks(bufs);
  }
}

// Chunk buffers handed from one file's read to the next. Allocated per file, a load of many files left two 512 KiB
// buffers per file outside the heap until a full collection (the wrappers outlive scavenges and die old).
const spareChunks: Buffer[] = [];
const takeChunk = (): Buffer => spareChunks.pop() ?? Buffer.allocUnsafe(CHUNK);
function giveChunks(bufs: readonly Buffer[]): void {
  for (const b of bufs) if (spareChunks.length < 2) spareChunks.push(b);
}

const BLANK = /^[ \t\r]*$/;

/** Parses a line read by readLines: invalid UTF-8 and invalid JSON become messages, never exceptions. */
export function parseRawLine(raw: RawLine): ParsedLine {
  return raw.text === null ? { ok: false, message: 'invalid UTF-8' } : parseJsonText(raw.text);
}

/** Parses one line's bytes: invalid UTF-8 and invalid JSON become messages, never exceptions. */
export function parseLine(bytes: Buffer): ParsedLine {
  if (!isUtf8(bytes)) return { ok: false, message: 'invalid UTF-8' };
  return parseJsonText(bytes.toString('utf8'));
}

/** JSON.parse that also accepts Python's bare NaN / Infinity / -Infinity (as the markers below). */
export function parseJsonText(text: string): ParsedLine {
  if (text.includes('NaN') || text.includes('Infinity')) {
    const quick = replaceWrittenTokens(text);
    if (quick !== text) {
      try {
        return { ok: true, value: JSON.parse(quick) };
      } catch {
        // A token inside a string or written some other way: the replacement that reads strings decides.
      }
    }
    text = replacePythonTokens(text) ?? text;
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: `invalid JSON: ${(err as Error).message}` };
  }
}

// A token before "," "]" or "}"; the replacer also wants "[" or a separator's space before it (as json.dumps
// writes it). Checked there rather than with a lookbehind, which made the regex several times slower.
const WRITTEN_TOKEN = /(?:-Infinity|Infinity|NaN)(?=[,\]}])/g;

/**
 * Replaces the tokens where json.dumps writes them, without reading string literals (most result lines have NaN
 * metrics, and their long reasoning strings are what replacePythonTokens spends its time on). Never wrong when
 * JSON.parse accepts the output: a marker put inside a string closes it after a space or "[" (neither can end an
 * escape) and leaves a backslash outside any string, which JSON rejects; and a token left bare is rejected too.
 */
export function replaceWrittenTokens(text: string): string {
  return text.replace(WRITTEN_TOKEN, (m: string, at: number) => {
    const before = text.charCodeAt(at - 1);
    return before === 0x20 || before === 0x5b ? MARKERS[m] : m;
  });
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
  return typeof value === 'number' ? value : markerNumber(value);
}
