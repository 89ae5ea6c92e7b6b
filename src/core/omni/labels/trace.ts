// Labels on OmniBehavior traces, in the same store and label set as StreamProfileBench steps. A trace label's row:
//   benchmark  the benchmark folder's name (core/labels/model.ts' benchmarkId), as for every format
//   platform   TRACE_PLATFORM ('omnibehavior')
//   user_id    the user; step_id the test action's index in action_history
//   run        the selected run ('' for a label about the data itself)
//   target     { kind: 'action' } for the test action, { kind: 'history', historyIndex } for one earlier record
// The content hash covers what the label is about, so that a label made before the data changed shows as stale.
import { readRecordsAt } from '../history';
import type { HistoryRecord, OmniBenchmark, OmniUser, TestAction } from '../types';
import { staleness, type Freshness } from '../../labels/staleness';
import { findAround } from '../../labels/walk';
import type { LabelKey, LabelRow, LabelTarget, StepRef } from '../../labels/model';
import { TRACE_PLATFORM } from './labelSet';
import { crypto } from '../../io/builtins';

/** One test action of one run: the unit trace labels hang on. */
export interface TraceRef {
  benchmark: string;
  userId: string;
  /** The test action's index in the user's action_history. */
  index: number;
  /** The run the labels belong to; '' for labels about the data. */
  run: string;
}

export const ACTION_TARGET: LabelTarget = { kind: 'action' };

export function historyTarget(historyIndex: number): LabelTarget {
  return { kind: 'history', historyIndex };
}

/** The StepRef of a test action: what LabelStore.listByStep takes (every label on the action and its history). */
export function traceStepRef(ref: TraceRef): StepRef {
  return { benchmark: ref.benchmark, platform: TRACE_PLATFORM, userId: ref.userId, stepId: ref.index, run: ref.run };
}

/** The key of `label` by `author` on a test action (`target` ACTION_TARGET) or one of its history items. */
export function traceLabelKey(ref: TraceRef, target: LabelTarget, author: string, label: string): LabelKey {
  return { ...traceStepRef(ref), author, target, label };
}

/** JSON with object keys sorted at every depth: the same record always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const obj = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(obj)
        .sort()
        .map((k) => [k, obj[k]]),
    );
  });
}

const sha256 = (text: string) => crypto().createHash('sha256').update(text, 'utf8').digest('hex');

/** What a record says: scene (English name, so renaming 直播间 to Live Streaming is no change), time, context, actions. */
function recordContent(r: HistoryRecord): unknown {
  return { scene: r.scene, timestamp: r.timestamp, context: r.context, action: r.actions };
}

/** sha256 of one history record's content. */
export function historyItemHash(record: HistoryRecord): string {
  return sha256(canonicalJson({ record: recordContent(record) }));
}

/**
 * sha256 of a test action: its record (the context asked about and the true behaviour), the fields asked and the
 * user's profile. The earlier history is not included (hashing up to 100,000 records per label would be slow); a
 * label on a history item covers that item.
 */
export function testActionHash(profile: string, fields: readonly string[], record: HistoryRecord): string {
  return sha256(canonicalJson({ profile, fields, record: recordContent(record) }));
}

/** Hashes of trace targets, reading each record by its byte range (one open of a user's file per call). */
export async function traceTargetHashes(
  user: OmniUser,
  targets: readonly { index: number; target: LabelTarget }[],
): Promise<(string | undefined)[]> {
  const positions = targets.map((t) => (t.target.kind === 'history' ? t.target.historyIndex : t.index));
  const records = await readRecordsAt(user.file, user.index, positions);
  const actions = new Map<number, TestAction>(user.testActions.map((t) => [t.index, t]));
  return targets.map(({ index, target }) => {
    if (target.kind === 'history') {
      const r = target.historyIndex < index ? records.get(target.historyIndex) : undefined;
      return r && historyItemHash(r);
    }
    if (target.kind !== 'action') return undefined;
    const action = actions.get(index);
    const r = records.get(index);
    return action && r ? testActionHash(user.profile, action.fields, r) : undefined;
  });
}

/** The content hash to store with a new label on this target; undefined when the target is not in the data. */
export async function traceContentHash(
  user: OmniUser,
  index: number,
  target: LabelTarget,
): Promise<string | undefined> {
  const [h] = await traceTargetHashes(user, [{ index, target }]);
  return h;
}

/** The staleness of each trace row (rows of other benchmarks or formats are left out of the map). */
export async function traceStaleness(
  bench: OmniBenchmark,
  benchmark: string,
  rows: readonly LabelRow[],
): Promise<Map<LabelRow, Freshness>> {
  const out = new Map<LabelRow, Freshness>();
  const byUser = new Map<string, LabelRow[]>();
  for (const r of rows) {
    if (r.benchmark !== benchmark || r.platform !== TRACE_PLATFORM) continue;
    const list = byUser.get(r.userId) ?? [];
    list.push(r);
    byUser.set(r.userId, list);
  }
  for (const [userId, list] of byUser) {
    const user = bench.users.get(userId);
    if (!user) {
      for (const r of list) out.set(r, 'missing');
      continue;
    }
    const hashes = await traceTargetHashes(
      user,
      list.map((r) => ({ index: r.stepId, target: r.target })),
    );
    list.forEach((r, i) => {
      const h = hashes[i];
      out.set(r, h === undefined ? 'missing' : staleness(r, h));
    });
  }
  return out;
}

/** One author's trace labels of one benchmark and run, indexed for the tree's badges and the trace view. */
export class TraceLabelIndex {
  private readonly actions = new Map<string, string[]>();
  private readonly history = new Map<string, string[]>();
  private readonly users = new Map<string, Set<number>>();

  constructor(rows: readonly LabelRow[]) {
    for (const r of rows) {
      if (r.platform !== TRACE_PLATFORM) continue;
      const t = r.target;
      const k =
        t.kind === 'history'
          ? JSON.stringify([r.userId, r.stepId, t.historyIndex])
          : JSON.stringify([r.userId, r.stepId]);
      const map = t.kind === 'history' ? this.history : this.actions;
      const ids = map.get(k) ?? [];
      if (!ids.includes(r.label)) ids.push(r.label);
      map.set(k, ids);
      const set = this.users.get(r.userId) ?? new Set<number>();
      set.add(r.stepId);
      this.users.set(r.userId, set);
    }
  }

  /** Labels on the test action itself, in the order first made. */
  actionLabels(userId: string, index: number): readonly string[] {
    return this.actions.get(JSON.stringify([userId, index])) ?? [];
  }

  /** Labels on history item `historyIndex` of test action `index`. */
  historyLabels(userId: string, index: number, historyIndex: number): readonly string[] {
    return this.history.get(JSON.stringify([userId, index, historyIndex])) ?? [];
  }

  /** History indexes of test action `index` that carry a label, ascending. */
  labelledHistory(userId: string, index: number): number[] {
    const prefix = JSON.stringify([userId, index]).slice(0, -1) + ',';
    return [...this.history.keys()]
      .filter((k) => k.startsWith(prefix))
      .map((k) => (JSON.parse(k) as [string, number, number])[2])
      .sort((a, b) => a - b);
  }

  /** Whether the test action carries a label, on itself or on one of its history items. */
  isLabelled(userId: string, index: number): boolean {
    return this.users.get(userId)?.has(index) ?? false;
  }

  /** Test actions of the user with a label on them or on one of their history items. */
  labelledActionsOfUser(userId: string): number {
    return this.users.get(userId)?.size ?? 0;
  }

  get labelledActions(): number {
    let n = 0;
    for (const s of this.users.values()) n += s.size;
    return n;
  }
}

/**
 * The next test action after `from` in `order` (the benchmark's order, core/omni/order.ts) that carries no label of
 * the index's author and run, going round once: `from` itself comes last. undefined when every one is labelled.
 */
export function nextUnlabelledAction<T extends { userId: string; index: number }>(
  order: readonly T[],
  from: { userId: string; index: number } | undefined,
  labels: TraceLabelIndex,
): T | undefined {
  const start = from ? order.findIndex((a) => a.userId === from.userId && a.index === from.index) : -1;
  return findAround(order, start, 1, (a) => !labels.isLabelled(a.userId, a.index), true);
}
