// Opens a benchmark folder in the official layout (or a single tasks file) into the in-memory index.
import { closeSync, openSync, readSync, readdirSync, statSync, existsSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { DiagnosticSink } from '../io/diagnostics';
import { parseLine } from '../io/jsonl';
import { IndexCache, type SourceStamp } from '../cache/store';
import { readResultsIndexed, readTasksIndexed, type CacheReport } from './indexed';
import { readResultsFile } from './results';
import { Interner, readTasksFile } from './tasks';
import { PLATFORMS, isPlatform, type Benchmark, type Platform, type Run, type Step, type User } from './types';

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
}

interface FileJob {
  abs: string;
  rel: string;
  platform: Platform;
  size: number;
}

const TASKS_RE = /^(.+)_inference_tasks\.jsonl$/;
const RESULTS_RE = /^inference_results_(.+)\.jsonl$/;

/** Finds the tasks files and run folders of a benchmark. Does not read them. */
export function discover(target: string): {
  root: string;
  tasks: FileJob[];
  runs: Map<string, FileJob[]>;
  orphans: string[];
} {
  let root = target;
  let tasks: FileJob[] = [];
  const stat = statSync(target);
  if (stat.isFile()) {
    const dir = dirname(target);
    root = basename(dir) === 'data' ? dirname(dir) : dir;
    const m = TASKS_RE.exec(basename(target));
    const platform = m && isPlatform(m[1]) ? m[1] : null;
    if (!platform) throw new Error(`${target}: not a <platform>_inference_tasks.jsonl file`);
    tasks = [job(root, target, platform)];
  } else {
    const dataDir = existsSync(join(target, 'data')) ? join(target, 'data') : target;
    for (const name of sortedEntries(dataDir)) {
      const m = TASKS_RE.exec(name);
      if (m && isPlatform(m[1])) tasks.push(job(root, join(dataDir, name), m[1]));
    }
  }
  const wanted = new Set(tasks.map((t) => t.platform));
  const runs = new Map<string, FileJob[]>();
  const orphans: string[] = [];
  const resultsDir = join(root, 'results');
  if (existsSync(resultsDir) && statSync(resultsDir).isDirectory()) {
    for (const run of sortedEntries(resultsDir)) {
      const runDir = join(resultsDir, run);
      if (!statSync(runDir).isDirectory()) continue;
      const files: FileJob[] = [];
      for (const name of sortedEntries(runDir)) {
        const m = RESULTS_RE.exec(name);
        if (!m || !isPlatform(m[1])) continue;
        if (wanted.has(m[1])) files.push(job(root, join(runDir, name), m[1]));
        else if (!stat.isFile()) orphans.push(relative(root, join(runDir, name)).split('\\').join('/'));
      }
      if (files.length) runs.set(run, files);
    }
  }
  return { root, tasks, runs, orphans };
}

function sortedEntries(dir: string): string[] {
  return readdirSync(dir).sort();
}

function job(root: string, abs: string, platform: Platform): FileJob {
  return { abs, rel: relative(root, abs).split('\\').join('/'), platform, size: statSync(abs).size };
}

export async function loadBenchmark(target: string, opts: LoadOptions = {}): Promise<Benchmark> {
  const found = discover(target);
  const runJobs = [...found.runs].filter(([name]) => !opts.runs || opts.runs.includes(name));
  const total = [...found.tasks, ...runJobs.flatMap(([, files]) => files)].reduce((s, f) => s + f.size, 0);
  let done = 0;
  const progress = (base: number) => (bytes: number) => opts.onProgress?.(base + bytes, total);
  const intern = new Interner();
  const bench: Benchmark = {
    root: found.root,
    users: new Map(),
    runs: new Map(),
    diagnostics: [],
    taskFiles: new Map(),
  };
  const dir = typeof opts.cacheDir === 'function' ? opts.cacheDir(found.root) : opts.cacheDir;
  const report = opts.cacheReport ?? { hits: 0, appended: 0, read: 0 };
  const index = dir ? { cache: new IndexCache(dir), report, defer: opts.deferIndexWrites } : undefined;
  const stamps = new Map<Platform, SourceStamp>();
  for (const platform of PLATFORMS) {
    for (const f of found.tasks.filter((t) => t.platform === platform)) {
      const sink = new DiagnosticSink(f.rel);
      if (index) {
        const read = await readTasksIndexed(f, sink, intern, index, progress(done));
        bench.users.set(platform, read.users);
        stamps.set(platform, read.stamp);
      } else {
        report.read++;
        bench.users.set(platform, await readTasksFile(f.abs, f.rel, platform, sink, intern, progress(done)));
      }
      bench.taskFiles.set(platform, f.rel);
      bench.diagnostics.push(...sink.items);
      done += f.size;
    }
  }
  for (const [name, files] of runJobs) {
    const run: Run = { name, results: new Map(), files: new Map() };
    for (const f of files) {
      const sink = new DiagnosticSink(f.rel);
      const users = bench.users.get(f.platform);
      const stamp = stamps.get(f.platform);
      if (index && users && stamp) {
        run.results.set(f.platform, await readResultsIndexed(f, users, stamp, sink, intern, index, progress(done)));
      } else {
        report.read++;
        const read = await readResultsFile(f.abs, f.rel, f.platform, users, sink, intern, progress(done));
        run.results.set(f.platform, read.results);
      }
      run.files.set(f.platform, f.rel);
      bench.diagnostics.push(...sink.items);
      done += f.size;
    }
    bench.runs.set(name, run);
  }
  for (const file of found.orphans) {
    bench.diagnostics.push({
      severity: 'warning',
      file,
      line: 0,
      field: '',
      message: 'no tasks file for this platform was opened; ignored',
    });
  }
  if (found.tasks.length === 0) {
    bench.diagnostics.push({
      severity: 'error',
      file: '.',
      line: 0,
      field: '',
      message: 'no data/<platform>_inference_tasks.jsonl file found',
    });
  }
  return bench;
}

/** Re-reads a user's line from disk: posts are not kept in memory (they are most of the bytes). */
export function readUserRecord(user: User): Record<string, unknown> | null {
  const buf = Buffer.alloc(user.ref.length);
  const fd = openSync(user.ref.file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, user.ref.offset);
  } finally {
    closeSync(fd);
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
