// The labels bar's messages, shaped alike in every view that labels (the step view, the trace view): the webview
// posts `{ type: 'label', action }`, where an action is tagged on `kind` and names the item it was made on (`ref`),
// so a key pressed just before the next item arrives still labels the one the user saw; the extension answers with
// `{ type: 'labels', state }` after each item shown and each change. Toggle, note, undo and next unlabelled are the
// same in each view; each view adds its own actions and state fields.
import type { AppliedLabel, LabelChip, LabelFlash, LabelServerLine } from '../core/labels/view';
import type { AdjudicationSection } from '../core/labels/adjudication';

export type { LabelServerLine };
import {
  array,
  arrayOf,
  bool,
  type Guard,
  type Infer,
  count,
  literal,
  message,
  nullable,
  num,
  object,
  optional,
  type Shape,
  shapeOf,
  str,
  tagged,
} from '../core/guards';

/** Toggle this author's label `labelId` on `target` of the item `ref`. */
export function labelToggle<R, T>(ref: Guard<R>, target: Guard<T>) {
  return tagged('kind', 'toggle', { ref, labelId: str, target });
}

/** Undo the view's last labelling action (wherever it was made). */
export const labelUndo = tagged('kind', 'undo');

/** Set the note of this author's label `labelId` on `target` of the item `ref` (the `n` key). */
export function labelSetNote<R, T>(ref: Guard<R>, target: Guard<T>) {
  return tagged('kind', 'setNote', { ref, labelId: str, target, note: str });
}

/** Show the next item after `ref` that carries no label of this author (the `.` key). */
export function labelNextUnlabelled<R>(ref: Guard<R>) {
  return tagged('kind', 'nextUnlabelled', { ref });
}

/**
 * A decision of the adjudication pass on the unit `unit` (a stepKey): take annotator `take`'s labels (1-based), set
 * the labels directly (`set`), undo the pass's last decision, or go to the next open unit.
 */
export const labelAdjudicate = tagged('kind', 'adjudicate', {
  unit: str,
  take: (v: unknown): v is number | 'set' | 'undo' | 'next' => count(v) || v === 'set' || v === 'undo' || v === 'next',
});
export type AdjudicateAction = Infer<typeof labelAdjudicate>;

/** While an adjudication section shows, its keys come before the label set's (digits take an annotator's labels). */
export const ADJUDICATION_KEYS = { set: 'g', undo: 'u', next: '.' } as const;

/** Whether the adjudication pass takes `key` while its section shows: every digit and its own keys. */
export function adjudicationTakes(key: string): boolean {
  return /^[0-9]$/.test(key) || Object.values<string>(ADJUDICATION_KEYS).includes(key);
}

/** The keys every labels bar handles (no modifier), beside the label set's own keys. */
export const LABEL_BAR_KEYS = { note: 'n', undo: 'u', nextUnlabelled: '.' } as const;

/** The webview → extension message that carries a labelling action. */
export function labelMessage<A>(action: Guard<A>) {
  return message('label', { action });
}

/** The extension → webview message with the labels bar of the item `state.ref`. */
export function labelsMessage<S>(state: Guard<S>) {
  return message('labels', { state });
}

/** What every view's labels bar state holds. */
export interface LabelBarState<R> {
  ref: R;
  /** The run the labels belong to ('' when no run is selected: labels about the data). */
  run: string;
  author: string;
  labels: LabelChip[];
  /** This author's labels on the item (every target). */
  applied: AppliedLabel[];
  canUndo: boolean;
  /** Why labelling is unavailable (the label database could not be opened), or null. */
  error: string | null;
  /** A problem with the workspace label set (the defaults are then in use), or null. */
  labelSetNote: string | null;
  /** The outcome of the last action, shown once. */
  flash: LabelFlash | null;
  /** The team's label server (personaLab.labels.server), or null when labels are in the embedded file. */
  server: LabelServerLine | null;
  /** The labelling project whose queue `.` walks in this view (its name), or null: `.` is next unlabelled. */
  project: string | null;
  /** The adjudication pass's section on this item, while a pass is on and the item is one of its units. */
  adjudication?: AdjudicationSection | null;
}

const serverLine = object({
  state: literal('connecting', 'online', 'offline', 'error'),
  pending: num,
  text: str,
});

const flash = object({ kind: literal('info', 'error'), text: str });

/** A label of the set as the bar lists it; its texts (name, description, guide) are shown as text only. */
export const labelChip = shapeOf<LabelChip>()({
  id: str,
  name: str,
  description: str,
  key: nullable(str),
  scope: literal('step', 'tag', 'persona-span'),
  guide: nullable(str),
});

const strings = arrayOf(str);
const passProgress = object({ settled: count, agreed: count, open: count });

/** The adjudication section; its texts (authors, label names, notes) are shown as text only. */
export const adjudicationSection = shapeOf<AdjudicationSection>()({
  unit: str,
  scope: str,
  state: literal('open', 'agreed', 'settled'),
  annotators: arrayOf(
    object({
      n: count,
      author: str,
      labels: strings,
      notes: arrayOf(object({ label: str, where: str, note: str })),
    }),
  ),
  gold: nullable(strings),
  decidedBy: nullable(str),
  progress: passProgress,
  canUndo: bool,
});

/** The checked part of a LabelBarState: the fields the bar renders from. */
export function labelBarShape<R>(ref: Guard<R>) {
  return {
    ref,
    run: str,
    author: str,
    labels: arrayOf(labelChip),
    applied: array,
    canUndo: bool,
    error: nullable(str),
    labelSetNote: nullable(str),
    flash: nullable(flash),
    server: nullable(serverLine),
    project: nullable(str),
    adjudication: optional(nullable(adjudicationSection)),
  } satisfies Shape;
}

/**
 * Keys a label set may not bind (loadLabelSet's reservedKeys): the labels bars' and the item views' navigation keys,
 * in every view, since one label set serves them all.
 */
export const RESERVED_LABEL_KEYS: readonly string[] = [
  'j',
  'k',
  'a',
  'n',
  'u',
  '.',
  'e',
  // scoring an item's utterance on the judge's dimensions (the trace view's scores)
  's',
  // the keys and label guides sheet of both views (webview/shared/cheatSheet.ts)
  '?',
  // the item views' walks: next and previous item, next and previous user or persona
  ']',
  '[',
  '}',
  '{',
];
