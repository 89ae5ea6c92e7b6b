// The pieces of a labels bar that the step view and the trace view share: a label's chip (its key, state and name)
// with its hover card (name, key, description, guide), an applied label in the bar's lines, and the key help line.
// Label-set text goes in as text only.
import type { AppliedLabel, LabelChip } from '../../src/core/labels/view';
import { adjudicationTakes } from '../../src/shared/labelProtocol';
import { append, el, icon } from './dom';

export interface ChipState {
  applied: boolean;
  stale: boolean;
  suggested: boolean;
  disabled: boolean;
  /** what the chip's hover card says under the label's name, description and guide: what its key does now, … */
  help: string;
  /** how many of this label the view's item carries (on it, its tags, spans or records); shown when above 0 */
  count?: number;
}

/**
 * What a chip's hover card says its key does on `target`: while the adjudication pass shows, a key the pass takes
 * (every digit, g, u, .) decides for the pass and toggles nothing, so only a click toggles the label then.
 */
export function chipKeyText(key: string | null, target: string, adjudicating: boolean): string {
  if (!key) return 'No key: click to toggle.';
  if (adjudicating && adjudicationTakes(key))
    return `Click toggles it on ${target}. Key ${key} is the adjudication pass's while it shows.`;
  return `Key ${key} toggles it on ${target}.`;
}

export function labelChip(c: LabelChip, s: ChipState, onClick: () => void): HTMLButtonElement {
  const stateText = s.applied ? 'on' : s.suggested ? 'suggested' : '';
  const b = el(
    'button',
    {
      className: `label-chip${s.applied ? ' applied' : ''}${s.suggested ? ' suggested' : ''}${s.stale ? ' stale' : ''}`,
      attrs: {
        type: 'button',
        'data-label-id': c.id,
        'aria-pressed': s.applied ? 'true' : 'false',
        'aria-description': hoverText(c, s.help),
        tabindex: '-1',
      },
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
  hovers.set(b, { chip: c, help: s.help });
  installHover();
  return b;
}

/** A chip's hover card as one text: name and key, description, guide, then the view's lines. */
export function hoverText(c: LabelChip, help: string): string {
  return [
    `${c.name}${c.key ? ` (key ${c.key})` : ''}${c.description ? `: ${c.description}` : ''}`,
    c.guide ? `Guide: ${c.guide}` : '',
    help,
  ]
    .filter(Boolean)
    .join('\n');
}

const hovers = new WeakMap<Element, { chip: LabelChip; help: string }>();
let card: HTMLElement | undefined;
let hovered: Element | undefined;

function showHover(chip: Element): void {
  const h = hovers.get(chip);
  if (!card || !h || !chip.isConnected) return;
  hovered = chip;
  const { chip: c, help } = h;
  card.replaceChildren();
  append(card, [
    el('div', { className: 'hover-title' }, [c.key ? el('kbd', { text: c.key }) : null, el('b', { text: c.name })]),
    c.description ? el('p', { text: c.description }) : null,
    c.guide
      ? el('div', { className: 'hover-guide' }, [
          el('span', { className: 'line-title', text: 'Guide' }),
          el('p', { text: c.guide }),
        ])
      : null,
    ...help.split('\n').map((line) => el('p', { className: 'hover-help', text: line })),
  ]);
  card.hidden = false;
  const r = chip.getBoundingClientRect();
  const left = Math.max(4, Math.min(r.left, window.innerWidth - card.offsetWidth - 4));
  const below = r.bottom + 4 + card.offsetHeight <= window.innerHeight;
  card.style.left = `${left}px`;
  card.style.top = `${below ? r.bottom + 4 : Math.max(4, r.top - 4 - card.offsetHeight)}px`;
}

function hideHover(): void {
  hovered = undefined;
  if (card) card.hidden = true;
}

/** One hover card per page, for every label chip: on the pointer, or on a chip focused from the keyboard. */
function installHover(): void {
  if (card) return;
  card = el('div', { className: 'label-hover', attrs: { role: 'tooltip' } });
  card.hidden = true;
  document.body.appendChild(card);
  const chipOf = (t: EventTarget | null) => (t instanceof Element ? t.closest('.label-chip') : null);
  document.addEventListener('pointerover', (e) => {
    const chip = chipOf(e.target);
    if (chip && chip !== hovered) showHover(chip);
  });
  document.addEventListener('pointerout', (e) => {
    if (hovered && !hovered.contains(e.relatedTarget as Node | null)) hideHover();
  });
  document.addEventListener('focusin', (e) => {
    const chip = chipOf(e.target);
    if (chip?.matches(':focus-visible')) showHover(chip);
  });
  document.addEventListener('focusout', hideHover);
  for (const type of ['pointerdown', 'keydown', 'scroll'])
    document.addEventListener(type, hideHover, { capture: true, passive: true });
}

/** The label keys for the help line: "1–0" for the defaults, each key when there are few. */
export function keyRange(labels: readonly LabelChip[]): string {
  const keys = labels.flatMap((l) => (l.key ? [l.key] : []));
  return keys.length > 3 ? `${keys[0]}–${keys[keys.length - 1]}` : keys.join(' ');
}

/** The keys as one line of text, for a help icon's tooltip. */
export function keysText(items: readonly (readonly [string, string])[]): string {
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
