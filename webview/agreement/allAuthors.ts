// The agreement page's part per benchmark among all authors: one row per label (Cohen's κ for two authors, Fleiss' κ
// for more, with n, raters, po, pe and the units that disagree on it), then the Disagreements list: one row per unit
// whose authors' labels differ, everyone's labels side by side (one column per author, the disputed ones marked). A
// row opens its unit (click, Enter or Space; the arrow keys walk the list). Dataset text is set as text only.
import {
  ALL_AUTHORS_HELP,
  type AllAuthorsTable,
  type LabelKappaRow,
  type UnitDisagreementRow,
} from '../../src/shared/agreementProtocol';
import { MISSING } from '../../src/core/glossary';
import { el, icon } from '../shared/dom';

export interface AllAuthorsHooks {
  /** Opens the unit of a row of the Disagreements list; `key` identifies the row on the page. */
  open(key: string, row: UnitDisagreementRow): void;
}

const COLUMNS: { key: keyof typeof ALL_AUTHORS_HELP; text: string; num: boolean }[] = [
  { key: 'label', text: 'Label', num: false },
  { key: 'kappa', text: 'κ', num: true },
  { key: 'kind', text: 'Kind', num: false },
  { key: 'n', text: 'n', num: true },
  { key: 'raters', text: 'Raters', num: true },
  { key: 'po', text: 'po', num: true },
  { key: 'pe', text: 'pe', num: true },
  { key: 'disagreements', text: 'Disagreements', num: true },
];

function labelRow(r: LabelKappaRow): HTMLTableRowElement {
  return el('tr', { className: 'kappa-row', attrs: { 'data-label': r.label } }, [
    el('th', { className: 'label-name', text: r.name, attrs: { scope: 'row' } }),
    el('td', { className: 'num kappa', text: r.kappaText, title: r.kappaNote ?? `${r.kind}’s κ = ${r.kappaText}` }),
    el('td', { className: 'kind', text: r.kind }),
    el('td', { className: 'num n', text: String(r.n) }),
    el('td', { className: 'num raters', text: String(r.raters) }),
    el('td', { className: 'num po', text: r.poText }),
    el('td', { className: 'num pe', text: r.peText }),
    el('td', { className: 'num disagreements', text: String(r.disagreements) }),
  ]);
}

function saidCell(said: UnitDisagreementRow['said'][number]): HTMLTableCellElement {
  if (said === null) return el('td', { className: 'said none', text: MISSING, title: 'did not label this unit' });
  return el(
    'td',
    { className: 'said' },
    said.flatMap((l, i) => [
      i > 0 ? ', ' : '',
      el('span', {
        className: l.disputed ? 'said-label disputed' : 'said-label',
        text: l.name,
        title: l.disputed ? 'not every author of this unit gave it' : 'every author of this unit gave it',
      }),
    ]),
  );
}

function disagreementsTable(benchmark: string, t: AllAuthorsTable, hooks: AllAuthorsHooks): HTMLElement {
  const rows = t.disagreements.map((d, i) => {
    const key = `${benchmark}\u0000${d.id}`;
    const tr = el(
      'tr',
      {
        className: 'disagreement',
        title: 'Open this unit beside the table (Enter)',
        attrs: { tabindex: '0', 'data-current': 'false' },
      },
      [el('th', { className: 'where', text: d.where, attrs: { scope: 'row' } }), ...d.said.map(saidCell)],
    );
    tr.dataset.key = key;
    tr.addEventListener('click', () => hooks.open(key, d));
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        hooks.open(key, d);
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const to = i + (e.key === 'ArrowDown' ? 1 : -1);
        const next = tr.parentElement?.children[to] as HTMLTableRowElement | undefined;
        if (next && t.disagreements[to]) {
          next.focus();
          hooks.open(next.dataset.key ?? '', t.disagreements[to]);
        }
      }
    });
    return tr;
  });
  return el('table', { className: 'unit-disagreements' }, [
    el('thead', {}, [
      el('tr', {}, [
        el('th', { text: 'Unit', attrs: { scope: 'col' } }),
        ...t.authors.map((a) => el('th', { className: 'author', text: a, attrs: { scope: 'col' } })),
      ]),
    ]),
    el('tbody', {}, rows),
  ]);
}

export function allAuthorsSection(benchmark: string, t: AllAuthorsTable, hooks: AllAuthorsHooks): HTMLElement {
  const head = el(
    'tr',
    {},
    COLUMNS.map((c) =>
      el('th', {
        className: c.num ? 'num' : '',
        text: c.text,
        title: ALL_AUTHORS_HELP[c.key],
        attrs: { scope: 'col', 'data-col': c.key },
      }),
    ),
  );
  const count = t.disagreements.length;
  return el('section', { className: 'all-authors' }, [
    el('h3', {}, [
      el('span', { className: 'authors', text: `All authors (${t.authors.join(', ')})` }),
      el('span', { className: 'units-text', text: ` · ${t.unitsText}` }),
    ]),
    el('table', { className: 'per-label' }, [el('thead', {}, [head]), el('tbody', {}, t.rows.map(labelRow))]),
    t.note && el('p', { className: 'note', text: t.note }),
    el('h4', {}, [
      icon('diff', 'twisty'),
      el('span', { text: 'Disagreements' }),
      el('span', {
        className: 'units-text',
        text: ` · ${count} unit${count === 1 ? '' : 's'} where the authors’ labels differ`,
      }),
    ]),
    count === 0
      ? el('p', { className: 'empty', text: 'Every unit compared has the same labels from each of its authors.' })
      : disagreementsTable(benchmark, t, hooks),
  ]);
}

/** Marks the row `key` as the one open (and focuses it when asked); every other row as not. */
export function markCurrentUnit(root: HTMLElement, key: string | undefined, focus = false): void {
  for (const tr of root.querySelectorAll<HTMLTableRowElement>('tr.disagreement')) {
    const current = key !== undefined && tr.dataset.key === key;
    tr.dataset.current = String(current);
    tr.setAttribute('aria-selected', String(current));
    if (current && focus) tr.focus();
  }
}
