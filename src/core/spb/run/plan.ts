// What a run covers (its users and steps) and what it writes of them: the results line of a user, rebuilt from the
// journal, and a step's cost over its attempts.
import { join } from 'node:path';
import type { ResultUserRecord } from '../format/resultsFile';
import { scoreStep } from '../score/step';
import type { Benchmark, Platform, Step, User } from '../types';
import type { Journal, StepEntry } from '../../runner/journal';
import type { StepRunRecord } from './step';

/** The journal entry of a finished step of `user`: what it wrote, and what the next step of the chain receives. */
export function stepEntry(
  user: User,
  step: Step,
  r: { prediction: unknown[]; reasoning: string; personaSummary: string; personaNext: string | null },
  error: boolean,
  attempts: number,
): StepEntry<Platform> {
  return {
    t: 'step',
    platform: user.platform,
    user: user.userId,
    index: step.index,
    step: step.stepId,
    prediction: r.prediction,
    reasoning: r.reasoning,
    persona_summary: r.personaSummary,
    persona_next: r.personaNext,
    error,
    attempts,
  };
}

/** A user's steps a run covers. */
export interface Job {
  user: User;
  steps: Step[];
}

/** Which users and steps a selection covers, in platform then file order. */
export function planRun(
  bench: Benchmark,
  platforms: readonly Platform[],
  userId: string | null,
  fromStep: number,
  users?: Partial<Record<Platform, readonly string[]>>,
): Job[] {
  const jobs: Job[] = [];
  for (const platform of platforms) {
    const only = users ? new Set(users[platform] ?? []) : null;
    for (const user of bench.users.get(platform)?.values() ?? []) {
      if (userId !== null && user.userId !== userId) continue;
      if (only && !only.has(user.userId)) continue;
      const steps = user.steps.filter((s) => s.stepId >= fromStep);
      if (steps.length > 0) jobs.push({ user, steps });
    }
  }
  return jobs;
}

export function resultsPath(dir: string, platform: Platform): string {
  return join(dir, `inference_results_${platform}.jsonl`);
}

/** The user's results line from the journal (metrics and ground truth recomputed from the tasks). */
export function userRecord(job: Job, journal: Journal): ResultUserRecord {
  const { user } = job;
  const steps = [];
  for (const step of job.steps) {
    const e = journal.step(user.platform, user.userId, step.index);
    if (!e) continue;
    steps.push({
      step_id: step.stepId,
      prediction: e.prediction,
      ground_truth: [...step.split.tNew, ...step.split.tKeep],
      metrics: scoreStep(step.split, e.prediction),
      reasoning: e.reasoning,
      persona_summary: e.persona_summary,
    });
  }
  return { user_id: user.userId, platform: user.platform, username: user.username, steps };
}

/** What a step cost, over all its attempts (the journal keeps it, so an experiment's cost survives a resume). */
export function stepCost(rec: StepRunRecord): Pick<StepEntry, 'prompt_tokens' | 'completion_tokens' | 'latency_ms'> {
  let prompt = 0;
  let completion = 0;
  let latency = 0;
  for (const a of rec.attempts) {
    prompt += a.usage?.promptTokens ?? 0;
    completion += a.usage?.completionTokens ?? 0;
    latency += a.latencyMs;
  }
  return { prompt_tokens: prompt, completion_tokens: completion, latency_ms: Math.round(latency) };
}
