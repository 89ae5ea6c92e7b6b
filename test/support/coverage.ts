// Coverage for score fixtures built by hand: each platform the run has is covered whole; a platform of the benchmark
// (`benchmark`, default: the run's own) that the run lacks is covered not at all, as runCoverage counts it.
import type { Coverage } from '../../src/core/coverage';
import { addCoverage } from '../../src/core/coverage';
import type { RunCoverage } from '../../src/core/spb/score/coverage';
import type { Platform } from '../../src/core/spb/types';

export function wholeCoverage(
  platforms: Iterable<Platform>,
  users = 1,
  steps = 1,
  benchmark?: Iterable<Platform>,
): RunCoverage {
  const has = new Set(platforms);
  const per = new Map<Platform, Coverage>(
    [...(benchmark ?? has)].map((p) => {
      const k = has.has(p) ? 1 : 0;
      return [
        p,
        { users: { covered: users * k, total: users }, items: { covered: steps * k, total: steps }, itemNoun: 'step' },
      ];
    }),
  );
  return { platforms: per, total: addCoverage([...per.values()], 'step') };
}
