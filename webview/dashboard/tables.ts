// Renders the paper's tables: grouped headers (platform over metric), best in bold, second best underlined, each
// mark also given as text for screen readers; Copy as Markdown / CSV buttons ask the extension to copy.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { CopyFormat, TableId, TableModel } from '../../src/shared/dashboardProtocol';
import { el, help } from './dom';

const RANK_TEXT = ['', 'best', 'second best'] as const;

function copyButton(label: string, title: string, onClick: () => void): HTMLElement {
  const b = el('vscode-button', { text: label, title });
  b.icon = 'copy';
  b.secondary = true;
  b.addEventListener('click', onClick);
  return b;
}

export function renderTable(t: TableModel, onCopy: (id: TableId, format: CopyFormat) => void): HTMLElement {
  const groups: { name: string; span: number }[] = [];
  for (const c of t.columns) {
    const last = groups[groups.length - 1];
    if (last && last.name === c.group) last.span++;
    else groups.push({ name: c.group, span: 1 });
  }
  const lower = t.columns.some((c) => c.lowerIsBetter);
  const head = el('thead', {}, [
    el('tr', {}, [
      el('th', { text: 'Run', attrs: { rowspan: '2', scope: 'col', class: 'run-col' } }),
      ...groups.map((g) =>
        el('th', { text: g.name, attrs: { colspan: String(g.span), scope: 'colgroup', class: 'group' } }),
      ),
    ]),
    el(
      'tr',
      {},
      t.columns.map((c) => el('th', { text: c.head, attrs: { scope: 'col' } })),
    ),
  ]);
  const body = el(
    'tbody',
    {},
    t.rows.map((row) =>
      el('tr', { attrs: { 'data-run': row.run } }, [
        el('th', { text: row.run, attrs: { scope: 'row', class: 'run-col' } }),
        ...row.cells.map((cell, i) =>
          el(
            'td',
            {
              className: cell.rank ? `rank-${cell.rank}` : '',
              title: cell.rank ? RANK_TEXT[cell.rank] : undefined,
              attrs: { 'data-col': `${t.columns[i].group} ${t.columns[i].head}` },
            },
            [
              el('span', { className: 'num', text: cell.text }),
              cell.rank ? el('span', { className: 'sr-only', text: ` (${RANK_TEXT[cell.rank]})` }) : null,
            ],
          ),
        ),
      ]),
    ),
  );
  const caption = lower ? 'Lower is better. ' : '';
  return el('section', { className: 'card table-card', attrs: { 'data-table': t.id } }, [
    el('div', { className: 'card-head' }, [
      el('h3', { text: t.title }),
      help(
        `${caption}Per platform: two-level macro average M̄ (per user over the scored steps, then over users), as the reference runner. Avg.: the mean of the platform figures. F1^NS: mean of per-user F1 over users with R_nov + R_stab > 0. Bold: best; underlined: second best (on the shown figures).`,
      ),
      el('span', { className: 'spacer' }),
      copyButton('LaTeX', `Copy ${t.title.split('.')[0]} as LaTeX (booktabs)`, () => onCopy(t.id, 'latex')),
      copyButton('Markdown', `Copy ${t.title.split('.')[0]} as Markdown`, () => onCopy(t.id, 'markdown')),
      copyButton('CSV', `Copy ${t.title.split('.')[0]} as CSV`, () => onCopy(t.id, 'csv')),
    ]),
    el('div', { className: 'table-scroll' }, [el('table', { className: 'paper' }, [head, body])]),
  ]);
}
