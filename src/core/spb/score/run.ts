// Scores a run of a loaded benchmark: per step, per user, per platform, and the paper's "Avg." over platforms.
import {
  aggregateUsers,
  countHits,
  metricsFromHits,
  metricsTableOf,
  nanMean,
  scoreStep,
  scoreUser,
  splitIndex,
  stepDiagnostics,
  type AggregateScore,
  type MetricsTable,
  type StepDiagnostics,
  type UserScore,
} from './step';
import { platformTableOf, scoreFromTables } from './table';
import { figuresOf } from './stored';
import { LazyMap } from '../../lazyMap';
import { inSubset, type UserSubset } from './userSubset';
import { runCoverage, type RunCoverage } from './coverage';
import { METRIC_KEYS, PLATFORMS } from '../types';
import type { Benchmark, Platform, Run, Step, StepMetrics, StepResult, User, UserResult } from '../types';

export interface StepScore {
  result: StepResult | undefined;
  /** null: not scored (no positives). A step without a result row is scored as no picks, as the reference would not see it. */
  metrics: StepMetrics | null;
  diagnostics: StepDiagnostics | null;
}

export function resultFor(run: Run | undefined, user: User, stepId: number): StepResult | undefined {
  return run?.results.get(user.platform)?.get(user.userId)?.steps.get(stepId);
}

export function scoreStepOfRun(run: Run | undefined, user: User, step: Step): StepScore {
  const result = resultFor(run, user, step.stepId);
  if (!result) return { result, metrics: null, diagnostics: null };
  return {
    result,
    metrics: scoreStep(step.split, result.prediction),
    diagnostics: stepDiagnostics(step.split, result.prediction),
  };
}

/** Per-user score over the steps the run has results for; null when none of them is scored. */
export function scoreUserOfRun(run: Run | undefined, user: User): UserScore | null {
  const metrics: StepMetrics[] = [];
  for (const step of user.steps) {
    const result = resultFor(run, user, step.stepId);
    if (!result) continue;
    const m = scoreStep(step.split, result.prediction);
    if (m) metrics.push(m);
  }
  return scoreUser(metrics);
}

export interface PlatformScore extends AggregateScore {
  userScores: Map<string, UserScore>;
}

export interface RunScore {
  name: string;
  platforms: Map<Platform, PlatformScore>;
  /** arithmetic mean of the platform figures (platforms whose figure is defined) */
  avg: MetricsTable & { F1NS: number };
  /** what the figures cover: every platform of the benchmark (or sample) in scope, and in all */
  coverage: RunCoverage;
}

/**
 * `subset`: score only these users (a sample's), through the same code; a platform without a user of the subset
 * has no figure, as a platform without results.
 */
export function scoreRun(bench: Benchmark, run: Run, subset?: UserSubset): RunScore {
  const platforms = new Map<Platform, PlatformScore>();
  for (const platform of PLATFORMS) {
    const results = run.results.get(platform);
    const users = bench.users.get(platform);
    if (!results || !users) continue;
    if (subset && !subset.get(platform)?.size) continue;
    const stored = subset ? undefined : figuresOf(results, users);
    if (stored) {
      // The index's figures; the per-user table only when a view reads it.
      const userScores = new LazyMap(stored.score.users, () => userScoresOf(platform, results, users));
      platforms.set(platform, { ...stored.score, userScores });
      continue;
    }
    const userScores = userScoresOf(platform, results, users, subset);
    platforms.set(platform, { ...aggregateUsers([...userScores.values()]), userScores });
  }
  const figures = [...platforms.values()];
  const avg = {} as MetricsTable & { F1NS: number };
  for (const key of METRIC_KEYS) avg[key] = nanMean(figures.map((p) => p.metrics[key]));
  avg.F1NS = nanMean(figures.map((p) => p.f1ns));
  return { name: run.name, platforms, avg, coverage: runCoverage(bench, run, subset) };
}

/** Each user's score on one platform, in the results' order; users with no scored step are left out. */
function userScoresOf(
  platform: Platform,
  results: ReadonlyMap<string, UserResult>,
  users: ReadonlyMap<string, User>,
  subset?: UserSubset,
): Map<string, UserScore> {
  const acc = new UserAccumulator();
  const userScores = new Map<string, UserScore>();
  const table = platformTableOf(results, users);
  if (table) {
    for (const entry of table.entries) {
      if (!inSubset(subset, platform, entry.userId)) continue;
      acc.reset();
      acc.addTables(entry.splits, entry.picks);
      const score = acc.score();
      if (score) userScores.set(entry.userId, score);
    }
  } else
    for (const [userId, result] of results) {
      const user = users.get(userId);
      if (!user || !inSubset(subset, platform, userId)) continue;
      const score = rowScore(user, result.steps, acc);
      if (score) userScores.set(userId, score);
    }
  return userScores;
}

/** One result row's user score; null when none of its steps is scored. */
function rowScore(user: User, steps: ReadonlyMap<number, StepResult>, acc: UserAccumulator): UserScore | null {
  acc.reset();
  for (const step of user.steps) {
    const stepResult = steps.get(step.stepId);
    if (stepResult) acc.add(step, stepResult.prediction);
  }
  return acc.score();
}

/**
 * scoreUser over a user's steps without a metrics object per step: NaN-skipping sums and counts in step order,
 * which give the same floating-point means as nanMean over the steps' metrics.
 */
export class UserAccumulator {
  private readonly hit = new Int32Array(8);
  private readonly values = new Float64Array(7);
  private readonly sums = new Float64Array(7);
  private readonly counts = new Int32Array(7);
  private steps = 0;

  reset(): void {
    this.sums.fill(0);
    this.counts.fill(0);
    this.steps = 0;
  }

  add(step: Step, prediction: readonly unknown[]): void {
    const ix = splitIndex(step.split);
    if (ix.K === 0) return;
    countHits(ix, prediction, this.hit);
    metricsFromHits(ix, this.hit, this.values);
    for (let m = 0; m < 7; m++) {
      const v = this.values[m];
      if (Number.isNaN(v)) continue;
      this.sums[m] += v;
      this.counts[m]++;
    }
    this.steps++;
  }

  /** All the user's steps at once, from the tables the loader built. */
  addTables(splits: Int32Array, picks: Int32Array): void {
    this.steps += scoreFromTables(splits, picks, this.sums, this.counts);
  }

  score(): UserScore | null {
    if (this.steps === 0) return null;
    const mean = (m: number) => (this.counts[m] === 0 ? NaN : this.sums[m] / this.counts[m]);
    // One shape for every user's table, read again by aggregateUsers.
    return { steps: this.steps, metrics: metricsTableOf(mean) };
  }
}

/** The persona the model received at a step: the last non-empty persona_summary before it in this run (spec 2). */
export function personaReceived(run: Run | undefined, user: User, stepId: number): string {
  let persona = '';
  for (const step of user.steps) {
    if (step.stepId >= stepId) break;
    const written = resultFor(run, user, step.stepId)?.personaSummary ?? '';
    if (written !== '') persona = written;
  }
  return persona;
}
