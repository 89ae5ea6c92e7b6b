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
