// Streaming index of one raw user file `{ "<uid>": { "user_profile": "...", "action_history": [ {...}, ... ] } }`.
// A file can hold over 100,000 records, so it is never parsed whole: a byte scanner (string- and escape-aware) finds
// each action_history element, and each element is parsed on its own, kept only long enough to take its scene, time
// and behaviours into typed arrays. readHistory() reads records back from their byte ranges when a view needs them.
import { openRegularHandle } from '../io/safeFs';
import type { DiagnosticSink } from '../io/diagnostics';
import { parseJsonText } from '../io/jsonl';
import { decodeRecord, sceneCode, SCENES, BEHAVIOURS, UNKNOWN_SCENE } from './records';
import type { HistoryIndex, HistoryRecord } from './types';

export { SCENES, BEHAVIOURS, UNKNOWN_SCENE };
export type { HistoryIndex } from './types';

export interface IndexOptions {
  /** Problems in the file, located by line; dropped when absent. */
  sink?: DiagnosticSink;
  /** Bytes scanned so far, after each chunk. */
  onProgress?: (bytes: number) => void;
  /** Read size; small values exercise records that straddle chunks. */
  chunkSize?: number;
}

const CHUNK = 1 << 20;
const [QUOTE, BACKSLASH, LBRACE, RBRACE, LBRACKET, RBRACKET, COMMA, COLON, NL] = [
  0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x0a,
];
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d || b === NL;
const MAX_KEY = 512;

/** Where the scanner is inside one container: awaiting a key or a value, or after one. */
const enum Phase {
  Key,
  Colon,
  Value,
  After,
}

interface Capture {
  kind: 'profile' | 'record';
  depth: number;
  start: number;
  line: number;
  parts: Buffer[];
}

/** Typed columns that grow by doubling while the count is unknown. */
class Columns {
  size = 0;
  offsets = new Float64Array(1024);
  lengths = new Uint32Array(1024);
  lines = new Uint32Array(1024);
  scenes = new Uint8Array(1024);
  times = new Float64Array(1024);
  behaviours = new Uint32Array(1024);

  push(offset: number, length: number, line: number, scene: number, time: number, behaviours: number): void {
    if (this.size === this.offsets.length) this.grow(this.size * 2);
    const i = this.size++;
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.lines[i] = line;
    this.scenes[i] = scene;
    this.times[i] = time;
    this.behaviours[i] = behaviours;
  }
  private grow(n: number): void {
    const next = <T extends Float64Array | Uint32Array | Uint8Array>(old: T, make: new (n: number) => T): T => {
      const a = new make(n);
      a.set(old);
      return a;
    };
    this.offsets = next(this.offsets, Float64Array);
    this.lengths = next(this.lengths, Uint32Array);
    this.lines = next(this.lines, Uint32Array);
    this.scenes = next(this.scenes, Uint8Array);
    this.times = next(this.times, Float64Array);
    this.behaviours = next(this.behaviours, Uint32Array);
  }
  /** Copies trimmed to the count, so that the spare capacity is freed. */
  trimmed(): Pick<HistoryIndex, 'offsets' | 'lengths' | 'lines' | 'scenes' | 'times' | 'behaviours'> {
    const n = this.size;
    return {
      offsets: this.offsets.slice(0, n),
      lengths: this.lengths.slice(0, n),
      lines: this.lines.slice(0, n),
      scenes: this.scenes.slice(0, n),
      times: this.times.slice(0, n),
      behaviours: this.behaviours.slice(0, n),
    };
  }
}

export async function indexUserFile(file: string, opts: IndexOptions = {}): Promise<HistoryIndex> {
  const { sink } = opts;
  const cols = new Columns();
  let userId = '';
  let profile = '';
  let users = 0;
  const unknownBehaviours = new Set<string>();

  // Scanner state.
  let depth = 0;
  const isObject: boolean[] = [false];
  const phase: Phase[] = [Phase.Value];
  let inString = false;
  let escape = false;
  let line = 1;
  let inKey = false;
  let keyBytes: number[] | null = null;
  let keyAtDepth2 = '';
  let historyDepth = -1;
  let lastNonSpace = -1;
  let scalarOpen = false;
  // The value being captured (the profile or one history element): start, line and the bytes of earlier chunks.
  let capture = null as Capture | null;

  const finishCapture = (chunk: Buffer, chunkBase: number, end: number) => {
    if (!capture) return;
    const c = capture;
    capture = null;
    const from = Math.max(0, c.start - chunkBase);
    const tail = chunk.subarray(from, end - chunkBase);
    const bytes = c.parts.length ? Buffer.concat([...c.parts, tail]) : tail;
    const parsed = parseJsonText(bytes.toString('utf8'));
    if (c.kind === 'profile') {
      if (parsed.ok && typeof parsed.value === 'string') profile = parsed.value;
      else sink?.warn(c.line, 'user_profile', 'expected a string; taken as empty');
      return;
    }
    const index = cols.size;
    const at = `action_history[${index}]`;
    if (!parsed.ok) {
      sink?.error(c.line, at, parsed.message);
      cols.push(c.start, end - c.start, c.line, UNKNOWN_SCENE, NaN, 0);
      return;
    }
    const d = decodeRecord(parsed.value, index, c.line, at);
    for (const p of d.problems) sink?.add(p.severity, c.line, p.field, p.message);
    for (const type of d.unknownBehaviours) {
      if (unknownBehaviours.has(type)) continue;
      unknownBehaviours.add(type);
      sink?.warn(c.line, `${at}.action`, `unknown behaviour "${type}" (reported once per file)`);
    }
    cols.push(c.start, end - c.start, c.line, sceneCode(d.scene), d.time, d.behaviours);
  };

  /** A value begins at `pos` in the container at the current depth. */
  const valueStarts = (pos: number) => {
    const p = phase[depth];
    if (depth === 0 && p === Phase.After) sink?.error(line, '', 'more than one top-level value; the rest is ignored');
    phase[depth] = Phase.After;
    if (capture) return;
    if (depth === historyDepth) capture = { kind: 'record', depth, start: pos, line, parts: [] };
    else if (depth === 2 && users === 1 && keyAtDepth2 === 'user_profile')
      capture = { kind: 'profile', depth, start: pos, line, parts: [] };
  };

  const endKey = () => {
    const key = Buffer.from(keyBytes ?? []).toString('utf8');
    keyBytes = null;
    if (depth === 1) {
      users++;
      if (users === 1) userId = key;
      else if (users === 2) sink?.warn(line, key, `the file holds more than one user; only "${userId}" is read`);
    } else if (depth === 2) keyAtDepth2 = key;
  };

  const handle = openRegularHandle(file);
  const chunkSize = opts.chunkSize ?? CHUNK;
  const buf = Buffer.allocUnsafe(chunkSize);
  let chunkBase = 0;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, chunkSize, chunkBase);
      if (bytesRead === 0) break;
      const chunk = buf.subarray(0, bytesRead);
      let i = chunkBase === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
      for (; i < chunk.length; i++) {
        const b = chunk[i];
        if (b === NL) line++;
        if (inString) {
          if (escape) escape = false;
          else if (b === BACKSLASH) escape = true;
          else if (b === QUOTE) {
            inString = false;
            if (inKey) {
              inKey = false;
              if (keyBytes) endKey();
            } else if (capture && capture.depth === depth) finishCapture(chunk, chunkBase, chunkBase + i + 1);
          } else if (keyBytes && keyBytes.length < MAX_KEY) keyBytes.push(b);
          continue;
        }
        if (isSpace(b)) continue;
        const pos = chunkBase + i;
        if (scalarOpen && (b === COMMA || b === RBRACE || b === RBRACKET)) {
          scalarOpen = false;
          if (capture && capture.depth === depth) finishCapture(chunk, chunkBase, lastNonSpace + 1);
        }
        lastNonSpace = pos;
        if (b === QUOTE) {
          inString = true;
          if (isObject[depth] && phase[depth] === Phase.Key) {
            inKey = true;
            if (depth <= 2) keyBytes = [];
            phase[depth] = Phase.Colon;
          } else valueStarts(pos);
        } else if (b === LBRACE || b === LBRACKET) {
          valueStarts(pos);
          const opensHistory =
            b === LBRACKET && depth === 2 && users === 1 && keyAtDepth2 === 'action_history' && historyDepth === -1;
          depth++;
          isObject[depth] = b === LBRACE;
          phase[depth] = b === LBRACE ? Phase.Key : Phase.Value;
          if (opensHistory) historyDepth = depth;
        } else if (b === RBRACE || b === RBRACKET) {
          if (depth === 0) {
            sink?.error(line, '', `unexpected "${String.fromCharCode(b)}"`);
            continue;
          }
          if (depth === historyDepth) historyDepth = -2;
          depth--;
          if (capture && capture.depth === depth) finishCapture(chunk, chunkBase, pos + 1);
        } else if (b === COMMA) {
          phase[depth] = isObject[depth] ? Phase.Key : Phase.Value;
        } else if (b === COLON) {
          phase[depth] = Phase.Value;
        } else if (!scalarOpen) {
          scalarOpen = true;
          valueStarts(pos);
        }
      }
      if (capture) capture.parts.push(Buffer.from(chunk.subarray(Math.max(0, capture.start - chunkBase))));
      chunkBase += bytesRead;
      opts.onProgress?.(chunkBase);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    await handle.close();
  }
  if (scalarOpen && capture) finishCapture(Buffer.alloc(0), chunkBase, lastNonSpace + 1);
  if (inString || depth > 0) sink?.error(line, '', 'the file ends inside a value (truncated?)');
  if (capture)
    sink?.error(capture.line, `action_history[${cols.size}]`, 'record cut off by the end of the file; ignored');
  if (users === 0) sink?.error(0, '', 'no user object ({ "<user_id>": { ... } }) found');
  else if (historyDepth === -1) sink?.error(0, 'action_history', 'missing or not an array');
  return { userId, profile, count: cols.size, ...cols.trimmed() };
}

/**
 * Records [from, to) of the history, read from their byte ranges only. Records that cannot be decoded (invalid JSON,
 * unknown scene; reported when indexing) are left out, so callers should go by each record's `index`.
 */
export async function readHistory(
  file: string,
  index: HistoryIndex,
  from: number,
  to: number,
): Promise<HistoryRecord[]> {
  const lo = Math.max(0, Math.floor(from));
  const hi = Math.min(index.count, Math.ceil(to));
  const out: HistoryRecord[] = [];
  if (hi <= lo) return out;
  const handle = openRegularHandle(file);
  try {
    // Contiguous records are read in batches of up to ~8 MiB, a record larger than that on its own.
    let i = lo;
    while (i < hi) {
      const start = index.offsets[i];
      let j = i + 1;
      while (j < hi && index.offsets[j] + index.lengths[j] - start <= 8 << 20) j++;
      const end = index.offsets[j - 1] + index.lengths[j - 1];
      const bytes = Buffer.alloc(end - start);
      await handle.read(bytes, 0, bytes.length, start);
      for (let k = i; k < j; k++) {
        const slice = bytes.subarray(index.offsets[k] - start, index.offsets[k] - start + index.lengths[k]);
        const parsed = parseJsonText(slice.toString('utf8'));
        if (!parsed.ok) continue;
        const d = decodeRecord(parsed.value, k, index.lines[k], `action_history[${k}]`);
        if (d.record) out.push(d.record);
      }
      i = j;
    }
  } finally {
    await handle.close();
  }
  return out;
}

/** The records at the given positions (any order; undecodable ones left out), read with one open of the file. */
export async function readRecordsAt(
  file: string,
  index: HistoryIndex,
  positions: readonly number[],
): Promise<Map<number, HistoryRecord>> {
  const out = new Map<number, HistoryRecord>();
  const handle = openRegularHandle(file);
  try {
    for (const k of positions) {
      if (!(k >= 0 && k < index.count) || out.has(k)) continue;
      const bytes = Buffer.alloc(index.lengths[k]);
      await handle.read(bytes, 0, bytes.length, index.offsets[k]);
      const parsed = parseJsonText(bytes.toString('utf8'));
      const record = parsed.ok ? decodeRecord(parsed.value, k, index.lines[k], `action_history[${k}]`).record : null;
      if (record) out.set(k, record);
    }
  } finally {
    await handle.close();
  }
  return out;
}
