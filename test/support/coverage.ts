// A whole run's coverage for score fixtures built by hand: each platform's users and steps all covered.
import type { Coverage } from '../../src/core/coverage';
import { addCoverage } from '../../src/core/coverage';
import type { RunCoverage } from '../../src/core/spb/score/coverage';
import type { Platform } from '../../src/core/spb/types';

export function wholeCoverage(platforms: Iterable<Platform>, users = 1, steps = 1): RunCoverage {
  const per = new Map<Platform, Coverage>(
    [...platforms].map((p) => [
      p,
      { users: { covered: users, total: users }, items: { covered: steps, total: steps }, itemNoun: 'step' },
    ]),
  );
  return { platforms: per, total: addCoverage([...per.values()], 'step') };
}
