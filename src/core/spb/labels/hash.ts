// The content hash of a task step: a label made on data that has changed since shows as stale, and says what changed.
// New labels store one short hash per part (pool, split, posts) in the same column; labels stored before keep the
// single full hash, which still tells stale from fresh but not which part changed.
import { readPostsText } from '../format/load';
import { staleness, type Staleness } from '../../labels/staleness';
import { META_KEYS, POOL_CLASSES, type Step, type User } from '../types';
import { crypto } from '../../io/builtins';

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
  return crypto().createHash('sha256').update(stepCanonicalJson(step, postsText), 'utf8').digest('hex');
}

export const STEP_PARTS = ['pool', 'split', 'posts'] as const;
export type StepPart = (typeof STEP_PARTS)[number];

/** A step's hashes now: the full one (what labels stored before part hashes hold) and one per part. */
export interface StepHash {
  full: string;
  parts: Record<StepPart, string>;
}

/** The prefix of stored part hashes (core/labels/staleness.ts' isStoredHash knows their shape). */
const PARTS_PREFIX = 'parts1:';
const short = (text: string) => crypto().createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);

export function stepHash(step: Pick<Step, 'pool' | 'split'>, postsText: string): StepHash {
  const canonical = JSON.parse(stepCanonicalJson(step, postsText)) as { meta: unknown; pool: unknown };
  return {
    full: stepContentHash(step, postsText),
    parts: {
      pool: short(JSON.stringify(canonical.pool)),
      split: short(JSON.stringify(canonical.meta)),
      posts: short(postsText),
    },
  };
}

/** What a new label stores: "parts1:<pool>:<split>:<posts>". */
export function stepHashText(h: StepHash): string {
  return `${PARTS_PREFIX}${STEP_PARTS.map((p) => h.parts[p]).join(':')}`;
}

/** The hashes of a loaded step, reading its posts back from disk. */
export function stepHashOf(user: User, step: Step): StepHash {
  return stepHash(step, readPostsText(user, step));
}

function storedParts(stored: string): Record<StepPart, string> | undefined {
  if (!stored.startsWith(PARTS_PREFIX)) return undefined;
  const v = stored.slice(PARTS_PREFIX.length).split(':');
  return v.length === STEP_PARTS.length ? { pool: v[0], split: v[1], posts: v[2] } : undefined;
}

/** A row against a step's hashes now: by part when the row stored part hashes, else by the full hash. */
export function stepStaleness(row: { contentHash: string }, current: StepHash): Staleness {
  const parts = row.contentHash ? storedParts(row.contentHash) : undefined;
  if (parts) return STEP_PARTS.every((p) => parts[p] === current.parts[p]) ? 'fresh' : 'stale';
  return staleness(row, current.full);
}

/** The parts of the step that changed since the row was stored; undefined when that is not known (older rows). */
export function changedParts(row: { contentHash: string }, current: StepHash): StepPart[] | undefined {
  const parts = storedParts(row.contentHash);
  return parts && STEP_PARTS.filter((p) => parts[p] !== current.parts[p]);
}
