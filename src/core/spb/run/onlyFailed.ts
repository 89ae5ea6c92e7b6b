// Re-sending a run's failed requests (`run --only-failed FROM --out NAME`): NAME is a copy of FROM in which each step
// whose record is the reference's error record is sent again with the persona it received (the last non-empty one
// written before it, as the reference threads prev_persona); every other step is copied as it is, and later steps
// keep what they were given (they did not see the retried step's persona). FROM itself is never changed.
import { isErrorRecord } from '../score/failedRequests';
import type { Benchmark, Platform, Run, Step, User } from '../types';
import type { Journal, StepEntry } from '../../runner/journal';
import { stepEntry, type Job } from './plan';

/** FROM's users per platform: the copy covers exactly them. */
export function usersOf(run: Run, platforms: readonly Platform[]): Partial<Record<Platform, string[]>> {
  return Object.fromEntries(platforms.map((p) => [p, [...(run.results.get(p)?.keys() ?? [])]]));
}

/** Each failed step of `run`, with the persona it received; in platform, then file order. */
export function failedStepsOf(
  bench: Benchmark,
  run: Run,
  platforms: readonly Platform[],
): { user: User; step: Step; personaIn: string | null }[] {
  const out: { user: User; step: Step; personaIn: string | null }[] = [];
  for (const platform of platforms) {
    for (const [userId, result] of run.results.get(platform) ?? []) {
      const user = bench.users.get(platform)?.get(userId);
      if (!user) continue;
      let persona: string | null = null;
      for (const step of user.steps) {
        const r = result.steps.get(step.stepId);
        if (!r) continue;
        if (isErrorRecord(r)) out.push({ user, step, personaIn: persona });
        else if (r.personaSummary !== '') persona = r.personaSummary;
      }
    }
  }
  return out;
}

/**
 * Copies FROM's records of the jobs' users into a new run's journal (attempts 0: never sent by this run). A user with
 * no failed step is done at once; the others wait for their failed steps (isSeededFailure).
 */
export function seedJournal(journal: Journal, jobs: readonly Job[], from: Run): void {
  for (const { user, steps } of jobs) {
    const result = from.results.get(user.platform)?.get(user.userId);
    if (!result) continue;
    let persona: string | null = null;
    let failed = false;
    for (const step of steps) {
      const r = result.steps.get(step.stepId);
      if (!r) continue;
      const error = isErrorRecord(r);
      failed ||= error;
      if (r.personaSummary !== '') persona = r.personaSummary;
      // Named, not spread: a skimmed row's texts are getters (spb/format/stepText.ts).
      const texts = { prediction: r.prediction, reasoning: r.reasoning, personaSummary: r.personaSummary };
      journal.append(stepEntry(user, step, { ...texts, personaNext: persona }, error, 0));
    }
    if (!failed) journal.append({ t: 'user', platform: user.platform, user: user.userId });
  }
}

/** A copied step whose record is the error record and that this run has not sent yet. */
export function isSeededFailure(e: StepEntry | undefined): boolean {
  return e !== undefined && e.error && e.attempts === 0;
}
