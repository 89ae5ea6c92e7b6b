// Renders the paper's tables: grouped headers (platform over metric), best in bold, second best underlined, each
// mark also given as text for screen readers; Copy as Markdown / CSV buttons ask the extension to copy.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { CopyFormat, TableId, TableModel } from '../../src/shared/dashboardProtocol';
import { el, help } from './dom';
import { elideMiddle } from '../../src/core/elide';

/** Longest run name shown whole in a table's first column; a longer one is cut in the middle (full in the tooltip). */
const RUN_NAME_MAX = 24;

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

/** The column order on the page: the Avg. columns (the key figures) right after the run, then the platforms. */
function shownOrder(t: TableModel): number[] {
  const all = t.columns.map((_c, i) => i);
  return [...all.filter((i) => t.columns[i].group === 'Avg.'), ...all.filter((i) => t.columns[i].group !== 'Avg.')];
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
function paperTable(t: TableModel, at: number[], coverage: Record<string, string>, caption?: string): HTMLElement {
  const groups: { name: string; span: number }[] = [];
  for (const i of at) {
    const last = groups[groups.length - 1];
    if (last && last.name === t.columns[i].group) last.span++;
    else groups.push({ name: t.columns[i].group, span: 1 });
  }
  const heads = at.map((i) => el('th', { text: t.columns[i].head, attrs: { scope: 'col' } }));
  const head = caption
    ? el('thead', {}, [el('tr', {}, [el('th', { text: 'Run', attrs: { scope: 'col', class: 'run-col' } }), ...heads])])
    : el('thead', {}, [
        el('tr', {}, [
          el('th', { text: 'Run', attrs: { rowspan: '2', scope: 'col', class: 'run-col' } }),
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
function tableBody(t: TableModel, coverage: Record<string, string>): HTMLElement {
  const all = t.columns.map((_c, i) => i);
  if (t.columns.length <= SPLIT_ABOVE)
    return el('div', { className: 'table-scroll' }, [paperTable(t, shownOrder(t), coverage)]);
  const groups = [...new Set(t.columns.map((c) => c.group))];
  return el(
    'div',
    { className: 'table-split' },
    groups.map((g) =>
      paperTable(
        t,
        all.filter((i) => t.columns[i].group === g),
        coverage,
        g,
      ),
    ),
  );
}

/** `coverage`: run -> what its figures cover, for the runs over part of the benchmark (shown under the run's name). */
export function renderTable(
  t: TableModel,
  onCopy: (id: TableId, format: CopyFormat) => void,
  coverage: Record<string, string> = {},
): HTMLElement {
  const lower = t.columns.some((c) => c.lowerIsBetter);
  const caption = lower ? 'Lower is better. ' : '';
  return el('section', { className: 'card table-card', attrs: { 'data-table': t.id } }, [
    el('div', { className: 'card-head' }, [
      el('h3', { text: t.title }),
      help(
        `${caption}Per platform: two-level macro average M̄ (per user over the scored steps, then over users), as the reference runner. Avg.: the mean of the platform figures, shown first here (copies keep the paper's order). F1^NS: mean of per-user F1 over users with R_nov + R_stab > 0. Bold: best; underlined: second best (on the shown figures), among the runs that cover the same steps only: a run over part of the benchmark says so under its name and is not ranked against the others.`,
      ),
      el('span', { className: 'spacer' }),
      copyButton('LaTeX', `Copy ${t.title.split('.')[0]} as LaTeX (booktabs)`, () => onCopy(t.id, 'latex')),
      copyButton('Markdown', `Copy ${t.title.split('.')[0]} as Markdown`, () => onCopy(t.id, 'markdown')),
      copyButton('CSV', `Copy ${t.title.split('.')[0]} as CSV`, () => onCopy(t.id, 'csv')),
    ]),
    t.columns.length > SPLIT_ABOVE
      ? el('p', {
          className: 'caption',
          text: "One table per platform, so that it fits; LaTeX, Markdown and CSV copy the paper's one table.",
        })
      : null,
    tableBody(t, coverage),
  ]);
}
