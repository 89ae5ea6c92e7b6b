// The dashboards' paper tables: grouped headers (a group over its columns), best in bold, second best underlined, each
// mark also given as text for screen readers; a row over part of its scope says so under its name; LaTeX, Markdown and
// CSV buttons ask the extension to copy (core/tables/format.ts). Styles: paperTable.css.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { TableFormat, TableModel } from '../../src/core/tables/format';
import { el, help } from './dom';
import { elideMiddle } from '../../src/core/elide';

/** Longest run name shown whole in a table's first column; a longer one is cut in the middle (full in the tooltip). */
const RUN_NAME_MAX = 24;

export interface PaperTableOptions {
  /** the info glyph's text: how the figures are computed and marked */
  help: string;
  /** the columns in the order the page shows them (indices into t.columns); default: the table's order */
  order?: (t: TableModel) => number[];
  /** the caption over a table too wide to show whole, shown one column group at a time */
  splitCaption: string;
  /** the first column's head; default "Run" */
  rowHead?: string;
  /** a line under the title: what the table covers */
  covers?: string;
}

/** The row's name cell: the run (cut in the middle when long), and what its figures cover when not the whole. */
function runCell(run: string, coverage: string | undefined): HTMLElement {
  return el(
    'th',
    {
      title: coverage ? `${run}: figures ${coverage}` : run,
      attrs: { scope: 'row', class: 'run-col', ...(coverage ? { 'data-coverage': coverage } : {}) },
    },
    [
      el('span', { className: 'run-name', text: elideMiddle(run, RUN_NAME_MAX) }),
      coverage ? el('span', { className: 'run-coverage', text: coverage }) : null,
    ],
  );
}

const RANK_TEXT = ['', 'best', 'second best'] as const;

function copyButton(label: string, title: string, onClick: () => void): HTMLElement {
  const b = el('vscode-button', { text: label, title });
  b.icon = 'copy';
  b.secondary = true;
  b.addEventListener('click', onClick);
  return b;
}

/** Above this many columns a table is shown split by its column groups (Table 6: four error rates × platforms). */
const SPLIT_ABOVE = 12;

type Column = TableModel['columns'][number];
type Cell = TableModel['rows'][number]['cells'][number];

function cellTd(cell: Cell, c: Column): HTMLElement {
  return el(
    'td',
    {
      className: cell.rank ? `rank-${cell.rank}` : '',
      title: cell.rank ? RANK_TEXT[cell.rank] : undefined,
      attrs: { 'data-col': `${c.group} ${c.head}` },
    },
    [
      el('span', { className: 'num', text: cell.text }),
      cell.rank ? el('span', { className: 'sr-only', text: ` (${RANK_TEXT[cell.rank]})` }) : null,
    ],
  );
}

/** One table over the columns `at` (indices into t.columns), grouped headers over them unless `caption` names the group. */
function paperTable(
  t: TableModel,
  at: number[],
  coverage: Record<string, string>,
  rowHead: string,
  caption?: string,
): HTMLElement {
  const groups: { name: string; span: number }[] = [];
  for (const i of at) {
    const last = groups[groups.length - 1];
    if (last && last.name === t.columns[i].group) last.span++;
    else groups.push({ name: t.columns[i].group, span: 1 });
  }
  const heads = at.map((i) => el('th', { text: t.columns[i].head, attrs: { scope: 'col' } }));
  const head = caption
    ? el('thead', {}, [
        el('tr', {}, [el('th', { text: rowHead, attrs: { scope: 'col', class: 'run-col' } }), ...heads]),
      ])
    : el('thead', {}, [
        el('tr', {}, [
          el('th', { text: rowHead, attrs: { rowspan: '2', scope: 'col', class: 'run-col' } }),
          ...groups.map((g) =>
            el('th', { text: g.name, attrs: { colspan: String(g.span), scope: 'colgroup', class: 'group' } }),
          ),
        ]),
        el('tr', {}, heads),
      ]);
  const body = el(
    'tbody',
    {},
    t.rows.map((row) =>
      el('tr', { attrs: { 'data-run': row.run } }, [
        runCell(row.run, coverage[row.run]),
        ...at.map((i) => cellTd(row.cells[i], t.columns[i])),
      ]),
    ),
  );
  return el('table', { className: 'paper', attrs: caption ? { 'data-group': caption } : {} }, [
    caption ? el('caption', { text: caption }) : null,
    head,
    body,
  ]);
}

/**
 * The table as the page shows it: whole, or, when it has too many columns to fit, one small table per column group
 * side by side (wrapping), each with the runs. Copies (LaTeX, Markdown, CSV) keep the paper's layout either way.
 */
function tableBody(t: TableModel, coverage: Record<string, string>, o: PaperTableOptions): HTMLElement {
  const rowHead = o.rowHead ?? 'Run';
  const all = t.columns.map((_c, i) => i);
  if (t.columns.length <= SPLIT_ABOVE)
    return el('div', { className: 'table-scroll' }, [paperTable(t, o.order?.(t) ?? all, coverage, rowHead)]);
  const groups = [...new Set(t.columns.map((c) => c.group))];
  return el(
    'div',
    { className: 'table-split' },
    groups.map((g) =>
      paperTable(
        t,
        all.filter((i) => t.columns[i].group === g),
        coverage,
        rowHead,
        g,
      ),
    ),
  );
}

/**
 * A table card: its title, the info glyph, the copy buttons and the table. `coverage`: row -> what its figures cover,
 * for the rows over part of the scope (shown under the row's name).
 */
export function renderPaperTable<Id extends string>(
  t: TableModel<Id>,
  onCopy: (id: Id, format: TableFormat) => void,
  coverage: Record<string, string>,
  o: PaperTableOptions,
): HTMLElement {
  const name = t.title.split('.')[0];
  return el('section', { className: 'card table-card', attrs: { 'data-table': t.id } }, [
    el('div', { className: 'card-head' }, [
      el('h3', { text: t.title }),
      help(o.help),
      el('span', { className: 'spacer' }),
      copyButton('LaTeX', `Copy ${name} as LaTeX (booktabs)`, () => onCopy(t.id, 'latex')),
      copyButton('Markdown', `Copy ${name} as Markdown`, () => onCopy(t.id, 'markdown')),
      copyButton('CSV', `Copy ${name} as CSV`, () => onCopy(t.id, 'csv')),
    ]),
    o.covers ? el('p', { className: 'caption table-covers', text: o.covers }) : null,
    t.columns.length > SPLIT_ABOVE ? el('p', { className: 'caption', text: o.splitCaption }) : null,
    tableBody(t, coverage, o),
  ]);
}
