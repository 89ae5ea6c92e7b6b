// Whether labels still describe the data: each row's content hash against the target's current one, for any
// format. Used by `labels summary <benchmark folder>`; the views compute the same per row.
import type { Loaded, OpenedBenchmark } from '../formats/descriptor';
import type { LabelRow } from './model';
import type { Freshness } from './staleness';

export type FreshnessCounts = Record<Freshness, number>;

/**
 * The freshness of each row of `benchmark` (rows of other benchmarks are left out of the map), as the loaded
 * benchmark's format reads it. A format without labels has none to check.
 */
export async function labelFreshness(
  loaded: OpenedBenchmark | Pick<Loaded, 'opened'>,
  benchmark: string,
  rows: readonly LabelRow[],
): Promise<Map<LabelRow, Freshness>> {
  const opened = 'opened' in loaded ? loaded.opened : loaded;
  if (!opened.labelFreshness) throw new Error(`${opened.root}: ${opened.format.label} has no labels`);
  return opened.labelFreshness(benchmark, rows);
}

export function countFreshness(states: Iterable<Freshness>): FreshnessCounts {
  const counts: FreshnessCounts = { fresh: 0, stale: 0, unknown: 0, missing: 0 };
  for (const s of states) counts[s]++;
  return counts;
}
