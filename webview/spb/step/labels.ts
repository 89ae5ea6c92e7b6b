// Labelling in the step view: the labels bar in the sticky header, its keys, and the label targets (a pool tag
// chip, a selected span of the written persona, else the whole step). Every action goes to the extension, which
// stores it and sends the new state back; nothing is stored here.
import { listenAdjudicationKeys } from '../../shared/adjudication';
import { mountBar } from '../../shared/labelBar';
import type { LabelTarget } from '../../../src/core/labels/model';
import {
  PERSONA_FIELD,
  codePointOffset,
  describeTarget,
  effectiveTarget,
  noteTarget,
  sameTarget,
  spanText,
  type LabelViewState,
  type NoteChoice,
} from '../../../src/core/labels/view';
import type { StepLocation } from '../../../src/core/spb/view/stepModel';
import { LABEL_KEYS, type LabelUiAction } from '../../../src/shared/spb/stepViewProtocol';
import { CheatSheet } from '../../shared/cheatSheet';
import chipsCss from '../../shared/labelChips.css';
import { ChipOverflow } from '../../shared/labelChips';
import { isPageKey, isUndoChord } from '../../shared/keys';
import { NOTE_NEEDS_LABEL, NoteField } from '../../shared/labelNote';
import { injectStyle } from '../../shared/page';
import css from './labels.css';
import type { PiMark } from '../../../src/core/pi/spans';
import { decoratePersona, decorateTags, personaElement, renderBar, stepKeys } from './labelsView';
import { piNodes } from '../../shared/piText';

const stepKey = (r: StepLocation) => `${r.platform}/${r.userId}/${r.stepId}`;
const NEXT: readonly string[] = LABEL_KEYS.next;
const PREVIOUS: readonly string[] = LABEL_KEYS.previous;

export class LabelsUi {
  private state: LabelViewState<StepLocation> | undefined;
  private selectedTag: string | null = null;
  private personaText = '';
  /** PI marks of the written persona, kept when label spans re-cut its text */
  private personaPi: readonly PiMark[] = [];
  private readonly note: NoteField;
  private readonly overflow = new ChipOverflow();
  private readonly sheet: CheatSheet;
  /** The label last added from this view: `n` writes its note. */
  private lastAdded: NoteChoice | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: (action: LabelUiAction) => void,
  ) {
    injectStyle(`${chipsCss}\n${css}`);
    // Focusable, so the keyboard stays in the webview when the note field closes.
    root.tabIndex = -1;
    this.note = new NoteField(root, () => this.renderBar());
    // Before this view's own key listener: while the sheet is open it keeps every key.
    this.sheet = new CheatSheet(() => this.sheetContent(), root);
    window.addEventListener('keydown', (e) => this.onKeydown(e));
    listenAdjudicationKeys(
      () => (this.shownRef ? this.state?.adjudication : null),
      (a) => this.post(a),
    );
    root.addEventListener('pointerdown', (e) => {
      const li = this.chipOf(e.target);
      this.wasSelected = !!li && this.tagOf(li) === this.selectedTag;
    });
    root.addEventListener('click', (e) => this.onClick(e));
    root.addEventListener('focusin', (e) => this.onFocus(e));
    document.addEventListener('selectionchange', () => {
      if (this.note.hasFocus) return;
      this.renderBar();
    });
  }

  private wasSelected = false;

  private chipOf(target: EventTarget | null): HTMLElement | null {
    return target instanceof Element ? target.closest<HTMLElement>('li.tag[data-label-target]') : null;
  }

  private tagOf(li: HTMLElement): string | null {
    return li.querySelector('.tag-text')?.textContent ?? null;
  }

  /** The step the view shows now (main.ts sets root.dataset.step on each `show`). */
  private get shownRef(): StepLocation | undefined {
    const s = this.state;
    return s && this.root.dataset.step === stepKey(s.ref) ? s.ref : undefined;
  }

  /** Called after each `show` rendered a step: the old bar and decorations went with the old DOM. */
  attach(personaPi: readonly PiMark[] = []): void {
    this.selectedTag = null;
    this.note.close();
    this.personaText = personaElement(this.root)?.textContent ?? '';
    this.personaPi = personaPi;
    this.render();
  }

  update(state: LabelViewState<StepLocation>): void {
    if (this.state && stepKey(this.state.ref) !== stepKey(state.ref)) this.lastAdded = undefined;
    this.state = state;
    this.render();
  }

  private render(): void {
    const current = this.shownRef ? this.state : undefined;
    decorateTags(this.root, current, this.selectedTag);
    decoratePersona(this.root, current, this.personaText, (from, to) =>
      piNodes(this.personaText, this.personaPi, from, to),
    );
    this.renderBar();
  }

  private renderBar(): void {
    const header = this.root.querySelector('.step-header');
    if (!header) return;
    const old = header.querySelector('.labels-bar');
    const state = this.shownRef ? this.state : undefined;
    if (!state) {
      old?.remove();
      return;
    }
    const selected = this.selection();
    const bar = renderBar(
      {
        state,
        selected: selected?.target ?? null,
        selectedExcerpt: selected?.excerpt ?? '',
        editPrompt: this.editPrompt,
        sheetButton: this.sheet.button(),
      },
      {
        toggle: (id) => this.toggle(id),
        accept: () => this.act('acceptSuggestions'),
        undo: () => this.post({ kind: 'undo' }),
        clearSelection: () => this.clearSelection(),
      },
    );
    mountBar(header, bar, this.note, this.overflow, state.adjudication);
  }

  /** `e` opens Edit Prompt in a view that follows the selected run (main.ts sets data-pinned on a pinned one). */
  private get editPrompt(): boolean {
    return this.root.dataset.pinned === undefined;
  }

  private sheetContent() {
    const state = this.shownRef ? this.state : undefined;
    if (!state) return undefined;
    const selected = this.selection();
    return {
      labels: state.labels,
      target: describeTarget(selected?.target ?? { kind: 'step' }, selected?.excerpt ?? ''),
      keys: stepKeys(this.editPrompt),
      adjudication: state.adjudication,
    };
  }

  /** The span of the written persona the user selected, else the selected tag chip, else none (the step). */
  private selection(): { target: LabelTarget; excerpt: string } | undefined {
    const box = personaElement(this.root);
    const sel = document.getSelection();
    if (box && sel && sel.rangeCount > 0 && !sel.isCollapsed) {
      const range = sel.getRangeAt(0);
      if (box.contains(range.startContainer) && box.contains(range.endContainer)) {
        const before = document.createRange();
        before.selectNodeContents(box);
        before.setEnd(range.startContainer, range.startOffset);
        const from = before.toString().length;
        const to = from + range.toString().length;
        const start = codePointOffset(this.personaText, from);
        const end = codePointOffset(this.personaText, to);
        if (end > start)
          return {
            target: { kind: 'span', field: PERSONA_FIELD, start, end },
            excerpt: spanText(this.personaText, start, end),
          };
      }
    }
    return this.selectedTag !== null ? { target: { kind: 'tag', tag: this.selectedTag }, excerpt: '' } : undefined;
  }

  private clearSelection(): void {
    this.selectedTag = null;
    document.getSelection()?.removeAllRanges();
    if (document.activeElement instanceof HTMLElement && document.activeElement.closest('li.tag'))
      document.activeElement.blur();
    this.render();
  }

  private act(kind: 'acceptSuggestions' | 'nextUnlabelled'): void {
    const ref = this.shownRef;
    if (ref) this.post({ kind, ref });
  }

  private toggle(labelId: string): void {
    const ref = this.shownRef;
    const def = this.state?.labels.find((l) => l.id === labelId);
    if (!ref || !def || this.state?.error) return;
    const target = effectiveTarget(def.scope, this.selection()?.target ?? null);
    const on = this.state?.applied.some((a) => a.labelId === labelId && sameTarget(a.target, target));
    if (!on) this.lastAdded = { labelId, target };
    this.post({ kind: 'toggle', ref, labelId, target });
  }

  private openNote(): void {
    const ref = this.shownRef;
    const state = this.state;
    if (!ref || !state) return;
    const on = noteTarget(state.applied, this.lastAdded, { kind: 'step' });
    if (!on) {
      state.flash = { kind: 'error', text: NOTE_NEEDS_LABEL };
      this.renderBar();
      return;
    }
    this.note.show(on, `Note on ${on.name}`, (note) =>
      this.post({ kind: 'setNote', ref, labelId: on.labelId, target: on.target, note }),
    );
  }

  private onKeydown(e: KeyboardEvent): void {
    if (!isPageKey(e)) return;
    if (isUndoChord(e)) {
      e.preventDefault();
      this.post({ kind: 'undo' });
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const ref = this.shownRef;
    const handled = (): void => e.preventDefault();
    if (NEXT.includes(e.key) || PREVIOUS.includes(e.key)) {
      if (!this.root.dataset.step) return;
      handled();
      if (ref) this.post({ kind: 'move', ref, delta: NEXT.includes(e.key) ? 1 : -1 });
      return;
    }
    switch (e.key) {
      case LABEL_KEYS.acceptSuggestions:
        handled();
        return this.act('acceptSuggestions');
      case LABEL_KEYS.note:
        handled();
        return this.openNote();
      case LABEL_KEYS.undo:
        handled();
        return this.post({ kind: 'undo' });
      case LABEL_KEYS.nextUnlabelled:
        handled();
        return this.act('nextUnlabelled');
      case LABEL_KEYS.clearSelection:
        if (this.selectedTag !== null || !document.getSelection()?.isCollapsed) {
          handled();
          this.clearSelection();
        }
        return;
    }
    const def = this.state?.labels.find((l) => l.key === e.key);
    if (def && ref) {
      handled();
      this.toggle(def.id);
    }
  }

  private onClick(e: MouseEvent): void {
    const li = this.chipOf(e.target);
    if (!li) return;
    // A click on the chip that was already selected deselects it; any other click (or focus) selects.
    if (this.wasSelected) {
      this.selectedTag = null;
      li.blur();
    } else {
      this.selectedTag = this.tagOf(li);
    }
    this.wasSelected = false;
    this.render();
  }

  private onFocus(e: FocusEvent): void {
    const li = this.chipOf(e.target);
    if (!li || this.tagOf(li) === this.selectedTag) return;
    this.selectedTag = this.tagOf(li);
    this.render();
  }
}
