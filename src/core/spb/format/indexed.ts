// Reading tasks and results files through the persistent index (.personalab/index): an unchanged file comes from
// its cache, a results file that only grew is read from its old end, anything else is read in full and cached.
// A cache is used only when every check passes; the figures and diagnostics are then those of a cold read.
import { closeSync, readSync } from 'node:fs';
import { containerLength, decode, Encoder, verify } from '../../cache/codec';
import { sameStamp, stampOf, type IndexCache, type SourceStamp } from '../../cache/store';
import { DiagnosticSink, isRecord, type Diagnostic } from '../../io/diagnostics';
import { openRegularOrThrow } from '../../io/safeFs';
import { decodePickRows, decodeResults, decodeUsers, encodePickRows, encodeResults, encodeUsers } from './indexCodec';
import { LazyResults } from './lazyResults';
import { readResultsFile } from './results';
import { tagId } from '../score/step';
import { attachPickRows, attachSplitTables } from '../score/table';
import { readTasksFile, type Interner } from './tasks';
import type { Platform, User, UserResult } from '../types';

const TASKS = 'spb-tasks';
const RESULTS = 'spb-results';

interface Header {
  kind: string;
  rel: string;
  stamp: SourceStamp;
  /** For a results file: the stamp of the tasks file it was checked against. */
  tasks?: SourceStamp;
  lines: number;
  endsWithNewline: boolean;
  diagnostics: Diagnostic[];
}

export interface FileJob {
  abs: string;
  rel: string;
  platform: Platform;
}

/** How the files of one load were read, for the bench, the tests and the log. */
export interface CacheReport {
  hits: number;
  appended: number;
  read: number;
  /** Why the last index write failed (a read-only folder, a full disk); the files are then read again next time. */
  writeError?: string;
}

/** The index of one load: where it lives, the report to fill, and when to write what was read. */
export interface IndexContext {
  cache: IndexCache;
  report: CacheReport;
  /** Runs an index write now (absent) or later: the extension writes after the open, so it does not wait for it. */
  defer?: (write: () => void) => void;
}

const isStamp = (x: unknown): x is SourceStamp =>
  isRecord(x) && typeof x.size === 'number' && typeof x.mtimeMs === 'number' && typeof x.fingerprint === 'string';

const isDiagnostic = (x: unknown): x is Diagnostic =>
  isRecord(x) &&
  (x.severity === 'error' || x.severity === 'warning' || x.severity === 'info') &&
  typeof x.file === 'string' &&
  typeof x.line === 'number' &&
  typeof x.field === 'string' &&
  typeof x.message === 'string';

function headerOf(x: unknown, kind: string, rel: string): Header | null {
  if (!isRecord(x) || x.kind !== kind || x.rel !== rel || !isStamp(x.stamp)) return null;
  if (typeof x.lines !== 'number' || typeof x.endsWithNewline !== 'boolean') return null;
  if (!Array.isArray(x.diagnostics) || !x.diagnostics.every(isDiagnostic)) return null;
  if (x.tasks !== undefined && !isStamp(x.tasks)) return null;
  return x as unknown as Header;
}

function endsWithNewline(abs: string, size: number): boolean {
  if (size === 0) return true;
  const fd = openRegularOrThrow(abs).fd;
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** Decodes a cache body, or null when it does not decode to the end (then the file is read again). */
function attempt<T>(fn: () => T, done: () => boolean): T | null {
  try {
    const value = fn();
    return done() ? value : null;
  } catch {
    return null;
  }
}

function save(ix: IndexContext, kind: string, job: FileJob, header: Header, parts: ((enc: Encoder) => void)[]): void {
  const run = () => {
    write(ix.cache, kind, job, header, parts);
    if (ix.cache.lastWriteError) ix.report.writeError = ix.cache.lastWriteError;
  };
  if (ix.defer) ix.defer(run);
  else run();
}

function write(cache: IndexCache, kind: string, job: FileJob, header: Header, parts: ((enc: Encoder) => void)[]): void {
  // Written only when the file did not change while it was read: the cache then describes exactly what was read.
  const now = stampOf(job.abs);
  if (!sameStamp(now, header.stamp)) return;
  const full = { ...header, endsWithNewline: endsWithNewline(job.abs, now.size) };
  const bytes: Buffer[] = [];
  for (const [i, fill] of parts.entries()) {
    const enc = new Encoder();
    fill(enc);
    const part = enc.finish(i === 0 ? full : {});
    if (!part) return;
    bytes.push(part);
  }
  cache.write(kind, job.rel, Buffer.concat(bytes));
}

export async function readTasksIndexed(
  job: FileJob,
  sink: DiagnosticSink,
  intern: Interner,
  ix: IndexContext,
  onProgress?: (bytes: number) => void,
): Promise<{ users: Map<string, User>; stamp: SourceStamp }> {
  const { cache, report } = ix;
  const stamp = stampOf(job.abs);
  const bytes = cache.read(TASKS, job.rel);
  const entry = bytes && decode(bytes);
  const header = entry && headerOf(entry.header, TASKS, job.rel);
  if (entry && header && sameStamp(header.stamp, stamp)) {
    const tag = (s: string) => intern.get(s);
    const users = attempt(
      () => decodeUsers(entry.body, job.abs, job.rel, job.platform, tag),
      () => entry.body.done,
    );
    if (users) {
      report.hits++;
      sink.items.push(...header.diagnostics);
      attachSplitTables(users.values());
      return { users, stamp };
    }
  }
  report.read++;
  const users = await readTasksFile(job.abs, job.rel, job.platform, sink, intern, onProgress);
  const fresh: Header = { kind: TASKS, rel: job.rel, stamp, lines: 0, endsWithNewline: false, diagnostics: sink.items };
  save(ix, TASKS, job, fresh, [(enc) => encodeUsers(enc, users)]);
  return { users, stamp };
}

/**
 * A results cache is two containers: the header with the scorer's pick tables (decoded at every warm open), then
 * the rows themselves (checked at open and kept as bytes; decoded when a view first reads a row, or the file grew).
 */
function splitResults(bytes: Buffer): { head: Buffer; rows: Buffer } | null {
  const len = containerLength(bytes);
  return len > 0 && len < bytes.length ? { head: bytes.subarray(0, len), rows: bytes.subarray(len) } : null;
}

function rowsOf(rows: Buffer, job: FileJob, users: ReadonlyMap<string, User>, tag: (s: string) => string) {
  const entry = decode(rows);
  if (!entry) throw new Error(`${job.rel}: its index changed after it was checked; reopen with the index off`);
  const results = decodeResults(entry.body, job.abs, job.rel, job.platform, users, tag);
  if (!entry.body.done) throw new Error(`${job.rel}: its index does not match its rows; reopen with the index off`);
  return results;
}

export async function readResultsIndexed(
  job: FileJob,
  users: ReadonlyMap<string, User>,
  tasks: SourceStamp,
  sink: DiagnosticSink,
  intern: Interner,
  ix: IndexContext,
  onProgress?: (bytes: number) => void,
): Promise<Map<string, UserResult>> {
  const { cache, report } = ix;
  const stamp = stampOf(job.abs);
  const tag = (s: string) => intern.get(s);
  const bytes = cache.read(RESULTS, job.rel);
  const parts = bytes && splitResults(bytes);
  const entry = parts && verify(parts.rows) ? decode(parts.head) : null;
  const header = entry && headerOf(entry.header, RESULTS, job.rel);
  const usable = parts && entry && header?.tasks && sameStamp(header.tasks, tasks) ? header : null;
  if (parts && entry && usable && sameStamp(usable.stamp, stamp)) {
    const rows = attempt(
      () => decodePickRows(entry.body, users, tagId),
      () => entry.body.done,
    );
    if (rows) {
      report.hits++;
      sink.items.push(...usable.diagnostics);
      const results = new LazyResults(rows.rows.length, () => rowsOf(parts.rows, job, users, tag));
      attachPickRows(results, users, rows.rows, rows.errorSteps);
      return results;
    }
  }
  const grew =
    parts &&
    usable &&
    stamp.size > usable.stamp.size &&
    usable.endsWithNewline &&
    stampOf(job.abs, usable.stamp.size).fingerprint === usable.stamp.fingerprint;
  const before = grew
    ? attempt(
        () => rowsOf(parts.rows, job, users, tag),
        () => true,
      )
    : null;
  let read;
  if (usable && before) {
    report.appended++;
    sink.items.push(...usable.diagnostics);
    const resume = { results: before, offset: usable.stamp.size, line: usable.lines };
    read = await readResultsFile(job.abs, job.rel, job.platform, users, sink, intern, onProgress, resume);
  } else {
    report.read++;
    read = await readResultsFile(job.abs, job.rel, job.platform, users, sink, intern, onProgress);
  }
  const fresh: Header = {
    kind: RESULTS,
    rel: job.rel,
    stamp,
    tasks,
    lines: read.lines,
    endsWithNewline: false,
    diagnostics: sink.items,
  };
  const results = read.results;
  save(ix, RESULTS, job, fresh, [
    (enc) => encodePickRows(enc, results, users),
    (enc) => encodeResults(enc, results, users),
  ]);
  return results;
}
