// OmniBehavior dashboard webview: the run's headline scores, the bias diagnostics (with a chart of the positive
// rates per scene, which can be saved as SVG or PNG) and the per-field table. Rendered from `show` messages, text only.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import type { BiasDiagnostics } from '../../../src/core/omni/bias';
import { chartSlug } from '../../../src/shared/chartExport';
import {
  COMPONENT_LABELS,
  isExtensionToWebview,
  type OmniDashboardModel,
  type WebviewToExtension,
} from '../../../src/shared/omni/dashboardProtocol';
import { chartRenderer, chartToolbar, saveChartMessage } from '../../shared/chartExport';
import { el } from '../../shared/dom';
import { onHostMessage, vscodeApi } from '../../shared/host';
import baseCss from '../../shared/base.css';
import { injectStyle } from '../../shared/page';
import css from './omnidash.css';
import { pyFixed } from '../../../src/core/io/pyNumber';
import { areaStyle, readColours } from '../../shared/hatch';
import { dataEncoding, runEncoding } from '../../shared/palettes';
import {
  JUDGE_AGREEMENT_HEAD,
  judgeAgreementCells,
  judgeAgreementNote,
} from '../../../src/core/omni/judgeAgreementText';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('omnidash-root') ?? document.body;
injectStyle(`${baseCss}\n${css}`);

let chart: Chart | undefined;

const fixed = (x: number | null | undefined, digits = 1) =>
  x === null || x === undefined || !Number.isFinite(x) ? '—' : pyFixed(x, digits);
const pct = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '—' : `${pyFixed(100 * x, 1)} %`;
const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;

function table(head: string[], rows: string[][], id: string): HTMLTableElement {
  return el('table', { className: 'data', attrs: { 'data-table': id } }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        head.map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
      ),
    ]),
    el(
      'tbody',
      {},
      rows.map((r) =>
        el(
          'tr',
          {},
          r.map((c, i) => (i === 0 ? el('th', { text: c, attrs: { scope: 'row' } }) : el('td', { text: c }))),
        ),
      ),
    ),
  ]);
}

function show(m: OmniDashboardModel): void {
  chart?.destroy();
  const choose = el('vscode-button', { text: 'Choose Run…', title: 'Persona Lab: Choose OmniBehavior Run…' });
  choose.icon = 'beaker';
  choose.addEventListener('click', () => vscode.postMessage({ type: 'chooseRun' }));
  const b = m.bias;
  const canvas = el('canvas', { attrs: { role: 'img', 'aria-label': 'Real and predicted positive rates per scene' } });
  const parts: (HTMLElement | null)[] = [
    el('header', { className: 'dash-header' }, [
      el('h1', { text: `OmniBehavior · ${m.run}` }),
      el('span', {
        className: 'overall',
        text: `overall ${fixed(m.overall)}`,
        title: 'Mean of the six components; undefined when one is missing',
      }),
      choose,
    ]),
    m.made ? el('p', { className: 'made', text: `Showing ${m.run}, ${m.made}` }) : null,
    m.overallReason ? el('p', { className: 'overall-why', text: `No overall: ${m.overallReason}` }) : null,
    m.coverage
      ? el('p', {
          className: 'coverage',
          text: `Every figure here is ${m.coverage}: the run is of part of the benchmark.`,
        })
      : null,
    el('p', { className: 'root note', text: m.root }),
    el('p', {
      className: 'answers note',
      text: `${m.answered} answers count; ${m.leftOut} left out of every metric (no usable predicted value, or empty text, as the reference leaves them out)`,
    }),
    el('h2', { text: 'Headline components (0–100)' }),
    table(
      ['Component', 'Score', ''],
      m.components.map((c) => [COMPONENT_LABELS[c.id], fixed(c.value), c.why ?? '']),
      'components',
    ),
    el('h2', { text: 'Bias diagnostics' }),
    el('p', { className: 'reading', text: b.reading }),
    el('p', {
      className: 'ratio',
      text: `Intra-user / inter-user distance ratio: real ${fixed(b.distanceRatio.real, 2)}, predicted ${fixed(b.distanceRatio.predicted, 2)} (the paper: about 0.29 for real users, 0.7–0.87 for simulated ones)`,
    }),
    el('div', { className: 'chart-head' }, [
      el('h3', { text: 'Positive rates per scene' }),
      chartToolbar((format) => {
        const msg = saveChartMessage(
          canvas,
          chartRenderer(() => biasChart(b)),
          `positive-rates-${chartSlug(m.run)}`,
          format,
        );
        if (msg) vscode.postMessage(msg);
      }),
    ]),
    el('div', { className: 'chart-box' }, [canvas]),
    table(
      ['Scene', 'Binary answers', 'Real positive rate', 'Predicted positive rate', 'Predicted − real'],
      b.perScene.map((s) => [
        s.scene,
        String(s.n),
        pct(s.realRate),
        pct(s.predictedRate),
        `${((s.predictedRate - s.realRate) * 100).toFixed(1)} pp`,
      ]),
      'bias',
    ),
    el('h2', { text: 'Judge against people' }),
    el('p', {
      className: 'note judge-note',
      text:
        `${judgeAgreementNote(m.judge)} Score an utterance in the trace view (Your scores of the utterance, key S); ` +
        'no paper table reports this per dimension, so there is no anchor to compare with.',
    }),
    table([...JUDGE_AGREEMENT_HEAD], m.judge.dimensions.map(judgeAgreementCells), 'judge-vs-people'),
    el('h2', { text: 'Fields' }),
    table(
      ['Field', 'Scene', 'Kind', 'Answered', 'Left out', 'n', 'F1', 'Accuracy', 'NMAE', 'Skipped', 'Judge mean'],
      m.fields.map((f) => [
        f.field,
        f.scene,
        f.kind,
        String(f.answered),
        String(f.leftOut),
        String(f.n),
        pct(f.f1),
        pct(f.accuracy),
        fixed(f.nmae),
        f.skipped === undefined ? '—' : String(f.skipped),
        fixed(f.judgeMean, 2),
      ]),
      'fields',
    ),
  ];
  root.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  root.dataset.run = m.run;
  chart = new Chart(canvas, biasChart(b));
}

/**
 * The real and predicted positive rates per scene, in the theme's colours (read again on each call). The real rates
 * are the data's (outlined in the muted colour), the predicted ones the run's (the first run colour), as in the run
 * dashboard (webview/shared/palettes.ts).
 */
function biasChart(b: BiasDiagnostics): ChartConfiguration<'bar', number[], string> {
  const colours = readColours();
  const muted = colours.muted;
  return {
    type: 'bar',
    data: {
      labels: b.perScene.map((s) => s.scene),
      datasets: [
        { label: 'real', data: b.perScene.map((s) => 100 * s.realRate), ...areaStyle(dataEncoding(colours)) },
        {
          label: 'predicted',
          data: b.perScene.map((s) => 100 * s.predictedRate),
          ...areaStyle(runEncoding(colours, 0)),
        },
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { labels: { color: colours.fg, boxWidth: 26, boxHeight: 12 } } },
      scales: {
        x: { grid: { display: false }, ticks: { color: muted } },
        y: {
          beginAtZero: true,
          title: { display: true, text: 'positive rate (%)', color: muted },
          ticks: { color: muted },
          grid: { color: cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.35)') },
        },
      },
    },
  };
}

onHostMessage(isExtensionToWebview, (msg) => {
  if (msg.type === 'show') show(msg.model);
  else {
    chart?.destroy();
    delete root.dataset.run;
    root.replaceChildren(el('p', { className: 'placeholder', text: msg.message }));
  }
});

vscode.postMessage({ type: 'ready' });
