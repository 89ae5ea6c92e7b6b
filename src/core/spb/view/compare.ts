// What Compare Runs computes for two StreamProfileBench runs, for the extension's compare view and the CLI's
// `compare` alike: the comparison of the paired steps, the scopes it has, each scope's paired summary with the one
// bootstrap setting of Compare Runs, and what each side covers. Pure TypeScript.
import { coverageText, isWhole, sameCoverage, type Coverage } from '../../coverage';
import type { RunCoverage } from '../score/coverage';
import { COMPARE_RESAMPLES, COMPARE_SEED, PairedBootstrap, type Scope } from '../score/pairedSummary';
import type { RunComparison } from '../score/runCompare';
import { PLATFORMS } from '../types';

/** The bootstrap of the paired summary: the setting every interval of Compare Runs uses. */
export const SPB_COMPARE_BOOTSTRAP = { resamples: COMPARE_RESAMPLES, seed: COMPARE_SEED } as const;

/** Why the runs cannot be compared (they share no scored step), or undefined. */
export function compareProblem(cmp: RunComparison): string | undefined {
  if (cmp.runA === cmp.runB) return `${cmp.runA} is compared with itself`;
  if (cmp.steps.length > 0) return undefined;
  return `${cmp.runA} and ${cmp.runB} share no scored step: they score ${cmp.onlyA} and ${cmp.onlyB} other ones`;
}

/** "all", then each platform the paired users are on, in the benchmark's order. */
export function compareScopes(cmp: RunComparison): Scope[] {
  return ['all', ...PLATFORMS.filter((p) => cmp.users.some((u) => u.platform === p))];
}

/** The paired summary of a scope, not yet run: `run(k)` in chunks (the extension), or `result()` at once. */
export function comparePairedBootstrap(cmp: RunComparison, scope: Scope): PairedBootstrap {
  return new PairedBootstrap(cmp, scope, SPB_COMPARE_BOOTSTRAP);
}

/** Each side's coverage in a scope (core/coverage.ts words), whether whole, and what the comparison is over. */
export interface CompareCoverage {
  a: string;
  b: string;
  whole: [boolean, boolean];
  /** when the runs cover different steps: the comparison is over the steps both have; else null */
  over: string | null;
}

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * What each side covers in the scope ("all 10 users, all 166 steps" or "1 of 10 users, 2 of 17 steps", the core's
 * words), and, when they cover different steps, what the comparison is over: only the steps both runs have.
 */
export function compareCoverage(
  cmp: RunComparison,
  coverage: { a: RunCoverage; b: RunCoverage },
  scope: Scope,
): CompareCoverage | null {
  const of = (c: RunCoverage): Coverage | undefined => (scope === 'all' ? c.total : c.platforms.get(scope));
  const a = of(coverage.a);
  const b = of(coverage.b);
  if (!a || !b) return null;
  const steps = cmp.steps.filter((s) => scope === 'all' || s.platform === scope).length;
  const users = cmp.users.filter((u) => scope === 'all' || u.platform === scope).length;
  return {
    a: coverageText(a),
    b: coverageText(b),
    whole: [isWhole(a), isWhole(b)],
    over: sameCoverage(a, b)
      ? null
      : `The runs cover different steps: every figure here is over the ${plural(steps, 'scored step')} of ${plural(users, 'user')} that both have, not over either run's own coverage.`,
  };
}
