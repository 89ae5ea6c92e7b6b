// What a StreamProfileBench run covers, per platform and in all: users with at least one result row and steps with
// a result row, out of the benchmark's (or a sample's) users and steps. A step with the reference's error record is
// covered: the reference scores it as a step with no picks.
import { addCoverage, coverageJson, coverageText, CoverageKey, isWhole, type Coverage } from '../../coverage';
import { PLATFORM_LABELS } from '../names';
import { PLATFORMS, type Benchmark, type Platform, type Run, type User } from '../types';
import { platformTableOf } from './table';
import { figuresOf, totalsOf, type PlatformTotals } from './stored';
import { inSubset, type UserSubset } from './userSubset';

export interface RunCoverage {
  /** every platform of the benchmark in scope, in PLATFORMS order, including those the run has no results for */
  platforms: Map<Platform, Coverage>;
  total: Coverage;
}

/**
 * Steps with a result row in a pick table (per step: -1 for no row, else n and n picks), split table alongside; each
 * present step's position goes into `key`.
 */
export function presentSteps(splits: Int32Array, picks: Int32Array, key: CoverageKey, user: number): number {
  let present = 0;
  let s = 0;
  let p = 0;
  for (let i = 0; s < splits.length; i++) {
    const count = picks[p++];
    if (count >= 0) {
      present++;
      p += count;
      key.add(user, i);
    }
    s += 8 + 2 * splits[s + 7];
  }
  return present;
}

/** A platform's users with steps (in the subset) and their steps: what a run's coverage counts against. */
export function totalsIn(users: ReadonlyMap<string, User>, platform: Platform, subset?: UserSubset): PlatformTotals {
  let usersTotal = 0;
  let stepsTotal = 0;
  for (const user of users.values()) {
    // A user without steps has nothing a run could cover: counting them would keep every run from being whole.
    if (!inSubset(subset, platform, user.userId) || user.steps.length === 0) continue;
    usersTotal++;
    stepsTotal += user.steps.length;
  }
  return { users: usersTotal, steps: stepsTotal };
}

/** The user's steps a result row has, each added to `key` by its position; how many. */
function rowSteps(user: User, steps: ReadonlyMap<number, unknown>, key: CoverageKey, userHash: number): number {
  let n = 0;
  user.steps.forEach((s, i) => {
    if (!steps.has(s.stepId)) return;
    n++;
    key.add(userHash, i);
  });
  return n;
}

export function runCoverage(bench: Benchmark, run: Run, subset?: UserSubset): RunCoverage {
  const platforms = new Map<Platform, Coverage>();
  for (const platform of PLATFORMS) {
    const users = bench.users.get(platform);
    if (!users) continue;
    const { users: usersTotal, steps: stepsTotal } = (!subset && totalsOf(users)) || totalsIn(users, platform, subset);
    if (usersTotal === 0) continue;
    const results = run.results.get(platform);
    const stored = subset ? undefined : figuresOf(results, users);
    if (stored) {
      const c = stored.coverage;
      const total = (covered: number, of: number) => ({ covered, total: of });
      const [u, s] = [total(c.users.covered, usersTotal), total(c.items.covered, stepsTotal)];
      platforms.set(platform, { users: u, items: s, itemNoun: 'step', key: c.key });
      continue;
    }
    let usersCovered = 0;
    let stepsCovered = 0;
    const key = new CoverageKey();
    const table = results && platformTableOf(results, users);
    const count = (user: User | undefined, present: (userHash: number) => number) => {
      if (!user || !inSubset(subset, platform, user.userId)) return;
      const n = present(CoverageKey.of(user.userId));
      if (n === 0) return;
      usersCovered++;
      stepsCovered += n;
    };
    if (table)
      for (const e of table.entries) count(users.get(e.userId), (h) => presentSteps(e.splits, e.picks, key, h));
    else if (results)
      for (const [userId, result] of results) {
        const user = users.get(userId);
        count(user, (h) => rowSteps(user!, result.steps, key, h));
      }
    platforms.set(platform, {
      users: { covered: usersCovered, total: usersTotal },
      items: { covered: stepsCovered, total: stepsTotal },
      itemNoun: 'step',
      key: `${platform}=${key.key}`,
    });
  }
  return { platforms, total: addCoverage([...platforms.values()], 'step') };
}

/**
 * What a run covers, for a note: the totals, then per platform when it is partial: "1 of 10 users, 2 of 17 steps
 * (Weibo: 1 of 2 users, 2 of 4 steps; none of Xiaohongshu, Toutiao)"; a whole run's is "all 10 users, all 166 steps".
 */
export function runCoverageText(c: RunCoverage): string {
  if (isWhole(c.total)) return coverageText(c.total);
  const whole: string[] = [];
  const none: string[] = [];
  const part: string[] = [];
  for (const [platform, pc] of c.platforms) {
    const name = PLATFORM_LABELS[platform];
    if (isWhole(pc)) whole.push(name);
    else if (pc.items.covered === 0) none.push(name);
    else part.push(`${name}: ${coverageText(pc)}`);
  }
  const parts = [
    ...part,
    ...(whole.length ? [`all of ${whole.join(', ')}`] : []),
    ...(none.length ? [`none of ${none.join(', ')}`] : []),
  ];
  return `${coverageText(c.total)} (${parts.join('; ')})`;
}

interface Count {
  covered: number;
  total: number;
}
/** One coverage in `score --json` (coverageJson with its item noun, steps). */
export interface StepCoverageJson {
  users: Count;
  steps: Count;
  whole: boolean;
}

/**
 * `score --json`'s coverage of a run: `{ users, steps, whole }` in all, and the same per platform of the benchmark (or
 * sample), including the platforms the run has no results for.
 */
export function runCoverageJson(c: RunCoverage): StepCoverageJson & { platforms: Record<string, StepCoverageJson> } {
  const one = (x: Coverage) => coverageJson(x) as unknown as StepCoverageJson;
  return {
    ...one(c.total),
    platforms: Object.fromEntries([...c.platforms].map(([platform, pc]) => [platform, one(pc)])),
  };
}
