// The experiment log as a table: one row per try with its template's name (elided in the middle, in full in its
// tooltip) and what its figures are over, then the figures (R, the paired ΔR / ΔR_stab / ΔR_nov / ΔF1^NS with their
// intervals), cost and date, and last the sample and base run, which may wrap. A column header sorts by it (again:
// the other way); Enter or a double click on a row opens its paired steps in Compare Runs; two rows selected
// (click, Ctrl+click) and Diff Templates show their templates' diff. Dataset text is set as text only.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { coverageNote } from '../../../src/core/coverage';
import { elideMiddle } from '../../../src/core/elide';
import {
  isExtensionToWebview,
  sortTableRows,
  TABLE_METRICS,
  type ExperimentTableModel,
  type ExperimentTableRow,
  type TableSortKey,
  type WebviewToExtension,
} from '../../../src/shared/spb/experimentTableProtocol';
import baseCss from '../../shared/base.css';
import { el, icon } from '../../shared/dom';
import { onHostMessage, vscodeApi } from '../../shared/host';
import { injectStyle } from '../../shared/page';
import css from './experiments.css';

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('experiments-root') ?? document.body;
injectStyle(`${baseCss}\n${css}`);

const DELTA_HEADS: Record<(typeof TABLE_METRICS)[number], string> = {
  Recall: 'ΔR',
  Recall_Stability: 'ΔR_stab',
  Recall_Novelty: 'ΔR_nov',
  F1NS: 'ΔF1^NS',
};

interface Column {
  key: TableSortKey;
  head: string;
  title: string;
}

// The figures come right after the name, so that they stay in sight in a narrow editor; sample and base run last.
const COLUMNS: Column[] = [
  { key: 'name', head: 'Template', title: 'The template’s name, and what its figures are over' },
  { key: 'recall', head: 'R', title: 'R of the experiment’s run in %, over the paired steps' },
  ...TABLE_METRICS.map((m, i) => ({
    key: `delta${i}` as TableSortKey,
    head: DELTA_HEADS[m],
    title: `${DELTA_HEADS[m]} in pp, experiment − base over the paired steps, with the 95 % bootstrap interval over users`,
  })),
  { key: 'requests', head: 'Cost', title: 'Requests and tokens of the experiment’s run' },
  { key: 'createdAt', head: 'Date', title: 'When it was logged' },
  { key: 'sample', head: 'Sample', title: 'The sample and its number of users' },
  { key: 'baseRun', head: 'Base run', title: 'The run the experiment is paired with' },
];

/** "over 5 of 10 users, 9 of 166 steps", or "whole benchmark": a sample's figures are not the benchmark's. */
const coverageLine = (r: ExperimentTableRow) => coverageNote(r.coverage) ?? 'whole benchmark';

const pad = (x: number) => String(x).padStart(2, '0');
/** "2026-12-06" over "10:00": a narrow column; the tooltip has the locale's full date. */
function shortDate(iso: string): [string, string] {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return [iso, ''];
  return [
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    `${pad(d.getHours())}:${pad(d.getMinutes())}`,
  ];
}

let model: ExperimentTableModel | undefined;
let sort: { key: TableSortKey; descending: boolean } = { key: 'createdAt', descending: true };
let selected: number[] = [];

function deltaCell(r: ExperimentTableRow, i: number): HTMLTableCellElement {
  const d = r.deltas[i];
  // Better only when the interval excludes 0 (a collapsed interval says nothing either way).
  const better = d.ciLow !== null && d.ciHigh !== null && (d.ciLow > 0 || d.ciHigh < 0);
  // The difference on its line, its interval (or why there is none) under it: the cell's text stays deltaText's.
  const cut = d.text.search(/ [[(]/);
  return el(
    'td',
    {
      className: `num ${better ? (d.ciLow! > 0 ? 'better' : 'worse') : ''}`.trim(),
      attrs: { 'data-metric': TABLE_METRICS[i] },
      title: `${DELTA_HEADS[TABLE_METRICS[i]]} ${d.text} ${coverageLine(r)}`,
    },
    cut < 0
      ? [d.text]
      : [el('span', { text: d.text.slice(0, cut) }), el('span', { className: 'ci', text: d.text.slice(cut) })],
  );
}

function rowEl(r: ExperimentTableRow): HTMLTableRowElement {
  const fullName = r.kind === 'long-context' ? `${r.name} (long-context)` : r.name;
  const tr = el(
    'tr',
    {
      className: 'exp-row',
      attrs: { 'data-id': String(r.id), tabindex: '0', 'aria-selected': String(selected.includes(r.id)) },
      title: `${r.run}\n${r.author} · ${r.model}${r.thin.length ? `\none user on ${r.thin.join(', ')}: its interval cannot vary there` : ''}`,
    },
    [
      el('td', { className: 'name-cell', title: `${fullName}\ntemplate ${r.templateId}\n${coverageLine(r)}` }, [
        el('span', { className: 'name', text: elideMiddle(fullName, 28), attrs: { 'data-full': fullName } }),
        el('span', { className: 'sub coverage', text: coverageLine(r) }),
      ]),
      el('td', {
        className: 'num',
        attrs: { 'data-metric': 'R' },
        text: r.recall === null ? '—' : (100 * r.recall).toFixed(2),
        title: `R of ${r.run} ${coverageLine(r)}`,
      }),
      ...TABLE_METRICS.map((_, i) => deltaCell(r, i)),
      el('td', { className: 'num', attrs: { 'data-col': 'cost' } }, [
        el('span', { text: `${r.requests} req` }),
        el('span', { className: 'ci', text: ` ${r.tokens.toLocaleString('en-US')} tok` }),
      ]),
      el('td', { className: 'num', attrs: { 'data-col': 'date' }, title: new Date(r.createdAt).toLocaleString() }, [
        el('span', { text: shortDate(r.createdAt)[0] }),
        el('span', { className: 'ci', text: ` ${shortDate(r.createdAt)[1]}` }),
      ]),
      el('td', { className: 'wrap', text: `${r.sample} (${r.sampleUsers} users)` }),
      el('td', { className: 'wrap', text: r.baseRun || '—' }),
    ],
  );
  tr.addEventListener('click', (e) => {
    selected = e.ctrlKey || e.metaKey ? toggle(r.id) : [r.id];
    render();
    root.querySelector<HTMLElement>(`tr[data-id="${r.id}"]`)?.focus();
  });
  tr.addEventListener('dblclick', () => vscode.postMessage({ type: 'compare', id: r.id }));
  tr.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') vscode.postMessage({ type: 'compare', id: r.id });
    if (e.key === ' ') {
      e.preventDefault();
      selected = toggle(r.id);
      render();
      root.querySelector<HTMLElement>(`tr[data-id="${r.id}"]`)?.focus();
    }
  });
  return tr;
}

function toggle(id: number): number[] {
  return selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id].slice(-2);
}

function header(c: Column): HTMLTableCellElement {
  const on = sort.key === c.key;
  const b = el('button', { text: c.head, title: `${c.title}. Sort by it.` });
  b.addEventListener('click', () => {
    sort = { key: c.key, descending: on ? !sort.descending : c.key !== 'name' && c.key !== 'sample' };
    render();
  });
  return el(
    'th',
    {
      className: 'sortable',
      attrs: {
        scope: 'col',
        'data-key': c.key,
        'aria-sort': on ? (sort.descending ? 'descending' : 'ascending') : 'none',
      },
    },
    [b, on ? icon(sort.descending ? 'arrow-down' : 'arrow-up') : null],
  );
}

function render(): void {
  const m = model;
  if (!m) return;
  vscode.setState({ sort, selected });
  const rows = sortTableRows(m.rows, sort.key, sort.descending);
  const diff = el('vscode-button', { text: 'Diff Templates' });
  diff.icon = 'diff';
  diff.disabled = selected.length !== 2;
  diff.addEventListener('click', () => {
    if (selected.length === 2) vscode.postMessage({ type: 'diff', a: selected[0], b: selected[1] });
  });
  root.replaceChildren(
    el('header', { className: 'page-header' }, [
      el('h1', {}, [icon('beaker'), ` Experiments of ${m.benchmark}`]),
      el('p', {
        className: 'explain',
        text: 'R is the experiment’s run over the paired steps, Δ is experiment − base run in percentage points over them, with its 95 % bootstrap interval over users; "CI n/a" where the sample leaves nothing to resample. Each row’s figures are over its sample only: under its name, how many of the benchmark’s users and steps. Enter (or a double click) opens a row in Compare Runs.',
      }),
      el('div', { className: 'actions' }, [
        diff,
        el('span', {
          className: 'selection',
          attrs: { role: 'status' },
          text:
            selected.length === 2
              ? 'two rows selected'
              : 'select two rows (click, then Ctrl+click or Space) to diff their templates',
        }),
      ]),
    ]),
    m.rows.length === 0
      ? el('p', { className: 'placeholder', text: 'No experiments yet: Run Template on Sample… logs one.' })
      : el('table', { className: 'experiments' }, [
          el('thead', {}, [el('tr', {}, COLUMNS.map(header))]),
          el('tbody', {}, rows.map(rowEl)),
        ]),
  );
}

const saved = vscode.getState() as { sort?: typeof sort; selected?: number[] } | undefined;
if (saved?.sort && typeof saved.sort.key === 'string') sort = saved.sort;
if (Array.isArray(saved?.selected)) selected = saved.selected.filter((x) => typeof x === 'number');

onHostMessage(isExtensionToWebview, (msg) => {
  model = msg.model;
  const ids = new Set(model.rows.map((r) => r.id));
  selected = selected.filter((id) => ids.has(id));
  render();
});

vscode.postMessage({ type: 'ready' });
