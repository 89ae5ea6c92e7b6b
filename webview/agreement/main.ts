// The Label Summary's agreement table: per benchmark, per label among all authors and the Disagreements list
// (allAuthors.ts), then per pair of authors, one row per label with κ, n, po, pe and the
// disagreements (the header cells define them in their tooltips). A row opens (click, Enter or Space) the units where
// the two disagree: the first shows in the step or trace view and all of them are listed under the row, each naming
// the unit and what each author gave it. The extension sends the whole model again when the labels change; the open
// row and the keyboard stay where they were. Dataset text (labels, authors, ids, runs) is set as text only.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import {
  COLUMN_HELP,
  isExtensionToWebview,
  type AgreementModel,
  type DisagreementItem,
  type KappaCells,
  type LabelAgreementRow,
  type LabelCounts,
  type PairTable,
  type UnitDisagreementRow,
  type WebviewToExtension,
} from '../../src/shared/agreementProtocol';
import baseCss from '../shared/base.css';
import { el, icon } from '../shared/dom';
import { onHostMessage, vscodeApi } from '../shared/host';
import { injectStyle } from '../shared/page';
import css from './agreement.css';
import { allAuthorsSection, markCurrentUnit } from './allAuthors';
import { goldSection } from './gold';

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('agreement-root') ?? document.body;
injectStyle(`${baseCss}\n${css}`);

interface PageState {
  /** The open row: its pair id and label. */
  open?: { pair: string; label: string; item: number };
  /** The open row of a Disagreements list among all authors: benchmark and unit. */
  unit?: string;
}
const saved = vscode.getState();
let state: PageState = typeof saved === 'object' && saved !== null ? (saved as PageState) : {};
const save = () => vscode.setState(state);

function button(text: string, iconName: string, onClick: () => void, secondary = false) {
  const b = el('vscode-button', { text });
  b.icon = iconName;
  b.secondary = secondary;
  b.addEventListener('click', onClick);
  return b;
}

const COLUMNS: { key: keyof typeof COLUMN_HELP; text: string; num: boolean }[] = [
  { key: 'label', text: 'Label', num: false },
  { key: 'kappa', text: 'κ', num: true },
  { key: 'n', text: 'n', num: true },
  { key: 'po', text: 'po', num: true },
  { key: 'pe', text: 'pe', num: true },
  { key: 'disagreements', text: 'Disagreements', num: true },
];

function cells(c: KappaCells, p: PairTable): HTMLTableCellElement[] {
  const split = `${c.onlyA} only ${p.authorA}, ${c.onlyB} only ${p.authorB}`;
  return [
    el('td', { className: 'num kappa', text: c.kappaText, title: c.kappaNote ?? `κ = ${c.kappaText}` }),
    el('td', { className: 'num n', text: String(c.n) }),
    el('td', { className: 'num po', text: c.poText }),
    el('td', { className: 'num pe', text: c.peText }),
    el('td', { className: 'num disagreements', title: split }, [
      el('span', { className: 'count', text: String(c.disagreements) }),
      c.disagreements > 0 && el('span', { className: 'split', text: ` (${c.onlyA} · ${c.onlyB})` }),
    ]),
  ];
}

function itemButton(it: DisagreementItem, index: number, pair: PairTable, row: LabelAgreementRow): HTMLLIElement {
  const b = el('button', { className: 'unit', attrs: { type: 'button', 'data-index': String(index) } }, [
    el('span', { className: 'where', text: it.where }),
    el('span', { className: 'given', text: it.givenBy }),
    el(
      'span',
      { className: 'said' },
      it.said.map((s) => el('span', { className: 'said-by' }, [el('b', { text: `${s.author}: ` }), s.labels])),
    ),
  ]);
  b.addEventListener('click', () => openItem(pair, row, index));
  b.addEventListener('keydown', (e) => {
    const to = e.key === 'ArrowDown' ? index + 1 : e.key === 'ArrowUp' ? index - 1 : -1;
    if (e.key === 'Escape') {
      e.preventDefault();
      toggle(pair, row, false);
      rowOf(pair.id, row.label)?.focus();
    } else if (to >= 0 && to < row.items.length) {
      e.preventDefault();
      openItem(pair, row, to, true);
    }
  });
  return el('li', { attrs: { 'data-current': 'false' } }, [b]);
}

function openItem(pair: PairTable, row: LabelAgreementRow, index: number, focus = false): void {
  const it = row.items[index];
  if (!it) return;
  state = { ...state, open: { pair: pair.id, label: row.label, item: index } };
  save();
  markCurrent(focus);
  vscode.postMessage({ type: 'open', ref: it.ref });
}

function openUnit(key: string, row: UnitDisagreementRow): void {
  state = { ...state, unit: key };
  save();
  markCurrentUnit(root, key);
  vscode.postMessage({ type: 'open', ref: row.ref });
}

function rowOf(pair: string, label: string): HTMLTableRowElement | undefined {
  return [...root.querySelectorAll<HTMLTableRowElement>('tr.label-row')].find(
    (tr) => tr.dataset.pair === pair && tr.dataset.label === label,
  );
}

/** Shows the open row's list under it and marks its current unit. */
function markCurrent(focus: boolean): void {
  for (const tr of root.querySelectorAll<HTMLTableRowElement>('tr.label-row')) {
    const open = state.open?.pair === tr.dataset.pair && state.open?.label === tr.dataset.label;
    if (tr.getAttribute('aria-disabled') !== 'true') tr.setAttribute('aria-expanded', String(open));
    const detail = tr.nextElementSibling as HTMLTableRowElement | null;
    if (!detail?.classList.contains('detail')) continue;
    detail.hidden = !open;
    detail.querySelectorAll('li').forEach((li, i) => {
      const current = open && i === state.open?.item;
      li.dataset.current = String(current);
      if (current && focus) li.querySelector('button')?.focus();
    });
  }
}

function toggle(pair: PairTable, row: LabelAgreementRow, open: boolean): void {
  if (!open) {
    state = { ...state, open: undefined };
    save();
    markCurrent(false);
    return;
  }
  openItem(pair, row, 0);
}

function labelRow(pair: PairTable, row: LabelAgreementRow): HTMLTableRowElement[] {
  const has = row.items.length > 0;
  const tr = el(
    'tr',
    {
      className: 'label-row',
      title: has ? `Open the ${row.items.length} disagreement(s) (Enter)` : 'No disagreements on this label',
      attrs: { tabindex: '0', 'data-label': row.label, 'aria-disabled': String(!has) },
    },
    [
      el('th', { attrs: { scope: 'row' } }, [
        icon(has ? 'chevron-right' : 'blank', 'twisty'),
        el('span', { className: 'label-name', text: row.name }),
      ]),
      ...cells(row, pair),
    ],
  );
  tr.dataset.pair = pair.id;
  const activate = () => {
    if (!has) return;
    const isOpen = state.open?.pair === pair.id && state.open?.label === row.label;
    toggle(pair, row, !isOpen);
  };
  tr.addEventListener('click', activate);
  tr.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      activate();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const rows = [...root.querySelectorAll<HTMLTableRowElement>('tr.label-row')];
      rows[rows.indexOf(tr) + (e.key === 'ArrowDown' ? 1 : -1)]?.focus();
    } else if (e.key === 'ArrowRight' && has) {
      if (tr.getAttribute('aria-expanded') !== 'true') activate();
      else tr.nextElementSibling?.querySelector<HTMLButtonElement>('button.unit')?.focus();
    } else if (e.key === 'ArrowLeft' && tr.getAttribute('aria-expanded') === 'true') toggle(pair, row, false);
  });
  if (!has) return [tr];
  const detail = el('tr', { className: 'detail' }, [
    el('td', { attrs: { colspan: String(COLUMNS.length) } }, [
      el(
        'ol',
        { className: 'units' },
        row.items.map((it, i) => itemButton(it, i, pair, row)),
      ),
    ]),
  ]);
  detail.hidden = true;
  return [tr, detail];
}

function pairSection(pair: PairTable): HTMLElement {
  const head = el('tr', {}, [
    ...COLUMNS.map((c) =>
      el('th', {
        className: c.num ? 'num' : '',
        text: c.text,
        title: COLUMN_HELP[c.key],
        attrs: { scope: 'col', 'data-col': c.key },
      }),
    ),
  ]);
  const overall = el('tr', { className: 'overall' }, [
    el('th', { attrs: { scope: 'row' }, title: 'Every (unit, label) decision pooled' }, [
      icon('blank', 'twisty'),
      el('span', { className: 'label-name', text: 'Overall' }),
    ]),
    ...cells(pair.overall, pair),
  ]);
  const section = el('section', { className: 'pair' }, [
    el('h3', {}, [
      el('span', { className: 'authors', text: `${pair.authorA} vs ${pair.authorB}` }),
      el('span', { className: 'units-text', text: ` · ${pair.unitsText}` }),
    ]),
    el('table', { className: 'agreement' }, [
      el('thead', {}, [head]),
      el('tbody', {}, [overall, ...pair.rows.flatMap((r) => labelRow(pair, r))]),
    ]),
    pair.note && el('p', { className: 'note', text: pair.note }),
  ]);
  section.dataset.authorA = pair.authorA;
  section.dataset.authorB = pair.authorB;
  return section;
}

function countsTable(c: LabelCounts): HTMLElement {
  return el('table', { className: 'counts' }, [
    el('thead', {}, [
      el('tr', {}, [
        el('th', { text: 'Label', attrs: { scope: 'col' } }),
        ...c.platforms.map((p) => el('th', { className: 'num', text: p, attrs: { scope: 'col' } })),
        el('th', { className: 'num', text: 'Total', attrs: { scope: 'col' } }),
      ]),
    ]),
    el('tbody', {}, [
      ...c.rows.map((r) =>
        el('tr', { attrs: { 'data-label': r.label } }, [
          el('th', { text: r.name, attrs: { scope: 'row' } }),
          ...r.counts.map((n) => el('td', { className: 'num', text: String(n) })),
          el('td', { className: 'num total', text: String(r.total) }),
        ]),
      ),
      el('tr', { className: 'totals' }, [
        el('th', { text: 'Total', attrs: { scope: 'row' } }),
        ...c.totals.map((n) => el('td', { className: 'num', text: String(n) })),
        el('td', { className: 'num total', text: String(c.total) }),
      ]),
    ]),
  ]);
}

function build(m: AgreementModel): void {
  const focused = document.activeElement?.closest<HTMLTableRowElement>('tr.label-row');
  const focusKey = focused ? { pair: focused.dataset.pair, label: focused.dataset.label } : undefined;
  const focusedUnit = document.activeElement?.closest<HTMLTableRowElement>('tr.disagreement')?.dataset.key;
  const agreement =
    m.benchmarks.length === 0
      ? [
          el('p', {
            className: 'empty',
            text: 'No two authors labelled the same step or test action of the same run yet.',
          }),
        ]
      : m.benchmarks.map((b) => {
          const s = el('section', { className: 'benchmark' }, [
            el('h2', { text: b.title }),
            allAuthorsSection(b.benchmark, b.allAuthors, { open: openUnit }),
            ...b.pairs.map(pairSection),
          ]);
          s.dataset.benchmark = b.benchmark;
          return s;
        });
  root.replaceChildren(
    el('header', { className: 'page-header' }, [
      el('h1', {}, [icon('graph'), ' Label Agreement']),
      el('p', { className: 'summary', text: `${m.summary} in ${m.source}` }),
      m.authors.length > 0 &&
        el('p', { className: 'authors', text: m.authors.map((a) => `${a.name}: ${a.labels}`).join(' · ') }),
      m.error && el('p', { className: 'error', attrs: { role: 'alert' } }, [icon('error'), ` ${m.error}`]),
      el('p', {
        className: 'explain',
        text: 'Per label, κ among all authors on the units at least two of them labelled (Cohen’s for two authors, Fleiss’ for more) and the units where their labels differ; then Cohen’s κ per pair of authors. Hover a column header for its definition; open a row to see its unit or walk its disagreements.',
      }),
      el('div', { className: 'actions' }, [
        button('Copy as Markdown', 'copy', () => vscode.postMessage({ type: 'copyMarkdown' })),
        button('Open as Markdown', 'markdown', () => vscode.postMessage({ type: 'openMarkdown' }), true),
        button('Adjudicate…', 'law', () => vscode.postMessage({ type: 'adjudicate' }), true),
      ]),
    ]),
    ...agreement,
    goldSection(m.gold, m.goldError, m.goldReading),
    el('section', { className: 'per-platform' }, [
      el('h2', { text: 'Labels per platform' }),
      m.counts.rows.length === 0 ? el('p', { className: 'empty', text: 'No labels yet.' }) : countsTable(m.counts),
    ]),
  );
  // A row that is gone (its label no longer disagrees) closes.
  const open = state.open;
  const row = open && rowOf(open.pair, open.label);
  if (open && (!row || row.getAttribute('aria-disabled') === 'true')) state = { ...state, open: undefined };
  else if (open && row) {
    const count = row.nextElementSibling?.querySelectorAll('li').length ?? 0;
    state = { ...state, open: { ...open, item: Math.min(open.item, count - 1) } };
  }
  save();
  markCurrent(false);
  markCurrentUnit(root, state.unit, focusedUnit !== undefined && focusedUnit === state.unit);
  if (focusKey?.pair && focusKey.label) rowOf(focusKey.pair, focusKey.label)?.focus();
  root.dataset.rows = String(root.querySelectorAll('tr.label-row').length);
}

onHostMessage(isExtensionToWebview, (msg) => build(msg.model));

vscode.postMessage({ type: 'ready' });
