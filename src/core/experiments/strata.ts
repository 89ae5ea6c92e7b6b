// The fair draw every sample uses, whatever its units (one benchmark's users, another's questions): n units
// shared out over strata, one per non-empty stratum first and the rest in proportion to the strata's sizes, each
// stratum's units drawn by a seeded shuffle whose stream depends on the seed and the stratum's key only.
import { hashString, mulberry32 } from '../stats/random';

/**
 * How many of `n` each stratum gets: one per non-empty stratum first (when n allows), the rest in proportion to
 * the strata's remaining sizes by largest remainder (ties to the earlier stratum). Never more than a stratum holds.
 */
export function allocate(sizes: readonly number[], n: number): number[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  if (n >= total) return [...sizes];
  const out = sizes.map(() => 0);
  const nonEmpty = sizes.filter((s) => s > 0).length;
  let left = n;
  if (n >= nonEmpty) {
    sizes.forEach((s, i) => (out[i] = s > 0 ? 1 : 0));
    left -= nonEmpty;
  }
  const rest = sizes.map((s, i) => s - out[i]);
  const restTotal = rest.reduce((a, b) => a + b, 0);
  if (left === 0 || restTotal === 0) return out;
  const quotas = rest.map((r) => (left * r) / restTotal);
  const floors = quotas.map(Math.floor);
  floors.forEach((f, i) => (out[i] += f));
  let remaining = left - floors.reduce((a, b) => a + b, 0);
  const order = quotas.map((q, i) => ({ i, frac: q - Math.floor(q) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (remaining === 0) break;
    if (out[i] < sizes[i]) {
      out[i]++;
      remaining--;
    }
  }
  return out;
}

/** The first m of a seeded Fisher-Yates shuffle; the stream depends on the seed and the stratum key only. */
function pick<T>(items: readonly T[], m: number, seed: number, key: string): T[] {
  const a = [...items];
  const rng = mulberry32(hashString(`${seed}:${key}`));
  for (let i = 0; i < Math.min(m, a.length); i++) {
    const j = i + Math.floor(rng() * (a.length - i));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, m);
}

export interface Stratum<T> {
  key: string;
  units: readonly T[];
}

/** `n` units over the strata (allocate, then a seeded pick in each): how many each stratum gave, and the units. */
export function drawStrata<T>(
  strata: readonly Stratum<T>[],
  n: number,
  seed: number,
): { drawn: number[]; chosen: Set<T> } {
  const drawn = allocate(
    strata.map((s) => s.units.length),
    n,
  );
  const chosen = new Set<T>();
  strata.forEach((s, i) => {
    for (const u of pick(s.units, drawn[i], seed, s.key)) chosen.add(u);
  });
  return { drawn, chosen };
}
