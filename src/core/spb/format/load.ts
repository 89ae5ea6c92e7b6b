// Opens a benchmark folder in the official layout (or a single tasks file) into the in-memory index.
import { closeSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DiagnosticSink, type Diagnostic } from '../../io/diagnostics';
import { isFsError, isInside, openRegularOrThrow, SafeFolder } from '../../io/safeFs';
import { parseLine } from '../../io/jsonl';
import { IndexCache, type SourceStamp } from '../../cache/store';
import {
  hasCurrentTasksPage,
  readResultsIndexed,
  readTasksIndexed,
  type CacheReport,
  type IndexContext,
} from './indexed';
import { keepFigures, keepTotals, openFromFigures } from './figuresOnly';
import { readResultsFile } from './results';
import { Interner, readTaskTables, readTasksFile } from './tasks';
import { FileFigures } from '../score/fileFigures';
import type { TableUser } from '../score/tableUsers';
import {
  emptyBenchmark,
  PLATFORMS,
  isPlatform,
  type Benchmark,
  type Platform,
  type Run,
  type Step,
  type User,
} from '../types';

export interface LoadOptions {
  /** Called after each chunk with bytes read so far and total bytes of all files to read. */
  onProgress?: (done: number, total: number) => void;
  /** Only these runs (folder names under results/); all when absent. */
  runs?: readonly string[];
  /**
   * Where the persistent index lives (or a function of the benchmark's root that says where, undefined for none):
   * unchanged files are read from it and what was read is kept in it. No index when absent.
   */
  cacheDir?: string | ((root: string) => string | undefined);
  /** Index writes go here instead of being made during the load (see IndexContext.defer). */
  deferIndexWrites?: (write: () => void) => void;
  /** Filled with how many files came from the cache, were read from their old end, or were read in full. */
  cacheReport?: CacheReport;
  /**
   * Awaited after each file: the extension yields to its event loop there, since a file read from the index is
   * read without a pause (a file read in full pauses after each chunk).
   */
  betweenFiles?: () => Promise<void>;
  /**
   * The caller reads the runs' figures (scoreRun, runCoverage, failedRequests), the diagnostics and the run names:
   * when the index has every file's figures page, those are all that is read, and users and rows are read from the
   * index only if asked for (format/figuresOnly.ts).
   */
  figuresOnly?: boolean;
  /** discover(target), when the caller has just made it (the index worker): the folder is not listed again. */
  discovered?: Discovered;
}

interface FileJob {
  abs: string;
  rel: string;
  platform: Platform;
  size: number;
}

const TASKS_RE = /^(.+)_inference_tasks\.jsonl$/;
const RESULTS_RE = /^inference_results_(.+)\.jsonl$/;

/**
 * Finds the tasks files and run folders of a benchmark. Does not read them. An entry that cannot be used (a dangling
 * link, a link loop, no permission, a folder where a file belongs) is one of `problems`; the rest is found.
 */
/** A benchmark folder's readable files as discover() found them. */
export interface Discovered {
  root: string;
  tasks: FileJob[];
  runs: Map<string, FileJob[]>;
  orphans: string[];
  problems: Diagnostic[];
}

export function discover(target: string): Discovered {
  let root = target;
  let tasks: FileJob[];
  const stat = statSync(target);
  let fs: SafeFolder;
  if (stat.isFile()) {
    const dir = dirname(target);
    root = basename(dir) === 'data' ? dirname(dir) : dir;
    fs = new SafeFolder(root);
    const m = TASKS_RE.exec(basename(target));
    const platform = m && isPlatform(m[1]) ? m[1] : null;
    if (!platform) throw new Error(`${target}: not a <platform>_inference_tasks.jsonl file`);
    tasks = jobs(fs, [[target, platform]]);
  } else {
    fs = new SafeFolder(root);
    const dataDir = fs.kind(join(target, 'data')) === 'dir' ? join(target, 'data') : target;
    const found: [string, Platform][] = [];
    for (const name of fs.list(dataDir)) {
      const m = TASKS_RE.exec(name);
      if (m && isPlatform(m[1])) found.push([join(dataDir, name), m[1]]);
    }
    tasks = jobs(fs, found);
  }
  const wanted = new Set(tasks.map((t) => t.platform));
  const runs = new Map<string, FileJob[]>();
  const orphans: string[] = [];
  for (const run of fs.list(join(root, 'results'))) {
    const runDir = join(root, 'results', run);
    if (fs.kind(runDir) !== 'dir') continue;
    const found: [string, Platform][] = [];
    for (const name of fs.list(runDir)) {
      const m = RESULTS_RE.exec(name);
      if (!m || !isPlatform(m[1])) continue;
      if (wanted.has(m[1])) found.push([join(runDir, name), m[1]]);
      else if (!stat.isFile()) orphans.push(fs.rel(join(runDir, name)));
    }
    const files = jobs(fs, found);
    if (files.length) runs.set(run, files);
  }
  return { root, tasks, runs, orphans, problems: fs.diagnostics };
}

/** The files that can be read; the others are reported to `fs`. */
function jobs(fs: SafeFolder, files: [string, Platform][]): FileJob[] {
  return files.flatMap(([abs, platform]) => {
    const size = fs.fileSize(abs);
    return size === undefined ? [] : [{ abs, rel: fs.rel(abs), platform, size }];
  });
}

/** The index of the benchmark at `root` in `dir`. The index under the benchmark belongs to it: no write may leave it. */
function indexOf(root: string, dir: string, pages?: string[]): IndexCache {
  return new IndexCache(dir, isInside(root, dir) ? root : dir, pages);
}

/**
 * The bytes of `target` when the index in `cacheDir` holds no current page of any of its tasks files (a folder never
 * opened with this index, or whose tasks files all changed since): a load with it then reads every file in full.
 * Undefined when some tasks page is current, so that the load reads from the index what it can.
 */
export function firstReadBytes(found: Discovered, cacheDir: (root: string) => string | undefined): number | undefined {
  const dir = cacheDir(found.root);
  const cache = dir ? indexOf(found.root, dir) : undefined;
  if (cache && found.tasks.some((t) => hasCurrentTasksPage(cache, t))) return undefined;
  return [...found.tasks, ...[...found.runs.values()].flat()].reduce((n, f) => n + f.size, 0);
}

export async function loadBenchmark(target: string, opts: LoadOptions = {}): Promise<Benchmark> {
  const found = opts.discovered ?? discover(target);
  const runJobs = [...found.runs].filter(([name]) => !opts.runs || opts.runs.includes(name));
  const total = [...found.tasks, ...runJobs.flatMap(([, files]) => files)].reduce((s, f) => s + f.size, 0);
  let done = 0;
  const progress = (base: number) => (bytes: number) => opts.onProgress?.(base + bytes, total);
  const intern = new Interner();
  const bench = emptyBenchmark(found.root, found.problems);
  // Reads that fail after discovery (a file removed or made unreadable meanwhile) are reported here.
  const reads = new SafeFolder(found.root);
  const dir = typeof opts.cacheDir === 'function' ? opts.cacheDir(found.root) : opts.cacheDir;
  const report = opts.cacheReport ?? { hits: 0, appended: 0, read: 0 };
  const cache = dir ? indexOf(found.root, dir, report.pages) : undefined;
  const index: IndexContext | undefined = cache ? { cache, report, defer: opts.deferIndexWrites } : undefined;
  if (index && opts.figuresOnly) {
    const quick = openFromFigures(found, found.tasks, runJobs, index);
    if (quick) {
      quick.diagnostics.push(...closingDiagnostics(found));
      return quick;
    }
    // Some figures page is missing or out of date: the full load writes it for the next job.
    index.figures = true;
  }
  const stamps = new Map<Platform, SourceStamp>();
  // A figures-only load without an index keeps each tasks file's users as tables, which its results rows are folded
  // against as they are read (score/tableUsers.ts): no step objects, no rows.
  const cold = opts.figuresOnly && !index;
  const tables = new Map<Platform, ReadonlyMap<string, TableUser>>();
  for (const platform of PLATFORMS) {
    for (const f of found.tasks.filter((t) => t.platform === platform)) {
      const sink = new DiagnosticSink(f.rel);
      const read = await reads.read(f.abs, async () => {
        if (index) {
          const indexed = await readTasksIndexed(f, sink, intern, index, progress(done));
          stamps.set(platform, indexed.stamp);
          return indexed.users;
        }
        report.read++;
        if (!cold) return readTasksFile(f.abs, f.rel, platform, sink, intern, progress(done));
        const got = await readTaskTables(f.abs, f.rel, platform, sink, intern, progress(done));
        tables.set(platform, got.users);
        return keepTotals(f.rel, got.users.size, got.totals);
      });
      if (read) {
        bench.users.set(platform, read);
        bench.taskFiles.set(platform, f.rel);
      }
      bench.diagnostics.push(...sink.items);
      done += f.size;
      await opts.betweenFiles?.();
    }
  }
  for (const [name, files] of runJobs) {
    const run: Run = { name, results: new Map(), files: new Map() };
    for (const f of files) {
      const sink = new DiagnosticSink(f.rel);
      const users = bench.users.get(f.platform);
      const stamp = stamps.get(f.platform);
      // A figures-only load keeps each file's figures, not its rows: without an index to write, it folds each row
      // into the figures as it is read and keeps none; with one, it holds one file's rows at a time.
      const tableUsers = tables.get(f.platform);
      const fold = tableUsers ? new FileFigures(f.platform, tableUsers) : undefined;
      const read = await reads.read(f.abs, async () => {
        if (index && users && stamp) return readResultsIndexed(f, users, stamp, sink, intern, index, progress(done));
        report.read++;
        const got = await readResultsFile(
          f.abs,
          f.rel,
          f.platform,
          fold ? undefined : users,
          sink,
          intern,
          progress(done),
          undefined,
          fold,
        );
        return got.results;
      });
      const kept = fold ? { figures: fold.finish(), rows: fold.rows } : read;
      const results = read && kept && users && opts.figuresOnly ? keepFigures(f.rel, f.platform, users, kept) : read;
      if (results) {
        run.results.set(f.platform, results);
        run.files.set(f.platform, f.rel);
      }
      bench.diagnostics.push(...sink.items);
      done += f.size;
      await opts.betweenFiles?.();
    }
    bench.runs.set(name, run);
  }
  bench.diagnostics.push(...reads.diagnostics, ...closingDiagnostics(found));
  return bench;
}

/** The problems of the folder as a whole, after those of its files. */
function closingDiagnostics(found: { tasks: readonly FileJob[]; orphans: readonly string[] }): Diagnostic[] {
  const out: Diagnostic[] = found.orphans.map((file) => ({
    severity: 'warning',
    file,
    line: 0,
    field: '',
    message: 'no tasks file for this platform was opened; ignored',
  }));
  if (found.tasks.length === 0) {
    out.push({
      severity: 'error',
      file: '.',
      line: 0,
      field: '',
      message: 'no data/<platform>_inference_tasks.jsonl file found',
    });
  }
  return out;
}

/** Re-reads a user's line from disk: posts are not kept in memory (they are most of the bytes). Null if unreadable. */
export function readUserRecord(user: User): Record<string, unknown> | null {
  const buf = Buffer.alloc(user.ref.length);
  try {
    const fd = openRegularOrThrow(user.ref.file).fd;
    try {
      readSync(fd, buf, 0, buf.length, user.ref.offset);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    // The file went away or became unreadable since the load: no record, as for a line that changed under us.
    if (isFsError(err)) return null;
    throw err;
  }
  const parsed = parseLine(buf);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null
    ? (parsed.value as Record<string, unknown>)
    : null;
}

/** The step's `posts_text`, read from disk on demand; '' when it is missing or the file changed under us. */
export function readPostsText(user: User, step: Step): string {
  return postsTextOf(readUserRecord(user), step);
}

/**
 * As readPostsText, for a caller that reads a user's steps one after another (a run): the user's line is read and
 * parsed once for all of them, not once per step, and only one user's record is kept.
 */
export function userPostsReader(): (user: User, step: Step) => string {
  let last: User | undefined;
  let record: Record<string, unknown> | null = null;
  return (user, step) => {
    if (user !== last) {
      record = readUserRecord(user);
      last = user;
    }
    return postsTextOf(record, step);
  };
}

function postsTextOf(record: Record<string, unknown> | null, step: Step): string {
  const tasks = record?.prediction_tasks;
  if (!Array.isArray(tasks)) return '';
  const task: unknown = tasks[step.index];
  const text = typeof task === 'object' && task !== null ? (task as Record<string, unknown>).posts_text : undefined;
  return typeof text === 'string' ? text : '';
}

/** All users of all platforms in file order. */
export function* allUsers(bench: Benchmark): Iterable<User> {
  for (const users of bench.users.values()) yield* users.values();
}
