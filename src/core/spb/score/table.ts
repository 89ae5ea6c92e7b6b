// Compact per-user tables that the loader builds so that scoring a run reads two small integer arrays per user
// instead of walking a handful of objects per step (maps, splits, indexes, pick arrays: cache misses that were
// most of the scoring time). The tables only re-encode what was read: each split's distinct tags and classes,
// and each result's picks, as tag ids. Matching picks against splits stays with the scorer.
import { splitIndex, tagCount, tagId, type SplitIndex } from './step';
import type { StepResult, User, UserResult } from '../types';

const SPLITS = Symbol('splitTable');

export function splitTableSize(user: User): number {
  let size = 0;
  for (const s of user.steps) size += 8 + 2 * splitIndex(s.split).ids.length;
  return size;
}

/**
 * A user's split table: per step, in order, K, the six class sizes, n, then n (tag id, class mask) pairs. Steps
 * without positives (K = 0) are kept, so that positions line up with user.steps.
 */
export function writeSplitTable(user: User, table: Int32Array): void {
  let at = 0;
  for (const step of user.steps) {
    const ix: SplitIndex = splitIndex(step.split);
    table[at++] = ix.K;
    for (let c = 0; c < 6; c++) table[at++] = ix.sizes[c];
    table[at++] = ix.ids.length;
    for (let i = 0; i < ix.ids.length; i++) {
      table[at++] = ix.ids[i];
      table[at++] = ix.masks[i];
    }
  }
}

/**
 * A result's pick table: per step of the user, in order, -1 when the run has no result for it, else n and the n
 * picks as tag ids (-1 for a pick that is no split's tag or not a string). Built after the user's splits were indexed.
 */
function pickTableSize(user: User, steps: ReadonlyMap<number, StepResult>): number {
  let size = 0;
  for (const s of user.steps) size += 1 + (steps.get(s.stepId)?.prediction.length ?? 0);
  return size;
}

/** A user's step ids in order: its steps, or a table user's ids (tableUsers.ts). */
type StepIds = readonly { stepId: number }[] | Int32Array;

/** Writes the pick table; a step whose result `keep` does not keep is written as one without a result. */
export function writePickTable(
  ids: StepIds,
  steps: ReadonlyMap<number, StepResult>,
  table: Int32Array,
  keep?: (step: StepResult) => boolean,
): void {
  let at = 0;
  for (let i = 0; i < ids.length; i++) {
    const r = steps.get(ids instanceof Int32Array ? ids[i] : ids[i].stepId);
    if (!r || (keep && !keep(r))) {
      table[at++] = -1;
      continue;
    }
    table[at++] = r.prediction.length;
    for (const p of r.prediction) table[at++] = tagId(p);
  }
}

type WithSplits = User & { [SPLITS]?: Int32Array };

/**
 * Keeps each user's split table on it (hidden: it is no part of the user's data). One buffer for all the users of
 * a file, each user a view of it: thousands of small buffers cost more memory than the tables themselves.
 */
export function attachSplitTables(users: Iterable<User>): void {
  const list = [...users].filter((u) => Object.isExtensible(u));
  const sizes = list.map(splitTableSize);
  const buffer = new Int32Array(sizes.reduce((a, b) => a + b, 0));
  let at = 0;
  list.forEach((user, i) => {
    const table = buffer.subarray(at, at + sizes[i]);
    at += sizes[i];
    writeSplitTable(user, table);
    Object.defineProperty(user, SPLITS, { value: table, enumerable: false });
  });
}

/** A results file's rows that have a user, with the user's split table and the row's pick table, in file order. */
export interface PlatformTable {
  users: ReadonlyMap<string, User>;
  size: number;
  entries: { userId: string; splits: Int32Array; picks: Int32Array }[];
  /** Which steps with no picks are the reference's error record (errorStepKey), when the index said so. */
  errorSteps?: ReadonlySet<string>;
}

const platformTables = new WeakMap<ReadonlyMap<string, UserResult>, PlatformTable>();

/**
 * Builds, for a results file's map, the pick tables of its rows (one buffer) and the list of (user, tables) that
 * scoreRun walks instead of the map. Nothing is built when a row's user has no split table: scoring then goes
 * step by step.
 */
export function attachPickTables(results: ReadonlyMap<string, UserResult>, users: ReadonlyMap<string, User>): void {
  const list: { result: UserResult; user: User; splits: Int32Array; size: number }[] = [];
  for (const result of results.values()) {
    const user = users.get(result.userId);
    if (!user) continue;
    const splits = splitTableOf(user);
    if (!splits) return;
    list.push({ result, user, splits, size: pickTableSize(user, result.steps) });
  }
  const buffer = new Int32Array(list.reduce((a, r) => a + r.size, 0));
  const entries: PlatformTable['entries'] = [];
  let at = 0;
  for (const { result, user, splits, size } of list) {
    const picks = buffer.subarray(at, at + size);
    at += size;
    writePickTable(user.steps, result.steps, picks);
    entries.push({ userId: result.userId, splits, picks });
  }
  platformTables.set(results, { users, size: results.size, entries });
}

/** As attachPickTables, from pick tables read back from the index (rows in the map's order). */
export function attachPickRows(
  results: ReadonlyMap<string, UserResult>,
  users: ReadonlyMap<string, User>,
  rows: readonly { user: User; picks: Int32Array }[],
  errorSteps?: ReadonlySet<string>,
): void {
  const entries: PlatformTable['entries'] = [];
  for (const { user, picks } of rows) {
    const splits = splitTableOf(user);
    if (!splits) return;
    entries.push({ userId: user.userId, splits, picks });
  }
  platformTables.set(results, { users, size: rows.length, entries, errorSteps });
}

export const errorStepKey = (userId: string, stepId: number) => `${userId}\u0000${stepId}`;

/**
 * The rows of a results map with both tables, when the loader built them against these users and the map has not
 * grown since (maps are not changed after loading; the size check guards code that builds runs by hand).
 */
export function platformTableOf(
  results: ReadonlyMap<string, UserResult>,
  users: ReadonlyMap<string, User>,
): PlatformTable | undefined {
  const table = platformTables.get(results);
  return table && table.users === users && table.size === results.size ? table : undefined;
}

/** The user's split table, when the loader built one. */
export function splitTableOf(user: User): Int32Array | undefined {
  return (user as WithSplits)[SPLITS];
}

/**
 * Adds the user's scored steps to `sums` / `counts` (NaN-skipping, per METRIC_KEYS) in step order; returns the
 * number of scored steps. Same arithmetic as scoreStep followed by nanMean, to the last bit.
 */
export function scoreFromTables(splits: Int32Array, picks: Int32Array, sums: Float64Array, counts: Int32Array): number {
  let scored = 0;
  let s = 0;
  let p = 0;
  while (s < splits.length) {
    const K = splits[s];
    const n = splits[s + 7];
    const pairs = s + 8;
    const count = picks[p++];
    if (count >= 0 && K > 0) {
      // Each pool tag's class mask goes into a table indexed by tag id, stamped with this step's token, so each
      // pick is one lookup instead of a scan of the pool. A hit re-stamps its tag: a duplicate pick then misses.
      const token = nextToken();
      for (let i = 0; i < n; i++) {
        const id = splits[pairs + 2 * i];
        stamps[id] = token;
        masks[id] = splits[pairs + 2 * i + 1];
      }
      // Counts in locals rather than an array: this loop is most of the scoring time.
      let h0 = 0,
        h1 = 0,
        h2 = 0,
        h3 = 0,
        h4 = 0,
        h5 = 0;
      let positives = 0;
      for (let j = p; j < p + count; j++) {
        const id = picks[j];
        if (id < 0 || stamps[id] !== token) continue;
        stamps[id] = 0;
        const mask = masks[id];
        h0 += mask & 1;
        h1 += (mask >> 1) & 1;
        h2 += (mask >> 2) & 1;
        h3 += (mask >> 3) & 1;
        h4 += (mask >> 4) & 1;
        h5 += (mask >> 5) & 1;
        if (mask & 0b11) positives++;
      }
      // METRIC_KEYS order: Recall, then the classes tNew, tKeep, dDecay, dPeer, dViral, dRandom (NaN-skipping).
      sums[0] += positives / K;
      counts[0]++;
      addRate(sums, counts, 1, h1, splits[s + 2]);
      addRate(sums, counts, 2, h0, splits[s + 1]);
      addRate(sums, counts, 3, h2, splits[s + 3]);
      addRate(sums, counts, 4, h3, splits[s + 4]);
      addRate(sums, counts, 5, h4, splits[s + 5]);
      addRate(sums, counts, 6, h5, splits[s + 6]);
      scored++;
    }
    if (count > 0) p += count;
    s = pairs + 2 * n;
  }
  return scored;
}

// Per tag id: the token of the step that last stamped it, and its class mask there. Grown to the number of ids.
let stamps = new Int32Array(0);
let masks = new Int32Array(0);
let token = 0;

function nextToken(): number {
  if (stamps.length < tagCount()) {
    const size = Math.max(tagCount(), stamps.length * 2, 1024);
    stamps = new Int32Array(size);
    masks = new Int32Array(size);
    token = 0;
  }
  if (token === 0x7fffffff) {
    stamps.fill(0);
    token = 0;
  }
  return ++token;
}

/** hit / size into metric m, unless the class is empty (NaN, skipped). */
function addRate(sums: Float64Array, counts: Int32Array, m: number, hit: number, size: number): void {
  if (size === 0) return;
  sums[m] += hit / size;
  counts[m]++;
}
