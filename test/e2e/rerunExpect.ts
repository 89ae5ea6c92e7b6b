// Expectations for the re-run e2e tests, computed from the files and the spec independently of the extension.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { kForPool, scoreStep } from '../../src/core/score';
import { POOL_CLASSES, type Benchmark, type PoolClass, type Run, type Step, type StepResult, type User } from '../../src/core/types';

export const POSITIVE = new Set<PoolClass>(['tKeep', 'tNew']);

export interface Target {
  user: User;
  step: Step;
  result: StepResult;
  /** the persona the selected run's step received (what "carried" sends) */
  carried: string;
  /** what the scripted server's smart reply picks: the first k pool tags */
  rerunPicks: string[];
  flips: [string, string][];
}

export const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
export const pp = (d: number) => (Math.abs(d) < 1e-12 ? '±0.0 pp' : `${d > 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)} pp`);

/** Flips written out again from the spec: a positive miss → hit is gained, hit → miss lost; distractors likewise. */
export function flipsOf(step: Step, before: readonly unknown[], after: readonly unknown[]): [string, string][] {
  const b = new Set(before.filter((x) => typeof x === 'string'));
  const a = new Set(after.filter((x) => typeof x === 'string'));
  const out: [string, string][] = [];
  const seen = new Set<string>();
  for (const cls of POOL_CLASSES) {
    for (const tag of step.split[cls]) {
      if (seen.has(tag)) continue;
      seen.add(tag);
      if (b.has(tag) === a.has(tag)) continue;
      out.push([tag, POSITIVE.has(cls) ? (a.has(tag) ? 'gained' : 'lost') : a.has(tag) ? 'newWrong' : 'fixedWrong']);
    }
  }
  return out;
}

/** A weibo step after step 1 with a carried persona where the smart reply gains one positive and loses another. */
export function findTarget(bench: Benchmark, run: Run): Target {
  for (const user of bench.users.get('weibo')!.values()) {
    let carried = '';
    for (const step of user.steps) {
      const result = run.results.get('weibo')?.get(user.userId)?.steps.get(step.stepId);
      const rerunPicks = step.pool.slice(0, kForPool(step.pool.length));
      if (result && carried && user.steps.length >= 3 && scoreStep(step.split, result.prediction)) {
        const flips = flipsOf(step, result.prediction, rerunPicks);
        if (flips.some(([, k]) => k === 'gained') && flips.some(([, k]) => k === 'lost')) return { user, step, result, carried, rerunPicks, flips };
      }
      if (result?.personaSummary) carried = result.personaSummary;
    }
  }
  throw new Error('sample/ has no weibo step where the first k pool tags gain and lose a positive');
}

/** Regular files below `dir` (links skipped; files that vanish while we walk are ignored). */
export function filesUnder(dir: string): string[] {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return [];
  if (!st.isDirectory()) return st.isFile() ? [dir] : [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const st = lstatSync(p, { throwIfNoEntry: false });
    return !st ? [] : st.isDirectory() ? filesUnder(p) : st.isFile() ? [p] : [];
  });
}
