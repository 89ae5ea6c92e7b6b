// The pieces of a labels bar that the step view and the trace view share: a label's chip (its key, state and name),
// an applied label in the bar's lines, and the key help line. Label-set text goes in as text only.
import type { AppliedLabel, LabelChip } from '../../src/core/labels/view';
import { el, icon } from './dom';

export interface ChipState {
  applied: boolean;
  stale: boolean;
  suggested: boolean;
  disabled: boolean;
  /** the chip's tooltip */
  help: string;
  /** how many of this label the view's item carries (on it, its tags, spans or records); shown when above 0 */
  count?: number;
}

export function labelChip(c: LabelChip, s: ChipState, onClick: () => void): HTMLButtonElement {
  const stateText = s.applied ? 'on' : s.suggested ? 'suggested' : '';
  const b = el(
    'button',
    {
      className: `label-chip${s.applied ? ' applied' : ''}${s.suggested ? ' suggested' : ''}${s.stale ? ' stale' : ''}`,
      title: s.help,
      attrs: { type: 'button', 'data-label-id': c.id, 'aria-pressed': s.applied ? 'true' : 'false', tabindex: '-1' },
    },
    [
      c.key ? el('kbd', { text: c.key }) : null,
      s.applied ? icon(s.stale ? 'warning' : 'check') : s.suggested ? icon('lightbulb') : null,
      el('span', { className: 'name', text: c.name }),
      s.count
        ? el('span', { className: 'count', text: String(s.count), attrs: { 'data-count': String(s.count) } })
        : null,
      stateText || s.stale ? el('span', { className: 'state', text: stateText }) : null,
    ],
  );
  b.disabled = s.disabled;
  b.addEventListener('click', onClick);
  return b;
}

/** The label keys for the help line: "1–0" for the defaults, each key when there are few. */
export function keyRange(labels: readonly LabelChip[]): string {
  const keys = labels.flatMap((l) => (l.key ? [l.key] : []));
  return keys.length > 3 ? `${keys[0]}–${keys[keys.length - 1]}` : keys.join(' ');
}

/** The keys as one line of text, for a help icon's tooltip. */
export function keysText(items: readonly [string, string][]): string {
  return items
    .filter(([k]) => k)
    .map(([k, what]) => `${k}: ${what}`)
    .join('\n');
}

/** "<kbd>u</kbd> undo" for the help line; null when there are no keys. */
export function keyHelp(keys: string, what: string): HTMLElement | null {
  if (!keys) return null;
  return el('span', {}, [...keys.split(' ').flatMap((k) => [el('kbd', { text: k }), ' ']), what]);
}

/**
 * An applied label in the bar: its name, what it is on (`on`, described by the view), its note and a stale mark that
 * says what changed when that is known ("⚠ pool and split changed"), with `staleHelp` as its tooltip; `dataTarget`
 * goes in data-target for the tests.
 */
export function appliedItem(a: AppliedLabel, on: string, dataTarget: string, staleHelp: string): HTMLElement {
  return el('span', { className: 'applied-item', attrs: { 'data-applied': a.labelId, 'data-target': dataTarget } }, [
    el('span', { text: `${a.name}${a.known ? '' : ' (not in the label set)'} on ${on}` }),
    a.note ? el('span', { className: 'note', text: ` — ${a.note}` }) : null,
    a.staleness === 'stale'
      ? el(
          'span',
          {
            className: 'stale-mark',
            title: staleHelp,
            attrs: { 'data-stale': 'true', 'data-changed': (a.changed ?? []).join(' ') },
          },
          [' ', icon('warning'), a.changed?.length ? ` stale: ${a.changed.join(' and ')} changed` : ' stale'],
        )
      : null,
  ]);
}

/**
 * Keeps a labels bar's chips on one line in both views: the chips that do not fit hide behind a "+N" chip (its
 * tooltip names them with their keys, which keep working), and a click on it shows every chip, wrapped, until "less".
 * One per view; `attach` after each render of the bar. The choice to show all stays across renders.
 */
export class ChipOverflow {
  private expanded = false;
  private row: HTMLElement | undefined;
  private readonly observer = new ResizeObserver(() => this.fit());

  attach(bar: HTMLElement): void {
    const row = bar.querySelector<HTMLElement>('.labels-row');
    if (!row) return;
    this.observer.disconnect();
    this.row = row;
    row.classList.add('fit');
    const chips = row.querySelectorAll<HTMLElement>('.label-chip');
    const last = chips[chips.length - 1];
    if (!last) return;
    const more = el('button', { className: 'label-more', attrs: { type: 'button', tabindex: '-1' } });
    more.addEventListener('click', () => {
      this.expanded = !this.expanded;
      this.fit();
    });
    last.after(more);
    // Fires once the row is laid out, and again whenever its width changes (a resized panel or a split).
    this.observer.observe(row);
  }

  private fit(): void {
    const row = this.row;
    const more = row?.querySelector<HTMLElement>('.label-more');
    if (!row || !more || !row.isConnected) return;
    const chips = [...row.querySelectorAll<HTMLElement>('.label-chip')];
    for (const c of chips) c.classList.remove('overflowed');
    row.classList.toggle('expanded', this.expanded);
    more.hidden = false;
    more.textContent = this.expanded ? 'less' : `+${chips.length}`;
    more.title = this.expanded ? 'Show the labels on one line' : '';
    if (this.expanded) return;
    more.hidden = true;
    if (row.scrollWidth <= row.clientWidth) return;
    more.hidden = false;
    const hidden: HTMLElement[] = [];
    for (let i = chips.length - 1; i > 0 && row.scrollWidth > row.clientWidth; i--) {
      chips[i].classList.add('overflowed');
      hidden.unshift(chips[i]);
    }
    more.textContent = `+${hidden.length}`;
    more.title = `${hidden.map((c) => c.textContent ?? '').join('\n')}\n(click to show every label)`;
    row.dataset.hiddenChips = String(hidden.length);
  }
}
