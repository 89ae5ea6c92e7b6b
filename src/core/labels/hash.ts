// The content hash of a task step: a label made on data that has changed since shows as stale.
import { createHash } from 'node:crypto';
import { readPostsText } from '../spb/load';
import { META_KEYS, POOL_CLASSES, type Step, type User } from '../spb/types';

/** The canonical JSON the hash is taken over: fixed key order, lists in data order. */
export function stepCanonicalJson(step: Pick<Step, 'pool' | 'split'>, postsText: string): string {
  const meta: Record<string, string[]> = {};
  for (const cls of [...POOL_CLASSES].sort((a, b) => (META_KEYS[a] < META_KEYS[b] ? -1 : 1))) {
    meta[META_KEYS[cls]] = step.split[cls];
  }
  return JSON.stringify({ meta, pool: step.pool, posts: postsText });
}

/** sha256 (hex) of the step's pool, meta split and posts text. */
export function stepContentHash(step: Pick<Step, 'pool' | 'split'>, postsText: string): string {
  return createHash('sha256').update(stepCanonicalJson(step, postsText), 'utf8').digest('hex');
}

/** The hash of a loaded step, reading its posts back from disk. */
export function stepContentHashOf(user: User, step: Step): string {
  return stepContentHash(step, readPostsText(user, step));
}

export type Staleness = 'fresh' | 'stale' | 'unknown';

/** 'unknown' for rows without a hash (made before schema v2, or imported without one). */
export function staleness(row: { contentHash: string }, currentHash: string): Staleness {
  if (!row.contentHash) return 'unknown';
  return row.contentHash === currentHash ? 'fresh' : 'stale';
}

export function isStale(row: { contentHash: string }, currentHash: string): boolean {
  return staleness(row, currentHash) === 'stale';
}
