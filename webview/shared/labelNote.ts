// The note field of a labels bar, the same in the step view and the trace view: the `n` key opens it on one applied
// label (core/labels/view.ts noteTarget chooses which), Enter saves the note through the view's `save`, Esc cancels.
// The bar is rebuilt on every state; the open field moves into each new bar and keeps its focus and caret.
import type { AppliedLabel } from '../../src/core/labels/view';
import { el } from './dom';

/** What the bar says when `n` finds no label on the item. */
export const NOTE_NEEDS_LABEL = 'Add a label first (its key), then n writes its note';

export class NoteField {
  private open: { row: HTMLElement; input: HTMLInputElement } | undefined;

  /**
   * `focusHome`: the focusable element that takes the keyboard back when the field closes (so the page's keys keep
   * working); `rerender`: rebuilds the view's bar (which then calls `carry`).
   */
  constructor(
    private readonly focusHome: HTMLElement,
    private readonly rerender: () => void,
  ) {}

  /** The field has the keyboard (selection changes inside it are the user typing, not choosing a target). */
  get hasFocus(): boolean {
    return !!this.open && document.activeElement === this.open.input;
  }

  /** Opens the field on `on` with its current note; `label` names it ("Note on D_decay pick"). */
  show(on: AppliedLabel, label: string, save: (note: string) => void): void {
    this.close();
    const input = el('input', {
      attrs: { type: 'text', 'aria-label': label, 'data-note-for': on.labelId, maxlength: '2000' },
    });
    input.value = on.note;
    const row = el('div', { className: 'note-row' }, [
      el('label', { text: `${label}:` }),
      input,
      el('span', { className: 'hint' }, [
        el('kbd', { text: 'Enter' }),
        ' saves · ',
        el('kbd', { text: 'Esc' }),
        ' cancels',
      ]),
    ]);
    input.addEventListener('keydown', (e) => {
      e.stopPropagation();
      if (e.key === 'Enter' && !e.isComposing) {
        e.preventDefault();
        save(input.value);
        this.close();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        this.close();
      }
    });
    this.open = { row, input };
    this.rerender();
    input.focus();
  }

  close(): void {
    if (!this.open) return;
    const { row } = this.open;
    this.open = undefined;
    row.remove();
    // Keep the keyboard in the webview: the note field had the focus.
    this.focusHome.focus({ preventScroll: true });
  }

  /**
   * Puts the open field (if any) into the new `bar` while `put` replaces the old bar with it. Moving the field blurs
   * it: the focus and the caret are given back.
   */
  carry(bar: HTMLElement, put: () => void): void {
    const open = this.open;
    const caret = open && this.hasFocus ? [open.input.selectionStart, open.input.selectionEnd] : undefined;
    if (open) bar.appendChild(open.row);
    put();
    if (open && caret) {
      open.input.focus({ preventScroll: true });
      open.input.setSelectionRange(caret[0], caret[1]);
    }
  }
}
