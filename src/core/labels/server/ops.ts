// A write as it travels from a window to the label server: one event (a person's one action, possibly a batch) made
// of primitive operations, each with what its writer saw before it. The server applies an operation only when what it
// holds is what the writer saw (or the operation would change nothing): a note, a removal or a score changed by
// someone else in between is a conflict, kept in the event log and shown to the second writer, never overwritten.
import { describeKey, type LabelAction, type LabelKey, type LabelRow } from '../model';
import type { ScoreKey, ScoreRow } from '../scores';

export type PrimitiveAction = Exclude<LabelAction, { kind: 'batch' }>;

/** What the writer's store held at the operation's key before it: a label's note, or a score (null: none). */
export type Expect = { note: string } | { score: number | null };

export interface SyncOp {
  action: PrimitiveAction;
  /** Absent: applied whatever the server holds (an import, the CLI), as the embedded store does. */
  expect?: Expect;
}

export interface LabelEvent {
  /** Chosen by the writer: sending the same event twice applies it once. */
  uid: string;
  author: string;
  /** The writer's clock, ISO 8601. */
  madeAt: string;
  ops: SyncOp[];
}

export interface OpConflict {
  /** Index into the event's ops. */
  index: number;
  /** What the server held instead, for the person to see. */
  reason: string;
}

export type EventStatus = 'applied' | 'unchanged' | 'conflict';

export interface PushResult {
  seq: number;
  status: EventStatus;
  conflicts: OpConflict[];
  /** The event was already on the server (sent before, its acknowledgement lost): nothing was applied again. */
  duplicate: boolean;
}

/** An event as the server logged it, for the windows that pull. */
export interface LoggedEvent extends LabelEvent {
  seq: number;
  status: EventStatus;
  conflicts: OpConflict[];
  /** Why its operations were not brought (larger than any valid event): it is skipped, with this reason. */
  oversize?: string;
}

/** `action`'s primitive operations, in order. */
export function flatten(action: LabelAction): PrimitiveAction[] {
  return action.kind === 'batch' ? action.actions.flatMap(flatten) : [action];
}

/**
 * Whether the server's state allows applying `op`: undefined when it does, else the conflict's reason. `current` is
 * the row (labels) or score (judge scores) at the key, undefined when there is none.
 */
export function conflictOf(op: SyncOp, current: LabelRow | ScoreRow | undefined): string | undefined {
  const { action, expect } = op;
  if (!expect) return undefined;
  switch (action.kind) {
    case 'add':
      return undefined;
    case 'remove': {
      if (!current || !('note' in expect)) return undefined;
      const note = (current as LabelRow).note;
      return note === expect.note ? undefined : `its note was changed to ${JSON.stringify(clip(note))} meanwhile`;
    }
    case 'setNote': {
      if (!current) return 'the label was removed meanwhile';
      const note = (current as LabelRow).note;
      if (!('note' in expect) || note === action.note || note === expect.note) return undefined;
      return `its note was changed to ${JSON.stringify(clip(note))} meanwhile`;
    }
    case 'setScore': {
      if (!('score' in expect)) return undefined;
      const now = current ? (current as ScoreRow).score : null;
      const wanted = action.row?.score ?? null;
      if (now === wanted || now === expect.score) return undefined;
      return now === null ? 'the score was removed meanwhile' : `the score was changed to ${now} meanwhile`;
    }
  }
}

function clip(s: string): string {
  return s.length > 60 ? s.slice(0, 59) + '…' : s;
}

/** The label key or score key an operation writes. */
export function opKey(a: PrimitiveAction): LabelKey | ScoreKey {
  return a.kind === 'add' ? a.row : a.key;
}

/** Where an operation writes, for a person: "bench:weibo/u1#3 run demo by ann (wrong_tag)". */
export function describeOp(a: PrimitiveAction): string {
  if (a.kind !== 'setScore') return describeKey(a.kind === 'add' ? a.row : a.key);
  const k = a.key;
  return `${k.benchmark}:${k.userId}#${k.index} run ${k.run} by ${k.author} (score on ${k.dimension})`;
}
