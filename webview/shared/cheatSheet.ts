// The `?` sheet of a labelling view (the step view, the trace view): an overlay listing each label's key, name and
// guide, then the view's other keys. `?` or the labels bar's ? button opens it; Esc, `?` or its close button closes
// it and gives the focus back to where it was. Label-set text goes in as text only.
import type { AdjudicationSection } from '../../src/core/labels/adjudication';
import type { LabelChip } from '../../src/core/labels/view';
import { adjudicationKeyRows } from './adjudication';
import css from './cheatSheet.css';
import { el, icon } from './dom';
import { isPlainKey } from './keys';
import { injectStyle } from './page';

export const CHEAT_SHEET_KEY = '?';
const TITLE = 'Keys and label guides';

/** A row of the view's keys: the keys (space-separated, each shown as a key) and what they do. */
export type KeyRow = readonly [keys: string, what: string];

export interface CheatSheetContent {
  labels: readonly LabelChip[];
  /** What the label keys label now ("the whole step", "test action #12"). */
  target: string;
  keys: readonly KeyRow[];
  /** The adjudication pass's section on the unit shown: its keys come first, and take the digits. */
  adjudication?: AdjudicationSection | null;
}

function kbds(keys: string): (HTMLElement | string)[] {
  return keys.split(' ').flatMap((k, i) => [i ? ' ' : '', el('kbd', { text: k })]);
}

function labelRow(c: LabelChip): HTMLElement {
  return el('tr', { attrs: { 'data-label-id': c.id, 'data-key': c.key ?? '' } }, [
    el('td', { className: 'keys' }, c.key ? kbds(c.key) : [el('span', { className: 'none', text: 'no key' })]),
    el('td', { className: 'label' }, [
      el('span', { className: 'name', text: c.name }),
      c.description ? el('span', { className: 'description', text: c.description }) : null,
    ]),
    el('td', { className: `guide${c.guide ? '' : ' none'}`, text: c.guide ?? 'no guide' }),
  ]);
}

function keyRow([keys, what]: KeyRow): HTMLElement {
  return el('tr', { attrs: { 'data-keys': keys } }, [
    el('td', { className: 'keys' }, kbds(keys)),
    el('td', { className: 'what', text: what }),
  ]);
}

export class CheatSheet {
  private overlay: HTMLElement | undefined;
  private focusBefore: HTMLElement | null = null;

  /** `content`: what the sheet lists now, or undefined while the view shows nothing to label. */
  constructor(
    private readonly content: () => CheatSheetContent | undefined,
    private readonly home: HTMLElement,
  ) {
    injectStyle(css);
    // Capture, so that it runs before the page's own keys: while the sheet is open no key reaches them.
    window.addEventListener('keydown', (e) => this.onKeydown(e), { capture: true });
  }

  get isOpen(): boolean {
    return this.overlay !== undefined;
  }

  /** The small ? button at the end of a labels bar. */
  button(): HTMLElement {
    const b = el(
      'button',
      {
        className: 'labels-cheatsheet',
        title: `${TITLE} (?)`,
        attrs: { type: 'button', 'aria-label': `${TITLE} (?)`, 'aria-haspopup': 'dialog' },
      },
      [icon('question')],
    );
    b.addEventListener('click', () => this.open());
    return b;
  }

  open(): void {
    const c = this.content();
    if (!c || this.overlay) return;
    const active = document.activeElement;
    this.focusBefore = active instanceof HTMLElement && active !== document.body ? active : null;
    const close = el('button', {
      className: 'cheatsheet-close',
      title: 'Close (Esc)',
      attrs: { type: 'button', 'aria-label': 'Close (Esc)' },
    });
    close.append(icon('close'));
    close.addEventListener('click', () => this.close());
    const dialog = el(
      'div',
      {
        className: 'cheatsheet',
        attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'cheatsheet-title', tabindex: '-1' },
      },
      [
        el('div', { className: 'cheatsheet-head' }, [
          el('h2', { text: TITLE, attrs: { id: 'cheatsheet-title' } }),
          close,
        ]),
        el('div', { className: 'cheatsheet-body', attrs: { tabindex: '0' } }, [
          ...(c.adjudication
            ? [
                el('h3', { text: `Adjudicating ${c.adjudication.scope}: these keys come first` }),
                el('table', { className: 'cheatsheet-keys cheatsheet-adjudication' }, [
                  el('tbody', {}, adjudicationKeyRows(c.adjudication).map(keyRow)),
                ]),
              ]
            : []),
          el('h3', {
            text: c.adjudication
              ? 'Labels (the pass takes the digit keys: click a chip to label this unit as an annotator)'
              : `Labels (their keys label ${c.target})`,
          }),
          el('table', { className: 'cheatsheet-labels' }, [
            el('thead', {}, [
              el('tr', {}, [el('th', { text: 'Key' }), el('th', { text: 'Label' }), el('th', { text: 'Guide' })]),
            ]),
            el('tbody', {}, c.labels.map(labelRow)),
          ]),
          el('h3', { text: 'Other keys' }),
          el('table', { className: 'cheatsheet-keys' }, [el('tbody', {}, c.keys.map(keyRow))]),
        ]),
        el('p', { className: 'cheatsheet-foot' }, [...kbds('Esc'), ' or ', ...kbds('?'), ' closes this sheet']),
      ],
    );
    const overlay = el('div', { className: 'cheatsheet-backdrop' }, [dialog]);
    overlay.addEventListener('mousedown', (e) => {
      if (e.target === overlay) this.close();
    });
    document.body.appendChild(overlay);
    this.overlay = overlay;
    dialog.focus();
  }

  close(): void {
    if (!this.overlay) return;
    this.overlay.remove();
    this.overlay = undefined;
    // The element that had the focus may have been re-rendered away meanwhile: the page root takes it then.
    const back = this.focusBefore?.isConnected ? this.focusBefore : this.home;
    this.focusBefore = null;
    back.focus();
  }

  private onKeydown(e: KeyboardEvent): void {
    if (!this.overlay) {
      if (e.key !== CHEAT_SHEET_KEY || !isPlainKey(e) || !this.content()) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      this.open();
      return;
    }
    // Open: the sheet has the keyboard. Esc or ? close it, Tab stays inside it; no other key reaches the page.
    e.stopImmediatePropagation();
    if (e.key === 'Escape' || e.key === CHEAT_SHEET_KEY) {
      e.preventDefault();
      this.close();
    } else if (e.key === 'Tab') {
      const stops = [...this.overlay.querySelectorAll<HTMLElement>('button, [tabindex="0"]')];
      const at = stops.indexOf(document.activeElement as HTMLElement);
      e.preventDefault();
      stops[(at + (e.shiftKey ? stops.length - 1 : 1) + (at < 0 && e.shiftKey ? 1 : 0)) % stops.length]?.focus();
    }
  }
}
