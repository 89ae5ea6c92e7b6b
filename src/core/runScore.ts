// Scores a run of a loaded benchmark: per step, per user, per platform, and the paper's "Avg." over platforms.
import {
  aggregateUsers,
  nanMean,
  scoreStep,
  scoreUser,
  stepDiagnostics,
  type AggregateScore,
  type MetricsTable,
  type StepDiagnostics,
  type UserScore,
} from './score';
import { METRIC_KEYS, PLATFORMS, type Benchmark, type Platform, type Run, type Step, type StepMetrics, type StepResult, type User } from './types';

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
}

export function scoreRun(bench: Benchmark, run: Run): RunScore {
  const platforms = new Map<Platform, PlatformScore>();
  for (const platform of PLATFORMS) {
    const results = run.results.get(platform);
    const users = bench.users.get(platform);
    if (!results || !users) continue;
    const userScores = new Map<string, UserScore>();
    for (const userId of results.keys()) {
      const user = users.get(userId);
      const score = user ? scoreUserOfRun(run, user) : null;
      if (score) userScores.set(userId, score);
    }
    platforms.set(platform, { ...aggregateUsers([...userScores.values()]), userScores });
  }
  const figures = [...platforms.values()];
  const avg = {} as MetricsTable & { F1NS: number };
  for (const key of METRIC_KEYS) avg[key] = nanMean(figures.map((p) => p.metrics[key]));
  avg.F1NS = nanMean(figures.map((p) => p.f1ns));
  return { name: run.name, platforms, avg };
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
