// The PersonaMem dashboard page: per split, what each run covers of it, then accuracy per question type and per
// topic (a table and its chart each); then overall accuracy per context length across the splits. Tables are the
// shared paper tables (copy as LaTeX, Markdown, CSV); charts can be saved as SVG or PNG. Text only, from `show`.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import type { ChartConfiguration } from 'chart.js';
import type { TableModel } from '../../../src/core/tables/format';
import { chartSlug } from '../../../src/shared/chartExport';
import {
  isExtensionToWebview,
  type PmDashboardModel,
  type PmDashTable,
  type PmDashSplit,
  type WebviewToExtension,
} from '../../../src/shared/personamem/dashboardProtocol';
import { chartRenderer, chartToolbar, saveChartMessage } from '../../shared/chartExport';
import { el } from '../../shared/dom';
import { areaStyle, readColours } from '../../shared/hatch';
import { onHostMessage, vscodeApi } from '../../shared/host';
import { injectStyle } from '../../shared/page';
import { runEncoding } from '../../shared/palettes';
import { renderPaperTable } from '../../shared/paperTable';
import baseCss from '../../shared/base.css';
import paperTableCss from '../../shared/paperTable.css';
import reportCss from '../../shared/report.css';
import css from './personamemdash.css';
import { mountWhyRunsFail } from '../../shared/whyRunsFail';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('pmdash-root') ?? document.body;
injectStyle(`${baseCss}\n${reportCss}\n${paperTableCss}\n${css}`);

/** The charts drawn, each with its table (drawn again in the new colours when the theme changes). */
let charts: { canvas: HTMLCanvasElement; table: TableModel; chart?: Chart }[] = [];

function draw(): void {
  for (const c of charts) {
    c.chart?.destroy();
    c.chart = new Chart(c.canvas, tableChart(c.table));
  }
}

function clearCharts(): void {
  for (const c of charts) c.chart?.destroy();
  charts = [];
}

const HELP =
  "Accuracy in percent, two decimals: right answers over the rows of the run's results file, by the authors' answer " +
  'reading (an answer naming no single option letter counts as wrong). The same figures as `persona-lab score`. ' +
  'Bold: best; underlined: second best. ‡ and the line under a name: the run answered part of the split, so its ' +
  'figures are over the questions it answered only.';

/** Row -> what it covers, for the rows over part of their split (shown under the name, with the copies' mark). */
const partial = (t: TableModel) =>
  Object.fromEntries(
    t.rows.flatMap((r) => (r.coverage && !r.coverage.whole ? [[r.run, `‡ over ${r.coverage.text}`]] : [])),
  );

/** A grouped bar chart of a table: its columns along x, one bar per row (a row over part of its split hatched). */
function tableChart(t: TableModel): ChartConfiguration<'bar', (number | null)[], string> {
  const colours = readColours();
  return {
    type: 'bar',
    data: {
      labels: t.columns.map((c) => c.head),
      datasets: t.rows.map((r, i) => {
        const part = r.coverage !== undefined && !r.coverage.whole;
        const encoding = { ...runEncoding(colours, i), fill: part ? ('diagonal' as const) : ('solid' as const) };
        return {
          label: part ? `${r.run} (part: ${r.coverage?.text})` : r.run,
          data: r.cells.map((c) => (c.value === null ? null : 100 * c.value)),
          ...areaStyle(encoding),
        };
      }),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: { labels: { color: colours.fg, boxWidth: 26, boxHeight: 12 } },
        title: { display: true, text: t.title, color: colours.fg },
      },
      scales: {
        x: { grid: { display: false }, ticks: { color: colours.muted } },
        y: {
          min: 0,
          max: 100,
          title: { display: true, text: 'accuracy (%)', color: colours.muted },
          ticks: { color: colours.muted },
          grid: { color: colours.muted + '40' },
        },
      },
    },
  };
}

/** A table's card (with what it covers under its title), and its chart's card. */
function tableBlock(d: PmDashTable, rowHead = 'Run'): HTMLElement[] {
  const t = d.table;
  const copy = (table: string, format: 'latex' | 'markdown' | 'csv') =>
    vscode.postMessage({ type: 'copyTable', table, format });
  const canvas = el('canvas', { attrs: { role: 'img', 'aria-label': t.title } });
  const card = el('section', { className: 'card chart-card', attrs: { 'data-chart': t.id } }, [
    el('div', { className: 'card-head' }, [
      el('h3', { text: `Chart: ${t.title}` }),
      el('span', { className: 'spacer' }),
      chartToolbar((format) => {
        const msg = saveChartMessage(
          canvas,
          chartRenderer(() => tableChart(t)),
          chartSlug(t.id),
          format,
        );
        if (msg) vscode.postMessage(msg);
      }),
    ]),
    el('div', { className: 'chart-box' }, [canvas]),
  ]);
  charts.push({ canvas, table: t });
  return [
    renderPaperTable(t, copy, partial(t), {
      help: HELP,
      splitCaption: 'One table per column group, so that it fits; the copies keep the one table.',
      rowHead,
      covers: d.covers,
    }),
    card,
  ];
}

function splitSection(s: PmDashSplit): HTMLElement {
  return el('section', { className: 'split', attrs: { 'data-split': s.split } }, [
    el('h2', { text: `${s.split} split · ${s.questions} questions, ${s.personas} personas` }),
    el(
      'ul',
      { className: 'covers runs', attrs: { 'aria-label': `What each run answered of the ${s.split} split` } },
      s.runs.map((r) => el('li', { text: r.text, attrs: { 'data-run': r.run, 'data-whole': String(r.whole) } })),
    ),
    ...tableBlock(s.types),
    ...tableBlock(s.topics),
  ]);
}

const whyRunsFail = mountWhyRunsFail();

function show(m: PmDashboardModel): void {
  clearCharts();
  const lengths = el('section', { className: 'lengths', attrs: { 'data-lengths': m.lengths ? 'shown' : 'none' } }, [
    el('h2', { text: 'By context length' }),
    el('p', { className: 'note lengths-note', text: m.lengthsNote }),
    ...(m.lengths ? tableBlock(m.lengths, 'Model') : []),
  ]);
  root.replaceChildren(
    el('h1', { text: 'PersonaMem dashboard' }),
    el('p', { className: 'root note', text: m.root }),
    ...m.splits.map(splitSection),
    m.unanswered.length
      ? el('p', { className: 'note unanswered', text: `No run answers the ${m.unanswered.join(', ')} split(s).` })
      : '',
    lengths,
    whyRunsFail.element,
  );
  draw();
  root.dataset.state = 'shown';
}

onHostMessage(isExtensionToWebview, (msg) => {
  if (msg.type === 'show') show(msg.model);
  else if (msg.type === 'whyRunsFail') whyRunsFail.update(msg.section);
  else {
    clearCharts();
    root.replaceChildren(el('p', { className: 'placeholder', text: msg.message }));
    root.dataset.state = 'empty';
  }
});

// Charts draw with the theme's colours: draw them again when the workbench theme changes (body class).
new MutationObserver(draw).observe(document.body, { attributes: true, attributeFilter: ['class'] });

vscode.postMessage({ type: 'ready' });
