// Labelling in the trace view: a labels bar in the sticky header whose number keys toggle a label on the target: the
// whole test action, or the history record last opened (a click on its timeline row, or a PI finding's record). The
// bar says in words what the keys label now; a move to another test action gives the target back to it, and so does
// Esc. n writes a note on the label last added, . goes to the next test action without a label, u (or Ctrl+Z)
// undoes. The extension stores each action and sends the new state.
import { listenAdjudicationKeys } from '../../shared/adjudication';
import type { LabelTarget } from '../../../src/core/labels/model';
import {
  describeTarget,
  noteTarget,
  sameTarget,
  staleText,
  traceTargetText,
  type AppliedLabel,
  type LabelChip,
  type NoteChoice,
} from '../../../src/core/labels/view';
import { LABEL_BAR_KEYS } from '../../../src/shared/labelProtocol';
import type {
  TraceLabelAction,
  TraceLabelState,
  TraceLabelTarget,
  TraceRef,
} from '../../../src/shared/omni/traceProtocol';
import { CheatSheet, CHEAT_SHEET_KEY, type KeyRow } from '../../shared/cheatSheet';
import { el } from '../../shared/dom';
import { appliedItem, ChipOverflow, keyHelp } from '../../shared/labelChips';
import { appliedLine, barFlash, barKeyHelp, barStatus, mountBar, onBarKey, toggleChip } from '../../shared/labelBar';
import { serverIcon } from '../../shared/labelServer';
import { NOTE_NEEDS_LABEL, NoteField } from '../../shared/labelNote';

/** A trace label's tooltip when stale: its record, or its test action (its profile or fields), changed. */
const staleHelp = (a: AppliedLabel) => staleText(a.changed, 'the record (or the test action, its profile or fields)');
const refKey = (r: TraceRef) => `${r.userId}#${r.index}`;

/**
 * The trace view's keys besides the label keys, for the ? sheet: this bar's, main.ts's ([ ] r e), the scores' (s,
 * while the run predicted an utterance) and the history timeline's (VirtualList).
 */
function traceKeys(canScore: boolean): KeyRow[] {
  return [
    [LABEL_BAR_KEYS.note, 'note on the label added last'],
    [`${LABEL_BAR_KEYS.undo} Ctrl+Z`, 'undo'],
    [
      LABEL_BAR_KEYS.nextUnlabelled,
      'next test action without a label of yours (tree order, across users); your next assigned one while a labelling project of OmniBehavior is active',
    ],
    ['Esc', 'back to labelling the test action'],
    ['[ ]', 'previous / next test action of this user'],
    ['r', 'Re-run Test Action'],
    ['e', 'Edit Prompt of this test action'],
    ...(canScore
      ? ([['s', 'score the predicted utterance: then 1–9, 0 (= 10) per dimension, ← → move, Esc stops']] as const)
      : []),
    ['↑ ↓ Home End', 'in the history timeline: move between records'],
    ['Enter', 'in the history timeline: open the record (its keys then label it)'],
    [CHEAT_SHEET_KEY, 'this sheet of keys and label guides'],
  ];
}

export class TraceLabelsUi {
  private state: TraceLabelState | undefined;
  /** The history record the keys label, with its behaviours when known; null: the test action. */
  private selected: { index: number; behaviours: readonly string[] } | null = null;
  private shown: TraceRef | undefined;
  private readonly note: NoteField;
  private readonly overflow = new ChipOverflow();
  private readonly sheet: CheatSheet;
  /** The label last added from this view on the test action shown: `n` writes its note. */
  private lastAdded: NoteChoice | undefined;
  /** Called with the labelled history records after each state (the timeline marks their rows). */
  onHistory: (state: TraceLabelState) => void = () => undefined;
  /** Called when the target changes: the history record the keys label now, or null for the test action. */
  onTarget: (record: number | null) => void = () => undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: (action: TraceLabelAction) => void,
  ) {
    // Focusable, so the keyboard stays in the webview when the note field closes.
    root.tabIndex = -1;
    this.note = new NoteField(root, () => this.render());
    // Before the view's other key listeners (this bar's, main.ts's, the scores' capture one): an open sheet keeps
    // every key.
    this.sheet = new CheatSheet(() => {
      const state = this.current;
      return (
        state && {
          labels: state.labels,
          target: this.targetText,
          keys: traceKeys(state.scores !== null),
          adjudication: state.adjudication,
        }
      );
    }, root);
    window.addEventListener('keydown', (e) => this.onKeydown(e));
    listenAdjudicationKeys(
      () => this.current?.adjudication,
      (a) => this.post(a),
    );
  }

  /** After each `show`: a new header, and on another test action the target goes back to the test action. */
  attach(ref: TraceRef): void {
    this.note.close();
    if (!this.shown || refKey(this.shown) !== refKey(ref)) {
      this.lastAdded = undefined;
      this.setTarget(null);
    }
    this.shown = ref;
    this.render();
    if (this.current) this.onHistory(this.current);
  }

  update(state: TraceLabelState): void {
    this.state = state;
    this.render();
    if (this.current) this.onHistory(this.current);
  }

  /** A history record was opened: the keys now label it. `behaviours`: its action types, once its text came. */
  select(index: number, behaviours: readonly string[] = []): void {
    if (!this.shown || index >= this.shown.index) return;
    this.setTarget({ index, behaviours });
    this.render();
  }

  /** The history record the keys label, or null for the test action. */
  get targetRecord(): number | null {
    return this.selected?.index ?? null;
  }

  private setTarget(selected: { index: number; behaviours: readonly string[] } | null): void {
    const changed = this.targetRecord !== (selected?.index ?? null);
    this.selected = selected;
    if (changed) this.onTarget(this.targetRecord);
  }

  private get current(): TraceLabelState | undefined {
    const s = this.state;
    return s && this.shown && refKey(s.ref) === refKey(this.shown) ? s : undefined;
  }

  private get target(): TraceLabelTarget {
    return this.selected === null ? { kind: 'action' } : { kind: 'history', historyIndex: this.selected.index };
  }

  /** The target in words: "test action #1149", "history record #3 (search, click)". */
  private get targetText(): string {
    return traceTargetText(this.shown?.index ?? 0, this.target, this.selected?.behaviours);
  }

  private applied(target: LabelTarget): AppliedLabel[] {
    return this.current?.applied.filter((a) => sameTarget(a.target, target)) ?? [];
  }

  private toggle(labelId: string): void {
    const state = this.current;
    if (!state || state.error) return;
    const target = this.target;
    if (!this.applied(target).some((a) => a.labelId === labelId)) this.lastAdded = { labelId, target };
    this.post({ kind: 'toggle', ref: state.ref, labelId, target });
  }

  private openNote(): void {
    const state = this.current;
    if (!state) return;
    const on = noteTarget(state.applied, this.lastAdded, this.target);
    const target = on && traceTarget(on.target);
    if (!on || !target) {
      state.flash = { kind: 'error', text: NOTE_NEEDS_LABEL };
      this.render();
      return;
    }
    this.note.show(on, `Note on ${on.name} (${describeTarget(target)})`, (note) =>
      this.post({ kind: 'setNote', ref: state.ref, labelId: on.labelId, target, note }),
    );
  }

  private backToAction(): void {
    this.setTarget(null);
    this.render();
  }

  private chip(c: LabelChip, state: TraceLabelState): HTMLElement {
    const on = this.applied(this.target).find((a) => a.labelId === c.id);
    const how = {
      target: this.targetText,
      disabled: state.error !== null,
      adjudicating: !!state.adjudication,
      staleHelp,
    };
    return toggleChip(c, on, how, () => this.toggle(c.id));
  }

  private render(): void {
    const header = this.root.querySelector('.trace-header');
    if (!header) return;
    const state = this.current;
    if (!state) {
      header.querySelector('.labels-bar')?.remove();
      return;
    }
    const back = el('button', {
      className: 'link-button',
      text: 'test action (Esc)',
      attrs: { type: 'button', tabindex: '-1' },
    });
    back.addEventListener('click', () => this.backToAction());
    const listed = state.applied.filter(
      (a) => a.target.kind === 'history' || a.staleness === 'stale' || a.note || !a.known,
    );
    const bar = el(
      'section',
      {
        className: 'labels-bar',
        attrs: {
          'aria-label': 'Labels',
          'data-run': state.run,
          'data-target': this.selected === null ? 'action' : String(this.selected.index),
        },
      },
      [
        el('div', { className: 'labels-row' }, [
          el('span', { className: 'labels-title', text: 'Labels' }),
          el('span', { className: 'labels-target', attrs: { role: 'status' } }, [
            'Labelling: ',
            el('b', { text: this.targetText }),
            this.selected !== null ? ' · ' : null,
            this.selected !== null ? back : null,
          ]),
          ...state.labels.map((c) => this.chip(c, state)),
          serverIcon(state.server),
          this.sheet.button(),
        ]),
        ...barStatus(state),
        appliedLine(listed.map(appliedEntry)),
        barFlash(state.flash),
        el('div', { className: 'labels-help' }, [
          ...barKeyHelp(state),
          keyHelp('Esc', 'test action'),
          keyHelp('[ ]', 'previous / next'),
          keyHelp(CHEAT_SHEET_KEY, 'keys and guides'),
          el('span', { text: 'open a history row first to label that record' }),
        ]),
      ],
    );
    mountBar(header, bar, this.note, this.overflow, state.adjudication);
  }

  private onKeydown(e: KeyboardEvent): void {
    const state = this.current;
    if (!state) return;
    onBarKey(e, state.labels, {
      undo: () => this.post({ kind: 'undo' }),
      note: () => this.openNote(),
      next: () => this.post({ kind: 'nextUnlabelled', ref: state.ref }),
      toggle: (id) => this.toggle(id),
      escape: () => {
        if (this.selected === null) return false;
        this.backToAction();
        return true;
      },
    });
  }
}

/** A trace label's target (the state only holds these; anything else is no target of this view). */
function traceTarget(t: LabelTarget): TraceLabelTarget | undefined {
  return t.kind === 'action' || t.kind === 'history' ? t : undefined;
}

function appliedEntry(a: AppliedLabel): HTMLElement {
  const dataTarget = a.target.kind === 'history' ? String(a.target.historyIndex) : 'action';
  return appliedItem(a, describeTarget(a.target), dataTarget, staleHelp(a));
}
