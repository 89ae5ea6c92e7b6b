// Reading tasks and results files through the persistent index (.personalab/index): an unchanged file comes from
// its cache, a results file that only grew is read from its old end, anything else is read in full and cached.
// A cache is used only when every check passes; the figures and diagnostics are then those of a cold read.
import { closeSync, readSync } from 'node:fs';
import { containerLength, decode, Encoder, verify, type Decoder } from '../../cache/codec';
import { isStamp, sameStamp, stampOf, type IndexCache, type SourceStamp } from '../../cache/store';
import { DiagnosticSink, isDiagnostic, isRecord, type Diagnostic } from '../../io/diagnostics';
import { openRegularOrThrow } from '../../io/safeFs';
import { decodePickRows, decodeResults, decodeUsers, encodePickRows, encodeResults, encodeUsers } from './indexCodec';
import { LazyResults } from './lazyResults';
import {
  computeFigures,
  encodeFigures,
  encodeTotals,
  FIGURES,
  pageBytes,
  pageHeader,
  readFigures,
  readTotals,
  TOTALS,
} from './figuresPage';
import { totalsIn } from '../score/coverage';
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
  /** When given, filled with each index page read, as `kind:file` (the tests count what a job reads). */
  pages?: string[];
}

/** The index of one load: where it lives, the report to fill, and when to write what was read. */
export interface IndexContext {
  cache: IndexCache;
  report: CacheReport;
  /** Runs an index write now (absent) or later: the extension writes after the open, so it does not wait for it. */
  defer?: (write: () => void) => void;
  /**
   * Write figures pages (format/figuresPage.ts), for a figures-only job: of each file read in full, and of each file
   * read from its page whose figures page does not check out. Only such a job reads them.
   */
  figures?: boolean;
}

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

/** Writes a page derived from what was read (a figures page), if the file did not change meanwhile. */
function savePage(ix: IndexContext, kind: string, job: FileJob, stamp: SourceStamp, bytes: () => Buffer | null): void {
  const run = () => {
    if (!sameStamp(stampOf(job.abs), stamp)) return;
    const page = bytes();
    if (page) ix.cache.write(kind, job.rel, page);
    if (ix.cache.lastWriteError) ix.report.writeError = ix.cache.lastWriteError;
  };
  if (ix.defer) ix.defer(run);
  else run();
}

function saveTotals(
  ix: IndexContext,
  job: FileJob,
  stamp: SourceStamp,
  users: ReadonlyMap<string, User>,
  d: Diagnostic[],
) {
  const header = pageHeader(TOTALS, job.rel, stamp, d);
  savePage(ix, TOTALS, job, stamp, () =>
    pageBytes(header, (enc) => encodeTotals(enc, users, totalsIn(users, job.platform))),
  );
}

function saveFigures(
  ix: IndexContext,
  job: FileJob,
  stamps: { stamp: SourceStamp; tasks: SourceStamp },
  users: ReadonlyMap<string, User>,
  results: ReadonlyMap<string, UserResult>,
  d: Diagnostic[],
) {
  const header = pageHeader(FIGURES, job.rel, stamps.stamp, d, stamps.tasks);
  const fill = (enc: Encoder) => encodeFigures(enc, results.size, computeFigures(job.platform, users, results));
  savePage(ix, FIGURES, job, stamps.stamp, () => pageBytes(header, fill));
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

/** Whether the index holds a page of this tasks file that checks out against the file as it is now (its header only). */
export function hasCurrentTasksPage(cache: IndexCache, job: FileJob): boolean {
  const bytes = cache.read(TASKS, job.rel);
  const entry = bytes && decode(bytes);
  const header = entry && headerOf(entry.header, TASKS, job.rel);
  return Boolean(header && sameStamp(header.stamp, stampOf(job.abs)));
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
  const hit = tasksFromIndex(job, intern, cache, stamp);
  if (hit) {
    report.hits++;
    sink.items.push(...hit.diagnostics);
    if (ix.figures && !readTotals(cache, job.rel, stamp)) saveTotals(ix, job, stamp, hit.users, hit.diagnostics);
    return { users: hit.users, stamp };
  }
  report.read++;
  const users = await readTasksFile(job.abs, job.rel, job.platform, sink, intern, onProgress);
  const fresh: Header = { kind: TASKS, rel: job.rel, stamp, lines: 0, endsWithNewline: false, diagnostics: sink.items };
  save(ix, TASKS, job, fresh, [(enc) => encodeUsers(enc, users)]);
  if (ix.figures) saveTotals(ix, job, stamp, users, sink.items);
  return { users, stamp };
}

/** A tasks file's users from its page, when the page checks out against the file as it is now (`stamp`). */
export function tasksFromIndex(
  job: FileJob,
  intern: Interner,
  cache: IndexCache,
  stamp: SourceStamp,
): { users: Map<string, User>; diagnostics: Diagnostic[] } | null {
  const bytes = cache.read(TASKS, job.rel);
  const entry = bytes && decode(bytes);
  const header = entry && headerOf(entry.header, TASKS, job.rel);
  if (!entry || !header || !sameStamp(header.stamp, stamp)) return null;
  const tag = (s: string) => intern.get(s);
  const users = attempt(
    () => decodeUsers(entry.body, job.abs, job.rel, job.platform, tag),
    () => entry.body.done,
  );
  if (!users) return null;
  attachSplitTables(users.values());
  return { users, diagnostics: header.diagnostics };
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
  const page = resultsPage(cache, job, tasks);
  const { parts, usable } = page ?? {};
  const hit = page && resultsFromPage(page, job, users, intern, stamp);
  if (hit) {
    report.hits++;
    sink.items.push(...hit.diagnostics);
    if (ix.figures && !readFigures(cache, job.rel, stamp, tasks))
      saveFigures(ix, job, { stamp, tasks }, users, hit.results, hit.diagnostics);
    return hit.results;
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
  if (ix.figures) saveFigures(ix, job, { stamp, tasks }, users, results, sink.items);
  return results;
}

interface ResultsPage {
  parts: { head: Buffer; rows: Buffer };
  entry: { header: unknown; body: Decoder };
  /** The header, when the page was written against this tasks file (the results file itself not yet compared). */
  usable: Header | null;
}

function resultsPage(cache: IndexCache, job: FileJob, tasks: SourceStamp): ResultsPage | null {
  const bytes = cache.read(RESULTS, job.rel);
  const parts = bytes && splitResults(bytes);
  const entry = parts && verify(parts.rows) ? decode(parts.head) : null;
  if (!parts || !entry) return null;
  const header = headerOf(entry.header, RESULTS, job.rel);
  return { parts, entry, usable: header?.tasks && sameStamp(header.tasks, tasks) ? header : null };
}

/** A results file's rows from its page (kept as bytes until read), when the page checks out against the file. */
function resultsFromPage(
  page: ResultsPage,
  job: FileJob,
  users: ReadonlyMap<string, User>,
  intern: Interner,
  stamp: SourceStamp,
): { results: LazyResults; diagnostics: Diagnostic[] } | null {
  const { parts, entry, usable } = page;
  if (!usable || !sameStamp(usable.stamp, stamp)) return null;
  const rows = attempt(
    () => decodePickRows(entry.body, users, tagId),
    () => entry.body.done,
  );
  if (!rows) return null;
  const tag = (s: string) => intern.get(s);
  const results = new LazyResults(rows.rows.length, () => rowsOf(parts.rows, job, users, tag));
  attachPickRows(results, users, rows.rows, rows.errorSteps);
  return { results, diagnostics: usable.diagnostics };
}

/** As resultsFromPage, reading the page: for a job that took its figures from the index and now needs the rows. */
export function resultsFromIndex(
  cache: IndexCache,
  job: FileJob,
  users: ReadonlyMap<string, User>,
  tasks: SourceStamp,
  intern: Interner,
  stamp: SourceStamp,
): LazyResults | null {
  const page = resultsPage(cache, job, tasks);
  return (page && resultsFromPage(page, job, users, intern, stamp)?.results) ?? null;
}
