// What a StreamProfileBench run covers, per platform and in all: users with at least one result row and steps with
// a result row, out of the benchmark's (or a sample's) users and steps. A step with the reference's error record is
// covered: the reference scores it as a step with no picks.
import { addCoverage, type Coverage } from '../../coverage';
import { PLATFORMS, type Benchmark, type Platform, type Run, type User } from '../types';
import { platformTableOf } from './table';
import { inSubset, type UserSubset } from './userSubset';

export interface RunCoverage {
  /** every platform of the benchmark in scope, in PLATFORMS order, including those the run has no results for */
  platforms: Map<Platform, Coverage>;
  total: Coverage;
}

/** Steps with a result row in a pick table (per step: -1 for no row, else n and n picks), split table alongside. */
function presentSteps(splits: Int32Array, picks: Int32Array): number {
  let present = 0;
  let s = 0;
  let p = 0;
  while (s < splits.length) {
    const count = picks[p++];
    if (count >= 0) {
      present++;
      p += count;
    }
    s += 8 + 2 * splits[s + 7];
  }
  return present;
}

export function runCoverage(bench: Benchmark, run: Run, subset?: UserSubset): RunCoverage {
  const platforms = new Map<Platform, Coverage>();
  for (const platform of PLATFORMS) {
    const users = bench.users.get(platform);
    if (!users) continue;
    let usersTotal = 0;
    let stepsTotal = 0;
    for (const user of users.values()) {
      if (!inSubset(subset, platform, user.userId)) continue;
      usersTotal++;
      stepsTotal += user.steps.length;
    }
    if (usersTotal === 0) continue;
    let usersCovered = 0;
    let stepsCovered = 0;
    const results = run.results.get(platform);
    const table = results && platformTableOf(results, users);
    const count = (user: User | undefined, present: number) => {
      if (!user || !inSubset(subset, platform, user.userId) || present === 0) return;
      usersCovered++;
      stepsCovered += present;
    };
    if (table) for (const e of table.entries) count(users.get(e.userId), presentSteps(e.splits, e.picks));
    else if (results)
      for (const [userId, result] of results) {
        const user = users.get(userId);
        count(user, user ? user.steps.filter((s) => result.steps.has(s.stepId)).length : 0);
      }
    platforms.set(platform, {
      users: { covered: usersCovered, total: usersTotal },
      items: { covered: stepsCovered, total: stepsTotal },
      itemNoun: 'step',
    });
  }
  return { platforms, total: addCoverage([...platforms.values()], 'step') };
}
