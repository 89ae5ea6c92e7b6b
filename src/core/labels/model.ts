// The label record shared by the store, export/import and agreement. Pure TypeScript.
import type { ScoreKey, ScoreRow } from './scores';
import { textProblem } from './storableText';

export { textProblem };

/**
 * What a label is attached to. A step: the whole step, one tag of its pool, or a character span of a text field.
 * A trace: the whole test action (`stepId` holds its index in action_history), or one record of the history before
 * it (`historyIndex`, also an action_history index, below the test action's). Any other item: the whole item.
 */
export type LabelTarget =
  | { kind: 'step' }
  | { kind: 'tag'; tag: string }
  | { kind: 'span'; field: string; start: number; end: number }
  | { kind: 'action' }
  | { kind: 'history'; historyIndex: number };

export type TargetKind = LabelTarget['kind'];
export const TARGET_KINDS: readonly TargetKind[] = ['step', 'tag', 'span', 'action', 'history'];

/** The `benchmark` column of a label: the benchmark folder's name, so that copies of it on other machines agree. */
export function benchmarkId(root: string): string {
  return (
    root
      .split(/[\\/]+/)
      .filter(Boolean)
      .pop() ?? root
  );
}

/** One step of one run. `run` is '' for a label about the task data itself (no run selected). */
export interface StepRef {
  benchmark: string;
  platform: string;
  userId: string;
  stepId: number;
  run: string;
}

/** The natural key of a label: one author puts a given label on a given target at most once. */
export interface LabelKey extends StepRef {
  author: string;
  target: LabelTarget;
  label: string;
}

export interface LabelRow extends LabelKey {
  note: string;
  /** ISO 8601 time the label was made. */
  createdAt: string;
  /** sha256 of the step's content when labelled ('' when unknown, e.g. rows migrated from schema v1). */
  contentHash: string;
}

/** An edit of the store; applying one returns its inverse, which is what an undo stack keeps. */
export type LabelAction =
  | { kind: 'add'; row: LabelRow }
  | { kind: 'remove'; key: LabelKey }
  | { kind: 'setNote'; key: LabelKey; note: string }
  /** an author's judge score of an utterance: `row` null removes it (core/labels/scores.ts) */
  | { kind: 'setScore'; key: ScoreKey; row: ScoreRow | null }
  | { kind: 'batch'; actions: LabelAction[] };

export const NO_OP: LabelAction = { kind: 'batch', actions: [] };

export function isNoOp(action: LabelAction): boolean {
  return action.kind === 'batch' && action.actions.every(isNoOp);
}

export function targetKey(t: LabelTarget): string {
  switch (t.kind) {
    case 'step':
      return 'step';
    case 'tag':
      return 'tag:' + t.tag;
    case 'span':
      return `span:${t.field}:${t.start}:${t.end}`;
    case 'action':
      return 'action';
    case 'history':
      return `history:${t.historyIndex}`;
  }
}

/** A printable, unambiguous id of a step (JSON array form, so no separator can collide with the data). */
export function stepKey(s: StepRef): string {
  return JSON.stringify([s.benchmark, s.platform, s.userId, s.stepId, s.run]);
}

/** Identifies an author's labels on one target: the unit in which imports are compared. */
export function groupKey(k: Omit<LabelKey, 'label'>): string {
  return JSON.stringify([k.benchmark, k.platform, k.userId, k.stepId, k.run, k.author, targetKey(k.target)]);
}

export function labelKey(k: LabelKey): string {
  return JSON.stringify([k.benchmark, k.platform, k.userId, k.stepId, k.run, k.author, targetKey(k.target), k.label]);
}

export function keyOf(row: LabelKey): LabelKey {
  const { benchmark, platform, userId, stepId, run, author, target, label } = row;
  return { benchmark, platform, userId, stepId, run, author, target, label };
}

/** A short human description of where a label sits, for conflict lists and messages. */
export function describeKey(k: Omit<LabelKey, 'label'> & { label?: string }): string {
  const where = `${k.platform}/${k.userId}#${k.stepId}${k.run ? ` run ${k.run}` : ''}`;
  const target = k.target.kind === 'step' || k.target.kind === 'action' ? '' : ` [${targetKey(k.target)}]`;
  return `${k.benchmark ? k.benchmark + ':' : ''}${where}${target} by ${k.author}${k.label ? ` (${k.label})` : ''}`;
}

/** The longest note a label may carry, in characters (code points): a note explains a label, it is not a document. */
export const MAX_NOTE_LENGTH = 4000;

/** Why `note` cannot be a label's note (too long, or a character no store keeps), or null. */
export function noteProblem(note: string): string | null {
  const text = textProblem(note);
  if (text) return `the note ${text}`;
  if (note.length <= MAX_NOTE_LENGTH) return null;
  const chars = [...note].length;
  return chars <= MAX_NOTE_LENGTH
    ? null
    : `a note may hold at most ${MAX_NOTE_LENGTH} characters; this one has ${chars}`;
}

/** Why a label of a target kind cannot carry a platform (the formats decide: platformRules.ts), or null. */
export type PlatformRule = (kind: TargetKind, platform: string) => string | null;

/**
 * Checks a key's shape, its platform by `platformRule`; returns a reason or null. Keys come from our own UI or from
 * validated import rows.
 */
export function keyProblem(k: LabelKey, platformRule: PlatformRule): string | null {
  for (const f of ['benchmark', 'platform', 'userId', 'run', 'author', 'label'] as const) {
    if (typeof k[f] !== 'string') return `${f} must be a string`;
  }
  for (const f of ['benchmark', 'platform', 'userId', 'run', 'author', 'label'] as const) {
    const problem = textProblem(k[f]);
    if (problem) return `${f} ${problem}`;
  }
  if (!k.userId) return 'userId is empty';
  if (!k.author) return 'author is empty';
  if (!k.label) return 'label is empty';
  if (!Number.isSafeInteger(k.stepId) || k.stepId < 0) return 'stepId must be a non-negative integer';
  const t = k.target;
  if (!t || !TARGET_KINDS.includes(t.kind)) return `target.kind must be one of ${TARGET_KINDS.join(', ')}`;
  const platform = platformRule(t.kind, k.platform);
  if (platform) return platform;
  if (t.kind === 'history') {
    if (!Number.isSafeInteger(t.historyIndex) || t.historyIndex < 0)
      return 'a history target needs a non-negative historyIndex';
    if (t.historyIndex >= k.stepId) return 'a history item must come before its test action (historyIndex < stepId)';
  }
  if (t.kind === 'tag' && (typeof t.tag !== 'string' || t.tag === '')) return 'a tag target needs a tag';
  if (t.kind === 'tag' && textProblem(t.tag)) return `the tag ${textProblem(t.tag)}`;
  if (t.kind === 'span' && typeof t.field === 'string' && textProblem(t.field))
    return `the span's field ${textProblem(t.field)}`;
  if (t.kind === 'span') {
    if (typeof t.field !== 'string' || t.field === '') return 'a span target needs a field';
    if (!Number.isSafeInteger(t.start) || !Number.isSafeInteger(t.end) || t.start < 0 || t.end < t.start) {
      return 'a span needs 0 <= start <= end';
    }
  }
  return null;
}
