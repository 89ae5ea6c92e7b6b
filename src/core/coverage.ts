// What a figure covers: how many of the benchmark's units (users, and steps or test actions) a run has results for.
// A figure over part of a benchmark is still computed exactly as the reference computes it; coverage is what keeps
// it from being read as the whole benchmark's (a run of one user, a chain run, a run of some platforms).

export interface CoverageCount {
  /** units the run has a result for */
  covered: number;
  /** units in the benchmark (or in the scope scored, e.g. a sample's users) */
  total: number;
}

export interface Coverage {
  users: CoverageCount;
  /** steps (StreamProfileBench) or test actions (OmniBehavior) */
  items: CoverageCount;
  itemNoun: 'step' | 'test action';
}

/** Whether a run has a result for every unit of its scope; an empty scope is not "whole" of anything. */
export function isWhole(c: Coverage): boolean {
  return c.items.total > 0 && c.items.covered === c.items.total && c.users.covered === c.users.total;
}

/** Two coverages are the same when they count the same units: only then are their figures ranked against each other. */
export function sameCoverage(a: Coverage, b: Coverage): boolean {
  return (
    a.itemNoun === b.itemNoun &&
    a.users.covered === b.users.covered &&
    a.users.total === b.users.total &&
    a.items.covered === b.items.covered &&
    a.items.total === b.items.total
  );
}

const n = (x: number) => x.toLocaleString('en-US');
const plural = (x: number, one: string) => (x === 1 ? one : `${one}s`);

/** "1 of 10 users, 2 of 17 steps"; "all 10 users, all 166 steps" when whole. */
export function coverageText(c: Coverage): string {
  const part = (k: CoverageCount, noun: string) =>
    k.covered === k.total && k.total > 0
      ? `all ${n(k.total)} ${plural(k.total, noun)}`
      : `${n(k.covered)} of ${n(k.total)} ${plural(k.total, noun)}`;
  return `${part(c.users, 'user')}, ${part(c.items, c.itemNoun)}`;
}

/** The note a figure carries where it is shown: "over 1 of 10 users, 2 of 17 steps", or nothing when whole. */
export function coverageNote(c: Coverage): string | undefined {
  return isWhole(c) ? undefined : `over ${coverageText(c)}`;
}

/** `score --json`'s coverage block (docs/scoring.md): the counts, and whether they are the whole scope. */
export function coverageJson(c: Coverage) {
  return {
    users: { covered: c.users.covered, total: c.users.total },
    [c.itemNoun === 'step' ? 'steps' : 'testActions']: { covered: c.items.covered, total: c.items.total },
    whole: isWhole(c),
  };
}

/** The sum of several coverages of one kind (a run's platforms). */
export function addCoverage(parts: readonly Coverage[], itemNoun: Coverage['itemNoun']): Coverage {
  const sum = (pick: (c: Coverage) => CoverageCount): CoverageCount => ({
    covered: parts.reduce((s, c) => s + pick(c).covered, 0),
    total: parts.reduce((s, c) => s + pick(c).total, 0),
  });
  return { users: sum((c) => c.users), items: sum((c) => c.items), itemNoun };
}
