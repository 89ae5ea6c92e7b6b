// The index's figures pages: per results file, the figures a run's `score` prints for its platform; per tasks file,
// the totals its runs' coverage counts against. A warm `score` reads these small pages and no rows (issue #47 item
// 3). They are derived with the scoring functions themselves, and a page names the code it was computed by (a
// digest of the running bundle), so a page computed by other code is not read: it is computed again.
import { readFileSync } from 'node:fs';
import { decode, Encoder, type Decoder } from '../../cache/codec';
import { isStamp, sameStamp, type IndexCache, type SourceStamp } from '../../cache/store';
import { CoverageKey } from '../../coverage';
import { isDiagnostic, isRecord, type Diagnostic } from '../../io/diagnostics';
import { runCoverage } from '../score/coverage';
import { failedRequests, isErrorRecord } from '../score/failedRequests';
import { scoreRun } from '../score/run';
import { aggregateUsers, countHits, metricsFromHits, metricsTableOf, nanMean, splitIndex } from '../score/step';
import type { PlatformFigures, PlatformTotals } from '../score/stored';
import { scoreFromTables } from '../score/table';
import { METRIC_KEYS, type Benchmark, type Platform, type Run, type User, type UserResult } from '../types';
import { crypto } from '../../io/builtins';

export const FIGURES = 'spb-figures';
export const TOTALS = 'spb-totals';

let codeId: string | undefined;

/**
 * A digest of the code a figures page is computed by: the file the running code was loaded from (the CLI's or the
 * extension's bundle: any change to it, in scoring or not, computes the pages again), and the scoring functions'
 * own source where there is no such file.
 */
function figuresCode(): string {
  if (codeId !== undefined) return codeId;
  const hash = crypto().createHash('sha1');
  const parts = [
    scoreRun,
    aggregateUsers,
    scoreFromTables,
    countHits,
    metricsFromHits,
    splitIndex,
    nanMean,
    runCoverage,
    CoverageKey,
    failedRequests,
    isErrorRecord,
  ];
  hash.update(parts.map((f) => f.toString()).join('\n'));
  try {
    hash.update(readFileSync(__filename));
  } catch {
    // No file to read (code evaluated from memory): the functions' source alone names it.
  }
  codeId = hash.digest('hex');
  return codeId;
}

export interface PageHeader {
  kind: string;
  rel: string;
  code: string;
  stamp: SourceStamp;
  /** For a results file: the stamp of the tasks file its figures were computed against. */
  tasks?: SourceStamp;
  diagnostics: Diagnostic[];
}

/** The page's header when it is one of this code's pages for this file as it is now; null otherwise. */
function headerOf(x: unknown, kind: string, rel: string, stamp: SourceStamp, tasks?: SourceStamp): PageHeader | null {
  if (!isRecord(x) || x.kind !== kind || x.rel !== rel || x.code !== figuresCode()) return null;
  if (!isStamp(x.stamp) || !sameStamp(x.stamp, stamp)) return null;
  if (tasks && !(isStamp(x.tasks) && sameStamp(x.tasks, tasks))) return null;
  if (!Array.isArray(x.diagnostics) || !x.diagnostics.every(isDiagnostic)) return null;
  return x as unknown as PageHeader;
}

// Computed once per results map and users (a figures-only load and the index's page both ask; maps are not
// changed after a load).
const computed = new WeakMap<
  ReadonlyMap<string, UserResult>,
  { users: ReadonlyMap<string, User>; f: PlatformFigures }
>();

/** The figures of one results file: the run's figures for its platform, computed as `score` computes them. */
export function computeFigures(
  platform: Platform,
  users: ReadonlyMap<string, User>,
  results: ReadonlyMap<string, UserResult>,
): PlatformFigures {
  const known = computed.get(results);
  if (known?.users === users) return known.f;
  const f = figuresOfFile(platform, users, results);
  computed.set(results, { users, f });
  return f;
}

function figuresOfFile(
  platform: Platform,
  users: ReadonlyMap<string, User>,
  results: ReadonlyMap<string, UserResult>,
): PlatformFigures {
  // A benchmark and a run of this one file (platforms are scored apart, so its figures are the whole run's).
  const bench: Benchmark = {
    root: '',
    users: new Map([[platform, users as Map<string, User>]]),
    runs: new Map(),
    diagnostics: [],
    taskFiles: new Map(),
  };
  const run: Run = { name: '', results: new Map([[platform, results as Map<string, UserResult>]]), files: new Map() };
  const score = scoreRun(bench, run);
  const failed = failedRequests(bench, run, undefined, score);
  const p = score.platforms.get(platform);
  const f = failed.platforms.get(platform);
  if (!p || !f) throw new Error('figures of a platform that was not scored');
  const c = score.coverage.platforms.get(platform);
  const { userScores: _, ...aggregate } = p;
  return {
    score: aggregate,
    coverage: c
      ? { users: c.users, items: c.items, key: c.key ?? '' }
      : { users: { covered: 0, total: 0 }, items: { covered: 0, total: 0 }, key: '' },
    failed: { failed: f.failed, steps: f.steps, recallExcludingFailed: f.RecallExcludingFailed },
  };
}

export function encodeFigures(enc: Encoder, rows: number, f: PlatformFigures): void {
  const s = f.score;
  for (const n of [rows, s.users, s.steps, f.coverage.users.covered, f.coverage.items.covered]) enc.int(n);
  for (const n of [f.failed.failed, f.failed.steps]) enc.int(n);
  enc.str(f.coverage.key);
  for (const key of METRIC_KEYS) enc.float(s.metrics[key]);
  for (const n of [s.f1ns, s.f1nsHarmonicOfMeans, f.failed.recallExcludingFailed]) enc.float(n);
}

export function encodeTotals(enc: Encoder, users: ReadonlyMap<string, User>, t: PlatformTotals): void {
  for (const n of [users.size, t.users, t.steps]) enc.int(n);
}

/** A page as written: the header first, then the body; null when this host cannot checksum it. */
export function pageBytes(header: PageHeader, fill: (enc: Encoder) => void): Buffer | null {
  const enc = new Encoder();
  fill(enc);
  return enc.finish(header);
}

export function pageHeader(
  kind: string,
  rel: string,
  stamp: SourceStamp,
  diagnostics: Diagnostic[],
  tasks?: SourceStamp,
): PageHeader {
  return { kind, rel, code: figuresCode(), stamp, ...(tasks ? { tasks } : {}), diagnostics };
}

/** A page of this kind for this file, when it checks out; `body` reads it (null, or a throw, when it does not). */
function readPage<T>(
  cache: IndexCache,
  kind: string,
  rel: string,
  stamps: { stamp: SourceStamp; tasks?: SourceStamp },
  body: (d: Decoder, header: PageHeader) => T,
): T | null {
  const bytes = cache.read(kind, rel);
  const entry = bytes && decode(bytes);
  const header = entry && headerOf(entry.header, kind, rel, stamps.stamp, stamps.tasks);
  if (!entry || !header) return null;
  try {
    const value = body(entry.body, header);
    return entry.body.done ? value : null;
  } catch {
    return null;
  }
}

/** A results file's figures page, when it checks out against the file and its tasks file as they are now. */
export function readFigures(
  cache: IndexCache,
  rel: string,
  stamp: SourceStamp,
  tasks: SourceStamp,
): { rows: number; figures: PlatformFigures; diagnostics: Diagnostic[] } | null {
  return readPage(cache, FIGURES, rel, { stamp, tasks }, (d, header) => {
    const [rows, users, steps, usersCovered, itemsCovered, failed, failedSteps] = [1, 2, 3, 4, 5, 6, 7].map(() =>
      d.count(),
    );
    const key = d.str();
    const values = METRIC_KEYS.map(() => d.float());
    const [f1ns, f1nsHarmonicOfMeans, recallExcludingFailed] = [d.float(), d.float(), d.float()];
    const metrics = metricsTableOf((i) => values[i]);
    const covered = (n: number) => ({ covered: n, total: 0 });
    return {
      rows,
      figures: {
        score: { users, steps, metrics, f1ns, f1nsHarmonicOfMeans },
        coverage: { users: covered(usersCovered), items: covered(itemsCovered), key },
        failed: { failed, steps: failedSteps, recallExcludingFailed },
      },
      diagnostics: header.diagnostics,
    };
  });
}

/** A tasks file's totals page, when it checks out against the file as it is now. */
export function readTotals(
  cache: IndexCache,
  rel: string,
  stamp: SourceStamp,
): { count: number; totals: PlatformTotals; diagnostics: Diagnostic[] } | null {
  return readPage(cache, TOTALS, rel, { stamp }, (d, header) => {
    const [count, users, steps] = [d.count(), d.count(), d.count()];
    return { count, totals: { users, steps }, diagnostics: header.diagnostics };
  });
}
