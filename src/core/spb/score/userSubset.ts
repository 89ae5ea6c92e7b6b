// A subset of a benchmark's users (a sample's), by platform, for scoring and figures over just those users: the
// same scoring functions take it (scoreRun, scoredSteps), so a sample's figure is never computed a second way.
import type { Platform } from '../types';

export type UserSubset = ReadonlyMap<Platform, ReadonlySet<string>>;

/** From a sample file's `users` (ids per platform). */
export function userSubset(users: Partial<Record<Platform, readonly string[]>>): UserSubset {
  const out = new Map<Platform, Set<string>>();
  for (const [platform, ids] of Object.entries(users) as [Platform, readonly string[]][]) {
    if (ids.length) out.set(platform, new Set(ids));
  }
  return out;
}

/** Whether a user is in the subset; every user is when there is none. */
export function inSubset(subset: UserSubset | undefined, platform: Platform, userId: string): boolean {
  return !subset || (subset.get(platform)?.has(userId) ?? false);
}

export function subsetSize(subset: UserSubset): number {
  let n = 0;
  for (const ids of subset.values()) n += ids.size;
  return n;
}
