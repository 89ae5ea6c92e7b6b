// What the labels bars of the item views (the trace view, a format's own item view) build and handle alike: the
// lines under the chips (the server, why labelling is unavailable, the label set's problem, the labels a chip cannot
// show, the last action's outcome), the start of the key help line, and the bar's keys.
import type { AppliedLabel, LabelChip, LabelFlash } from '../../src/core/labels/view';
import { LABEL_BAR_KEYS, type LabelBarState } from '../../src/shared/labelProtocol';
import type { AdjudicationSection } from '../../src/core/labels/adjudication';
import { renderAdjudication } from './adjudication';
import { el } from './dom';
import { isPageKey, isUndoChord } from './keys';
import { chipKeyText, keyHelp, keyRange, labelChip, type ChipOverflow } from './labelChips';
import type { NoteField } from './labelNote';
import { serverLine } from './labelServer';

type BarLines = Pick<LabelBarState<unknown>, 'server' | 'error' | 'labelSetNote'>;

/** The server line, then why labelling is unavailable and the label set's problem, when there are any. */
export function barStatus(state: BarLines): (HTMLElement | null)[] {
  return [
    serverLine(state.server),
    state.error ? el('p', { className: 'labels-error', text: `Labelling is unavailable: ${state.error}` }) : null,
    state.labelSetNote ? el('p', { className: 'labels-error', text: state.labelSetNote }) : null,
  ];
}

/** "Yours:" and the applied labels a chip cannot show (with a note, stale, unknown); null without any. */
export function appliedLine(items: HTMLElement[]): HTMLElement | null {
  return items.length
    ? el('div', { className: 'labels-line applied-list' }, [
        el('span', { className: 'line-title', text: 'Yours:' }),
        ...items,
      ])
    : null;
}

/** The outcome of the last action, once. */
export function barFlash(flash: LabelFlash | null): HTMLElement | null {
  return flash
    ? el('p', { className: `labels-flash ${flash.kind}`, text: flash.text, attrs: { role: 'status' } })
    : null;
}

/**
 * The key help line's first entries: the label keys, note, undo, and `.` (next assigned while a project is active).
 * While the adjudication pass shows, the digits, `u` and `.` are its own (its section says them): only `n` is left.
 */
export function barKeyHelp(
  state: Pick<LabelBarState<unknown>, 'labels' | 'project' | 'adjudication'>,
): (HTMLElement | null)[] {
  if (state.adjudication) return [keyHelp(LABEL_BAR_KEYS.note, 'note')];
  return [
    keyHelp(keyRange(state.labels), 'toggle'),
    keyHelp(LABEL_BAR_KEYS.note, 'note'),
    keyHelp(LABEL_BAR_KEYS.undo, 'undo'),
    keyHelp(LABEL_BAR_KEYS.nextUnlabelled, state.project ? `next assigned (${state.project})` : 'next unlabelled'),
  ];
}

export interface BarKeys {
  undo(): void;
  note(): void;
  next(): void;
  toggle(labelId: string): void;
  /** Esc, when the view uses it: true when it did something (the key is then taken). */
  escape?(): boolean;
}

/** Handles a page key for a labels bar listing `labels`: undo (u, Ctrl+Z), n, ., Esc, and the label set's keys. */
export function onBarKey(e: KeyboardEvent, labels: readonly LabelChip[], keys: BarKeys): void {
  if (!isPageKey(e)) return;
  if (isUndoChord(e)) {
    e.preventDefault();
    return keys.undo();
  }
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const act: Partial<Record<string, () => void>> = {
    [LABEL_BAR_KEYS.undo]: keys.undo,
    [LABEL_BAR_KEYS.note]: keys.note,
    [LABEL_BAR_KEYS.nextUnlabelled]: keys.next,
  };
  const run = act[e.key];
  if (run) {
    e.preventDefault();
    return run();
  }
  if (e.key === 'Escape') {
    if (keys.escape?.()) e.preventDefault();
    return;
  }
  const def = labels.find((l) => l.key === e.key);
  if (def) {
    e.preventDefault();
    keys.toggle(def.id);
  }
}

/**
 * A label's chip whose key toggles it on the view's target (`target`, in words), except a key the adjudication pass
 * takes while it shows (`adjudicating`); `on`: the label as applied there, if it is, whose staleness `staleHelp`
 * explains.
 */
export function toggleChip(
  c: LabelChip,
  on: AppliedLabel | undefined,
  how: { target: string; disabled: boolean; adjudicating: boolean; staleHelp: (a: AppliedLabel) => string },
  toggle: () => void,
): HTMLElement {
  const stale = on?.staleness === 'stale';
  const help = [chipKeyText(c.key, how.target, how.adjudicating), on && stale ? how.staleHelp(on) : '']
    .filter(Boolean)
    .join('\n');
  return labelChip(c, { applied: !!on, stale, suggested: false, disabled: how.disabled, help }, toggle);
}

/**
 * Puts `bar` in `header`, in place of the bar there (an open note field moves into it), and fits its chips; the
 * adjudication pass's section on the item goes at its end while a pass walks it.
 */
export function mountBar(
  header: Element,
  bar: HTMLElement,
  note: NoteField,
  overflow: ChipOverflow,
  adjudication: AdjudicationSection | null | undefined,
): void {
  if (adjudication) bar.appendChild(renderAdjudication(adjudication));
  const old = header.querySelector('.labels-bar');
  note.carry(bar, () => {
    if (old) old.replaceWith(bar);
    else header.appendChild(bar);
  });
  overflow.attach(bar);
}
