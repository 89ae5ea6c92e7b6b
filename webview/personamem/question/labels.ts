// Labelling in the PersonaMem question view: a labels bar in the page's header whose keys toggle a label on the
// question shown, in the run it shows. n writes a note on the label last added, . goes to the next question without
// a label, u (or Ctrl+Z) undoes, ? lists the keys and the label guides. The extension stores each action and sends
// the new state.
import { listenAdjudicationKeys } from '../../shared/adjudication';
import {
  noteTarget,
  staleText,
  type AppliedLabel,
  type LabelChip,
  type NoteChoice,
} from '../../../src/core/labels/view';
import { LABEL_BAR_KEYS } from '../../../src/shared/labelProtocol';
import type { QuestionLabelAction, QuestionLabelState } from '../../../src/shared/personamem/labelProtocol';
import type { QuestionRef } from '../../../src/shared/personamem/questionProtocol';
import { CheatSheet, CHEAT_SHEET_KEY, type KeyRow } from '../../shared/cheatSheet';
import { el } from '../../shared/dom';
import { appliedItem, ChipOverflow, keyHelp } from '../../shared/labelChips';
import { appliedLine, barFlash, barKeyHelp, barStatus, mountBar, onBarKey, toggleChip } from '../../shared/labelBar';
import { serverIcon } from '../../shared/labelServer';
import { NOTE_NEEDS_LABEL, NoteField } from '../../shared/labelNote';

const TARGET = { kind: 'step' } as const;
const staleHelp = (a: AppliedLabel) => staleText(a.changed, 'the question (its text, options or answer)');
const refKey = (r: QuestionRef) => `${r.split}\n${r.questionId}`;

const QUESTION_KEYS: readonly KeyRow[] = [
  [LABEL_BAR_KEYS.note, 'note on the label added last'],
  [`${LABEL_BAR_KEYS.undo} Ctrl+Z`, 'undo'],
  [
    LABEL_BAR_KEYS.nextUnlabelled,
    'next question without a label of yours (tree order, across personas); your next assigned one while a labelling project of this benchmark is active',
  ],
  ['[ ]', 'previous / next question of this persona'],
  [CHEAT_SHEET_KEY, 'this sheet of keys and label guides'],
];

export class QuestionLabelsUi {
  private state: QuestionLabelState | undefined;
  private shown: QuestionRef | undefined;
  private readonly note: NoteField;
  private readonly overflow = new ChipOverflow();
  private readonly sheet: CheatSheet;
  /** The label last added from this view on the question shown: `n` writes its note. */
  private lastAdded: NoteChoice | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: (action: QuestionLabelAction) => void,
  ) {
    // Focusable, so the keyboard stays in the webview when the note field closes.
    root.tabIndex = -1;
    this.note = new NoteField(root, () => this.render());
    this.sheet = new CheatSheet(() => {
      const state = this.current;
      return (
        state && {
          labels: state.labels,
          target: 'the question',
          keys: QUESTION_KEYS,
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

  /** After each `show` (the page's header is new): the bar goes back in it. */
  attach(ref: QuestionRef): void {
    this.note.close();
    if (!this.shown || refKey(this.shown) !== refKey(ref)) this.lastAdded = undefined;
    this.shown = ref;
    this.render();
  }

  update(state: QuestionLabelState): void {
    this.state = state;
    this.render();
  }

  private get current(): QuestionLabelState | undefined {
    const s = this.state;
    return s && this.shown && refKey(s.ref) === refKey(this.shown) ? s : undefined;
  }

  private toggle(labelId: string): void {
    const state = this.current;
    if (!state || state.error) return;
    if (!state.applied.some((a) => a.labelId === labelId)) this.lastAdded = { labelId, target: TARGET };
    this.post({ kind: 'toggle', ref: state.ref, labelId, target: TARGET });
  }

  private openNote(): void {
    const state = this.current;
    if (!state) return;
    const on = noteTarget(state.applied, this.lastAdded, TARGET);
    if (!on) {
      state.flash = { kind: 'error', text: NOTE_NEEDS_LABEL };
      this.render();
      return;
    }
    this.note.show(on, `Note on ${on.name}`, (note) =>
      this.post({ kind: 'setNote', ref: state.ref, labelId: on.labelId, target: TARGET, note }),
    );
  }

  private chip(c: LabelChip, state: QuestionLabelState): HTMLElement {
    const on = state.applied.find((a) => a.labelId === c.id);
    const how = {
      target: 'the question',
      disabled: state.error !== null,
      adjudicating: !!state.adjudication,
      staleHelp,
    };
    return toggleChip(c, on, how, () => this.toggle(c.id));
  }

  private render(): void {
    const header = this.root.querySelector('.page-header');
    if (!header) return;
    const state = this.current;
    if (!state) {
      header.querySelector('.labels-bar')?.remove();
      return;
    }
    // The chips say which labels are on; the line lists what a chip cannot show (a note, a stale or unknown label).
    const listed = state.applied.filter((a) => a.staleness === 'stale' || a.note || !a.known);
    const bar = el('section', { className: 'labels-bar', attrs: { 'aria-label': 'Labels', 'data-run': state.run } }, [
      el('div', { className: 'labels-row' }, [
        el('span', { className: 'labels-title', text: 'Labels' }),
        el('span', { className: 'labels-target', attrs: { role: 'status' } }, [
          'Labelling: ',
          el('b', { text: state.run ? `the question, run ${state.run}` : 'the question (no run: the data)' }),
        ]),
        ...state.labels.map((c) => this.chip(c, state)),
        serverIcon(state.server),
        this.sheet.button(),
      ]),
      ...barStatus(state),
      appliedLine(listed.map((a) => appliedItem(a, 'the question', 'step', staleHelp(a)))),
      barFlash(state.flash),
      el('div', { className: 'labels-help' }, [
        ...barKeyHelp(state),
        keyHelp('[ ]', 'previous / next'),
        keyHelp(CHEAT_SHEET_KEY, 'keys and guides'),
      ]),
    ]);
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
    });
  }
}
