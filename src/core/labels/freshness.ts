// Whether labels still describe the data: each row's content hash against the target's current one, for either
// format. Used by `labels summary <benchmark folder>`; the views compute the same per row.
import type { Loaded } from '../formats';
import { stepHashOf, staleness } from './hash';
import type { LabelRow } from './model';
import { traceStaleness, type TraceStaleness } from './trace';

export type Freshness = TraceStaleness;
export type FreshnessCounts = Record<Freshness, number>;

/** The freshness of each row of `benchmark` (rows of other benchmarks are left out of the map). */
export async function labelFreshness(
  loaded: Loaded,
  benchmark: string,
  rows: readonly LabelRow[],
): Promise<Map<LabelRow, Freshness>> {
  if (loaded.format === 'omnibehavior') return traceStaleness(loaded.bench, benchmark, rows);
  const out = new Map<LabelRow, Freshness>();
  const bench = loaded.bench;
  for (const r of rows) {
    if (r.benchmark !== benchmark) continue;
    const user = [...bench.users].find(([platform]) => platform === r.platform)?.[1].get(r.userId);
    const step = user?.steps.find((s) => s.stepId === r.stepId);
    out.set(r, user && step ? staleness(r, stepHashOf(user, step)) : 'missing');
  }
  return out;
}

export function countFreshness(states: Iterable<Freshness>): FreshnessCounts {
  const counts: FreshnessCounts = { fresh: 0, stale: 0, unknown: 0, missing: 0 };
  for (const s of states) counts[s]++;
  return counts;
}
