// A load for a job that prints figures only (`score` without --sample or --memory): when the index has a figures
// page for every file, checked against each file as it is now, the benchmark is built from those pages alone. Its
// users and rows are maps that read the file's own index page the first time something reads them, so the job
// still works if it reads more than its figures; it only costs the rows it reads.
import { stampOf, type SourceStamp } from '../../cache/store';
import { isFsError } from '../../io/safeFs';
import { LazyMap } from '../../lazyMap';
import { attachFigures, attachTotals, type PlatformFigures, type PlatformTotals } from '../score/stored';
import { computeFigures, readFigures, readTotals } from './figuresPage';
import { resultsFromIndex, tasksFromIndex, type FileJob, type IndexContext } from './indexed';
import { LazyResults } from './lazyResults';
import { Interner } from './tasks';
import {
  emptyBenchmark,
  PLATFORMS,
  type Benchmark,
  type Platform,
  type Run,
  type User,
  type UserResult,
} from '../types';

const changed = (rel: string) => `${rel}: its index changed after it was checked; run the job again`;

/** The benchmark from the figures pages; null when some page does not check out (the caller loads in full). */
export function openFromFigures(
  found: { root: string; problems: Benchmark['diagnostics'] },
  tasks: readonly FileJob[],
  runJobs: readonly [string, readonly FileJob[]][],
  ix: IndexContext,
): Benchmark | null {
  const { cache } = ix;
  const intern = new Interner();
  const bench = emptyBenchmark(found.root, found.problems);
  const stamps = new Map<Platform, SourceStamp>();
  let hits = 0;
  try {
    for (const platform of PLATFORMS) {
      for (const f of tasks.filter((t) => t.platform === platform)) {
        const stamp = stampOf(f.abs);
        const page = readTotals(cache, f.rel, stamp);
        if (!page) return null;
        const users = new LazyMap<string, User>(page.count, () => {
          const got = tasksFromIndex(f, intern, cache, stamp);
          if (!got) throw new Error(changed(f.rel));
          return got.users;
        });
        attachTotals(users, page.totals);
        bench.users.set(platform, users);
        bench.taskFiles.set(platform, f.rel);
        bench.diagnostics.push(...page.diagnostics);
        stamps.set(platform, stamp);
        hits++;
      }
    }
    for (const [name, files] of runJobs) {
      const run: Run = { name, results: new Map(), files: new Map() };
      for (const f of files) {
        const users = bench.users.get(f.platform);
        const tasksStamp = stamps.get(f.platform);
        if (!users || !tasksStamp) return null;
        const stamp = stampOf(f.abs);
        const page = readFigures(cache, f.rel, stamp, tasksStamp);
        if (!page) return null;
        const results = new LazyResults(page.rows, () => {
          const got = resultsFromIndex(cache, f, users, tasksStamp, intern, stamp);
          if (!got) throw new Error(changed(f.rel));
          return got;
        });
        attachFigures(results, users, page.figures);
        run.results.set(f.platform, results);
        run.files.set(f.platform, f.rel);
        bench.diagnostics.push(...page.diagnostics);
        hits++;
      }
      bench.runs.set(name, run);
    }
  } catch (err) {
    // A file gone or unreadable since it was found: the full load reports it where it belongs.
    if (isFsError(err)) return null;
    throw err;
  }
  ix.report.hits += hits;
  return bench;
}

/**
 * A results file as a figures-only load keeps it: its figures (given, or computed from its rows), and no rows (a
 * cold `score` holds one file's rows at a time, or none). Reading a row of it is a mistake of the caller's, said so.
 */
export function keepFigures(
  rel: string,
  platform: Platform,
  users: ReadonlyMap<string, User>,
  from: ReadonlyMap<string, UserResult> | { figures: PlatformFigures; rows: number },
): LazyResults {
  const { figures, rows } =
    'figures' in from ? from : { figures: computeFigures(platform, users, from), rows: from.size };
  const kept = new LazyResults(rows, () => {
    throw new Error(`${rel}: a figures-only load keeps no rows; load it without figuresOnly`);
  });
  attachFigures(kept, users, figures);
  return kept;
}

/**
 * A tasks file's users as a cold figures-only load keeps them: how many, and the totals a run's coverage counts
 * against; the users themselves are tables the loader folds rows against (score/tableUsers.ts), not kept here.
 */
export function keepTotals(rel: string, count: number, totals: PlatformTotals): LazyMap<string, User> {
  const kept = new LazyMap<string, User>(count, () => {
    throw new Error(`${rel}: a figures-only load keeps no users' steps; load it without figuresOnly`);
  });
  attachTotals(kept, totals);
  return kept;
}
