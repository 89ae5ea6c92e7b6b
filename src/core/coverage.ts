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
  /** the format's items: steps, test actions, questions … */
  items: CoverageCount;
  itemNoun: 'step' | 'test action' | 'question';
  /** What the benchmark calls the people its units belong to (a benchmark of invented personas says so); default user. */
  userNoun?: 'user' | 'persona';
  /**
   * Which units are covered, as an order-free fingerprint (coverageKey): two runs of one user each cover the same
   * counts but not the same steps when the users differ. Absent on coverages built by hand.
   */
  key?: string;
}

/** Whether a run has a result for every unit of its scope; an empty scope is not "whole" of anything. */
export function isWhole(c: Coverage): boolean {
  return c.items.total > 0 && c.items.covered === c.items.total && c.users.covered === c.users.total;
}

/**
 * Two coverages are the same when they cover the same units (the same counts, and the same fingerprint where both
 * have one): only then are their figures ranked against each other.
 */
export function sameCoverage(a: Coverage, b: Coverage): boolean {
  return (
    a.itemNoun === b.itemNoun &&
    (a.userNoun ?? 'user') === (b.userNoun ?? 'user') &&
    (a.key === undefined || b.key === undefined || a.key === b.key) &&
    a.users.covered === b.users.covered &&
    a.users.total === b.users.total &&
    a.items.covered === b.items.covered &&
    a.items.total === b.items.total
  );
}

/** Groups of indices whose coverage is the same (sameCoverage), in first-seen order: the rows ranked together. */
export function coverageGroups(coverages: readonly Coverage[]): number[][] {
  const groups: { coverage: Coverage; rows: number[] }[] = [];
  coverages.forEach((c, i) => {
    const g = groups.find((x) => sameCoverage(x.coverage, c));
    if (g) g.rows.push(i);
    else groups.push({ coverage: c, rows: [i] });
  });
  return groups.map((g) => g.rows);
}

const n = (x: number) => x.toLocaleString('en-US');
const plural = (x: number, one: string) => (x === 1 ? one : `${one}s`);

/** "1 of 10 users, 2 of 17 steps"; "all 10 users, all 166 steps" when whole. */
export function coverageText(c: Coverage): string {
  const part = (k: CoverageCount, noun: string) =>
    k.covered === k.total && k.total > 0
      ? `all ${n(k.total)} ${plural(k.total, noun)}`
      : `${n(k.covered)} of ${n(k.total)} ${plural(k.total, noun)}`;
  return `${part(c.users, c.userNoun ?? 'user')}, ${part(c.items, c.itemNoun)}`;
}

/** The note a figure carries where it is shown: "over 1 of 10 users, 2 of 17 steps", or nothing when whole. */
export function coverageNote(c: Coverage): string | undefined {
  return isWhole(c) ? undefined : `over ${coverageText(c)}`;
}

const ITEM_KEYS = { step: 'steps', 'test action': 'testActions', question: 'questions' } as const;

/** `score --json`'s coverage block (docs/scoring.md): the counts, and whether they are the whole scope. */
export function coverageJson(c: Coverage) {
  return {
    users: { covered: c.users.covered, total: c.users.total },
    [ITEM_KEYS[c.itemNoun]]: { covered: c.items.covered, total: c.items.total },
    whole: isWhole(c),
  };
}

/** The sum of several coverages of one kind (a run's platforms); its key is theirs combined, when all have one. */
export function addCoverage(parts: readonly Coverage[], itemNoun: Coverage['itemNoun']): Coverage {
  const sum = (pick: (c: Coverage) => CoverageCount): CoverageCount => ({
    covered: parts.reduce((s, c) => s + pick(c).covered, 0),
    total: parts.reduce((s, c) => s + pick(c).total, 0),
  });
  const keys = parts.map((c) => c.key);
  const key = keys.every((k): k is string => k !== undefined) ? keys.join('/') : undefined;
  const userNoun = parts[0]?.userNoun;
  return {
    users: sum((c) => c.users),
    items: sum((c) => c.items),
    itemNoun,
    ...(userNoun === undefined ? {} : { userNoun }),
    ...(key === undefined ? {} : { key }),
  };
}

/**
 * An order-free fingerprint of a set of covered units: add each unit once (a unit is a string, or a string and an
 * index), read `key`. Two 32-bit sums of independent hashes: the same set gives the same key whatever order the
 * results file lists it in, and two different sets of the same size collide with odds of about 2^-64.
 */
export class CoverageKey {
  private a = 0;
  private b = 0;
  private n = 0;

  /** The hash of a unit's name (a user), to add its indexed units (its steps) without hashing the name again. */
  static of(name: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  add(nameHash: number, index = 0): void {
    this.a = (this.a + mix(nameHash ^ Math.imul(index + 1, 0x9e3779b1))) >>> 0;
    this.b = (this.b + mix(Math.imul(nameHash, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35) ^ 0x27d4eb2f)) >>> 0;
    this.n++;
  }

  get key(): string {
    return `${this.n}:${this.a.toString(16)}${this.b.toString(16).padStart(8, '0')}`;
  }
}

/** murmur3's finaliser: every input bit moves every output bit. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
