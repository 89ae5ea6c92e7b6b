// Failed requests: steps whose record is the reference runner's error record, written after three failed tries
// ({"predicted_tags": [], "reasoning": "Error: …"}, no persona). The reference scores them like any step (Recall 0
// where the step has positives), so the official R̄ counts them; "excluding failed requests" is our reading, named so
// wherever it prints and never as the paper's figure.
import { scoreRun, type RunScore } from './run';
import { errorStepKey, platformTableOf, type PlatformTable } from './table';
import type { UserSubset } from './userSubset';
import { figuresOf, type PlatformFigures } from './stored';
import { nanMean } from './step';
import { PLATFORMS, type Benchmark, type Platform, type Run, type StepResult, type UserResult } from '../types';

export const EXCLUDING_FAILED = "excluding failed requests, not the paper's figure";

/** The reference's error record: no tags, reasoning "Error: …", no persona. */
export function isErrorRecord(r: Pick<StepResult, 'prediction' | 'reasoning' | 'personaSummary'>): boolean {
  return (
    Array.isArray(r.prediction) &&
    r.prediction.length === 0 &&
    typeof r.reasoning === 'string' &&
    r.reasoning.startsWith('Error: ') &&
    r.personaSummary === ''
  );
}

export interface FailedOnPlatform {
  /** steps with the error record */
  failed: number;
  /** steps with a result */
  steps: number;
  /** the official R̄ (failed steps included, as the reference scores) */
  Recall: number;
  /** R̄ over the other steps: EXCLUDING_FAILED */
  RecallExcludingFailed: number;
}

export interface FailedRequests {
  failed: number;
  steps: number;
  platforms: Map<Platform, FailedOnPlatform>;
  /** the mean over platforms, as the tables' Avg. */
  avg: { Recall: number; RecallExcludingFailed: number };
}

/** The run without its failed steps (for the "excluding" reading only). */
function withoutFailed(run: Run): Run {
  const results = new Map<Platform, Map<string, UserResult>>();
  for (const [platform, byUser] of run.results) {
    const kept = new Map<string, UserResult>();
    for (const [userId, u] of byUser) {
      const steps = new Map([...u.steps].filter(([, s]) => !isErrorRecord(s)));
      kept.set(userId, { ...u, steps });
    }
    results.set(platform, kept);
  }
  return { name: run.name, results, files: run.files };
}

/**
 * Steps with a result per platform from the loader's pick tables, or undefined when some step is an error record
 * (only a step with no picks can be one) or a table is missing: then the rows are read. Keeps a clean run's job from
 * building its result objects (a warm `score` reads none: the index says which empty steps are error records).
 */
function cleanCounts(bench: Benchmark, run: Run, subset?: UserSubset): Map<Platform, number> | undefined {
  const out = new Map<Platform, number>();
  for (const [platform, results] of run.results) {
    const users = bench.users.get(platform);
    const table = users && platformTableOf(results, users);
    if (!table) return undefined;
    let steps = 0;
    for (const e of table.entries) {
      if (subset && !subset.get(platform)?.has(e.userId)) continue;
      const userSteps = users.get(e.userId)?.steps ?? [];
      for (let p = 0, k = 0; p < e.picks.length; k++) {
        const count = e.picks[p++];
        if (count < 0) continue;
        if (count === 0 && isEmptyErrorRecord(table, results, e.userId, userSteps[k]?.stepId)) return undefined;
        steps++;
        p += count;
      }
    }
    out.set(platform, steps);
  }
  return out;
}

function isEmptyErrorRecord(
  table: PlatformTable,
  results: ReadonlyMap<string, UserResult>,
  userId: string,
  stepId: number | undefined,
): boolean {
  if (stepId === undefined) return true;
  if (table.errorSteps) return table.errorSteps.has(errorStepKey(userId, stepId));
  const r = results.get(userId)?.steps.get(stepId);
  return r === undefined || isErrorRecord(r);
}

/** Counts and both readings of R̄; `score` is the run's official score when already computed. */
export function failedRequests(bench: Benchmark, run: Run, subset?: UserSubset, score?: RunScore): FailedRequests {
  const stored = subset ? undefined : storedFailed(bench, run);
  if (stored) return fromStored(stored, score ?? scoreRun(bench, run));
  const counts = new Map<Platform, { failed: number; steps: number }>();
  const clean = cleanCounts(bench, run, subset);
  if (clean) for (const [platform, steps] of clean) counts.set(platform, { failed: 0, steps });
  else
    for (const [platform, byUser] of run.results) {
      const c = { failed: 0, steps: 0 };
      for (const [userId, u] of byUser) {
        if (subset && !subset.get(platform)?.has(userId)) continue;
        for (const s of u.steps.values()) {
          c.steps++;
          if (isErrorRecord(s)) c.failed++;
        }
      }
      counts.set(platform, c);
    }
  const failed = [...counts.values()].reduce((n, c) => n + c.failed, 0);
  const steps = [...counts.values()].reduce((n, c) => n + c.steps, 0);
  const official = score ?? scoreRun(bench, run, subset);
  // Nothing failed: both readings are the official figure, and the second scoring is not needed.
  const excluding = failed === 0 ? official : scoreRun(bench, withoutFailed(run), subset);
  const platforms = new Map<Platform, FailedOnPlatform>();
  for (const platform of PLATFORMS) {
    const c = counts.get(platform);
    const p = official.platforms.get(platform);
    if (!c || !p) continue;
    platforms.set(platform, {
      ...c,
      Recall: p.metrics.Recall,
      RecallExcludingFailed: excluding.platforms.get(platform)?.metrics.Recall ?? NaN,
    });
  }
  return {
    failed,
    steps,
    platforms,
    avg: { Recall: official.avg.Recall, RecallExcludingFailed: excluding.avg.Recall },
  };
}

/** Each platform's stored failed-request figures, when the index gave them for every results file of the run. */
function storedFailed(bench: Benchmark, run: Run): Map<Platform, PlatformFigures['failed']> | undefined {
  const out = new Map<Platform, PlatformFigures['failed']>();
  for (const [platform, results] of run.results) {
    const f = figuresOf(results, bench.users.get(platform));
    if (!f) return undefined;
    out.set(platform, f.failed);
  }
  return out;
}

/**
 * failedRequests from the stored counts: each platform's R̄ without failed steps is the one the run's second scoring
 * would give (platforms are scored apart), and their Avg. is taken as scoreRun takes it.
 */
function fromStored(stored: Map<Platform, PlatformFigures['failed']>, official: RunScore): FailedRequests {
  let failed = 0;
  let steps = 0;
  for (const c of stored.values()) {
    failed += c.failed;
    steps += c.steps;
  }
  const platforms = new Map<Platform, FailedOnPlatform>();
  const excluding: number[] = [];
  for (const platform of PLATFORMS) {
    const c = stored.get(platform);
    const p = official.platforms.get(platform);
    if (!p) continue;
    // The second scoring's platforms are the official ones: failed === 0 keeps the official figure itself.
    const without = failed === 0 ? p.metrics.Recall : (c?.recallExcludingFailed ?? NaN);
    excluding.push(without);
    if (!c) continue;
    platforms.set(platform, {
      failed: c.failed,
      steps: c.steps,
      Recall: p.metrics.Recall,
      RecallExcludingFailed: without,
    });
  }
  const avgExcluding = failed === 0 ? official.avg.Recall : nanMean(excluding);
  return { failed, steps, platforms, avg: { Recall: official.avg.Recall, RecallExcludingFailed: avgExcluding } };
}

const orNull = (x: number) => (Number.isFinite(x) ? x : null);

/** `score --json`'s `failedRequests` block of a run (fractions, null where undefined). */
export function failedJson(f: FailedRequests) {
  return {
    failed: f.failed,
    steps: f.steps,
    platforms: Object.fromEntries(
      [...f.platforms].map(([p, x]) => [
        p,
        {
          failed: x.failed,
          steps: x.steps,
          Recall: orNull(x.Recall),
          RecallExcludingFailed: orNull(x.RecallExcludingFailed),
        },
      ]),
    ),
    avg: { Recall: orNull(f.avg.Recall), RecallExcludingFailed: orNull(f.avg.RecallExcludingFailed) },
    excluding: EXCLUDING_FAILED,
  };
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(2)} %` : 'n/a');

/** The lines under a text table for the runs with failed requests; none when no run has one. */
export function failedNotes(runs: readonly { name: string; failed: FailedRequests }[]): string[] {
  const hit = runs.filter((r) => r.failed.failed > 0);
  if (hit.length === 0) return [];
  return [
    "Failed requests (the reference's error record after three failed tries; scored as the reference scores them):",
    ...hit.map(({ name, failed }) => `  ${name}: ${failedLine(failed)}`),
  ];
}

/** "1 of 166 steps; Avg. R 42.37 % (official, with them), 42.44 % excluding failed requests, not the paper's figure" */
export function failedLine(f: FailedRequests): string {
  return (
    `${f.failed} of ${f.steps} steps; Avg. R ${pct(f.avg.Recall)} (official, with them), ` +
    `${pct(f.avg.RecallExcludingFailed)} ${EXCLUDING_FAILED}`
  );
}
