// What an item view's labels bar shows, as plain JSON-safe data, and the rules both sides share about targets.
// Imported by the webview bundle: keep it free of Node imports (types only from the rest of core/labels).
import type { AdjudicationSection } from './adjudication';
import type { LabelTarget } from './model';
import type { LabelScope } from './taxonomy';

/** The text field a persona span is stored on: the run's `persona_summary` of this step (offsets in code points). */
export const PERSONA_FIELD = 'persona_summary';

export interface LabelChip {
  id: string;
  name: string;
  description: string;
  key: string | null;
  scope: LabelScope;
  /** How to decide on this label (labels.json's `guide`), or null. */
  guide: string | null;
}

export type LabelStaleness = 'fresh' | 'stale' | 'unknown';

export interface AppliedLabel {
  labelId: string;
  name: string;
  /** false: the id is not in the current label set (shown as itself, never hidden). */
  known: boolean;
  target: LabelTarget;
  note: string;
  staleness: LabelStaleness;
  /** When stale: what changed since it was made ("pool", "split", "posts", "record", "test action"); null: not known. */
  changed: string[] | null;
  createdAt: string;
  /** For a span: its text in the current persona ('' when the span no longer fits it). */
  excerpt: string;
}

export interface SuggestedLabel {
  labelId: string;
  name: string;
  key: string | null;
  reason: string;
  tags: string[];
}

export interface OtherLabel {
  author: string;
  labelId: string;
  name: string;
}

export interface LabelFlash {
  kind: 'info' | 'error';
  text: string;
}

/** The labels bar of an item view; `Ref` says which item (a step's platform, user and step id). */
export interface LabelViewState<Ref> {
  ref: Ref;
  /** The run the labels belong to ('' when no run is selected: labels about the task data). */
  run: string;
  author: string;
  labels: LabelChip[];
  /** This author's labels on the step (every target). */
  applied: AppliedLabel[];
  /** Suggestions from the metrics not yet applied; stored only when the user confirms them. */
  suggestions: SuggestedLabel[];
  /** Other annotators' labels on the step, read only. */
  others: OtherLabel[];
  canUndo: boolean;
  /** Why labelling is unavailable (the label database could not be opened), or null. */
  error: string | null;
  /** A problem with the workspace label set (the defaults are then in use), or null. */
  labelSetNote: string | null;
  /** The outcome of the last action, shown once. */
  flash: LabelFlash | null;
  /** The team's label server, or null when labels are in the embedded file. */
  server: LabelServerLine | null;
  /** The labelling project whose queue `.` walks (its name), or null: `.` is next unlabelled. */
  project: string | null;
  /** The adjudication pass's section on this step, while a pass is on and the step is one of its units. */
  adjudication?: AdjudicationSection | null;
}

/** What the labels bar says about the label server: online (everything sent), or why labels wait here. */
export interface LabelServerLine {
  state: 'connecting' | 'online' | 'offline' | 'error';
  /** Changes waiting to be sent. */
  pending: number;
  text: string;
}

/**
 * Whether a label of this scope may sit on this target: every label fits a whole step. On traces every label fits a
 * test action and a history item too (each is a whole record; the scopes describe parts of a step).
 */
export function targetAllowed(scope: LabelScope, target: LabelTarget): boolean {
  if (target.kind === 'step' || target.kind === 'action' || target.kind === 'history') return true;
  if (target.kind === 'tag') return scope === 'tag';
  return scope === 'persona-span';
}

/** The target a key press uses: the selection when the label's scope allows it, else the whole step. */
export function effectiveTarget(scope: LabelScope, selected: LabelTarget | null): LabelTarget {
  return selected && targetAllowed(scope, selected) ? selected : { kind: 'step' };
}

export function sameTarget(a: LabelTarget, b: LabelTarget): boolean {
  if (a.kind === 'tag' && b.kind === 'tag') return a.tag === b.tag;
  if (a.kind === 'span' && b.kind === 'span') return a.field === b.field && a.start === b.start && a.end === b.end;
  if (a.kind === 'history' && b.kind === 'history') return a.historyIndex === b.historyIndex;
  return a.kind === b.kind;
}

/** Code points in the first `utf16` code units of `text` (spans are stored in code points, as Python counts). */
export function codePointOffset(text: string, utf16: number): number {
  return [...text.slice(0, utf16)].length;
}

/** The UTF-16 index of code point `cp` in `text` (clamped to the text's length). */
export function utf16Offset(text: string, cp: number): number {
  let i = 0;
  let n = 0;
  for (const ch of text) {
    if (n >= cp) break;
    i += ch.length;
    n++;
  }
  return i;
}

/** The text of a code-point span, or '' when it does not fit the text. */
export function spanText(text: string, start: number, end: number): string {
  const chars = [...text];
  if (start < 0 || end > chars.length || end <= start) return '';
  return chars.slice(start, end).join('');
}

export function describeTarget(t: LabelTarget, excerpt = ''): string {
  if (t.kind === 'step') return 'the whole step';
  if (t.kind === 'tag') return `tag ${t.tag}`;
  if (t.kind === 'action') return 'the whole test action';
  if (t.kind === 'history') return `history record #${t.historyIndex}`;
  const text = excerpt.length > 24 ? `${excerpt.slice(0, 24)}…` : excerpt;
  return text ? `persona span “${text}”` : `persona span ${t.start}–${t.end}`;
}

/**
 * The label target of the trace view in words, for its labels bar ("Labelling: test action #12"): the test action
 * `actionIndex`, or a history record before it with its behaviours (the record's action types) when known.
 */
export function traceTargetText(
  actionIndex: number,
  t: { kind: 'action' } | { kind: 'history'; historyIndex: number },
  behaviours: readonly string[] = [],
): string {
  if (t.kind === 'action') return `test action #${actionIndex}`;
  return `history record #${t.historyIndex}${behaviours.length ? ` (${behaviours.join(', ')})` : ''}`;
}

/** What a labels bar's `n` key writes a note on. */
export interface NoteChoice {
  labelId: string;
  target: LabelTarget;
}

/**
 * The applied label whose note `n` writes: the label last added from the view (`last`), else one on the target the
 * keys label now (`current`), else the first one; undefined when the item carries none.
 */
export function noteTarget(
  applied: readonly AppliedLabel[],
  last: NoteChoice | undefined,
  current: LabelTarget,
): AppliedLabel | undefined {
  const is = (c: NoteChoice) => (a: AppliedLabel) => a.labelId === c.labelId && sameTarget(a.target, c.target);
  return (last && applied.find(is(last))) ?? applied.find((a) => sameTarget(a.target, current)) ?? applied[0];
}

/** "stale: the pool and the posts changed since this label was made" (what = the parts, or a fallback sentence). */
export function staleText(changed: readonly string[] | null, fallback: string): string {
  if (!changed || changed.length === 0) return `stale: ${fallback} changed since this label was made`;
  const names = changed.map((c) => `the ${c}`);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  return `stale: ${list} changed since this label was made`;
}
