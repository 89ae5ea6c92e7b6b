// The history before the test action: scene and behaviour filters, a stacked scene histogram over time (chart.js)
// and a virtualised list whose rows arrive from the extension host in windows of ROWS_WINDOW.
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import {
  ROWS_WINDOW,
  type Histogram,
  type LabelledHistoryItem,
  type TimelineFilter,
  type TimelineRow,
  type TraceModel,
  type WebviewToExtension,
} from '../../../src/shared/omni/traceProtocol';
import type { Scene } from '../../../src/core/omni/types';
import { areaStyle, readColours } from '../../shared/hatch';
import { sceneEncoding } from '../palette';
import { el } from '../../shared/dom';
import { VirtualList } from '../../shared/vlist';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

const ROW_HEIGHT = 24;
function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function binLabel(ms: number, spanMs: number): string {
  const iso = new Date(ms).toISOString();
  return spanMs > 3 * 86_400_000 ? iso.slice(0, 10) : iso.slice(5, 16).replace('T', ' ');
}

type Checkbox = HTMLElement & { checked: boolean; label: string };

/** Shared by every TimelineUi of the page, so that a new test action never reuses an older generation. */
let generations = 0;

export class TimelineUi {
  readonly element: HTMLElement;
  private generation = 0;
  private count = 0;
  private readonly rows = new Map<number, TimelineRow>();
  private readonly asked = new Set<number>();
  private readonly list: VirtualList<TimelineRow>;
  private readonly countText: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly detail: HTMLElement;
  private chart: Chart | undefined;
  private readonly sceneBoxes: Checkbox[] = [];
  private readonly behaviourBoxes: Checkbox[] = [];
  /** History records with labels of this author, by index (their rows carry a mark). */
  private labelled = new Map<number, LabelledHistoryItem>();
  /** The record opened last (its row is highlighted). */
  private opened: number | undefined;
  private revealPending = false;
  private bringOpenedIntoView = false;

  constructor(
    private readonly model: TraceModel,
    private readonly post: (msg: WebviewToExtension) => void,
  ) {
    this.list = new VirtualList<TimelineRow>({
      rowHeight: ROW_HEIGHT,
      maxHeight: 420,
      label: 'History before the test action',
      key: (r) => String(r.index),
      render: (r, _i, row) => this.renderRow(r, row),
      renderPending: (_i, row) => row.append(el('span', { className: 'pending', text: 'loading…' })),
      onRange: (first, last) => this.ask(first, last),
      onOpen: (r) => this.post({ type: 'record', index: r.index }),
    });
    this.countText = el('span', { className: 'timeline-count', attrs: { 'aria-live': 'polite' } });
    this.canvas = el('canvas', { attrs: { role: 'img', 'aria-label': 'Records per scene over time' } });
    this.detail = el('pre', { className: 'record-detail prose', attrs: { hidden: '' } });
    const scenes = model.scenes
      .filter((s) => s.n > 0)
      .map((s) => this.checkbox(`${s.scene} (${s.n})`, s.scene, 'scene', this.sceneBoxes));
    const behaviours = model.behaviours.map((b) =>
      this.checkbox(`${b.behaviour} (${b.n})`, b.behaviour, 'behaviour', this.behaviourBoxes),
    );
    this.element = el('div', { className: 'timeline' }, [
      el('div', { className: 'filters' }, [
        el('div', { className: 'filter-row', attrs: { role: 'group', 'aria-label': 'Scenes' } }, [
          el('span', { className: 'caption', text: 'Scenes' }),
          ...scenes,
        ]),
        el('div', { className: 'filter-row', attrs: { role: 'group', 'aria-label': 'Behaviours' } }, [
          el('span', { className: 'caption', text: 'Behaviours' }),
          ...behaviours,
        ]),
      ]),
      el('div', { className: 'chart-box' }, [this.canvas]),
      this.countText,
      el('div', { className: 'vrow head' }, [
        el('span', { text: '#' }),
        el('span', { text: 'time' }),
        el('span', { text: 'scene' }),
        el('span', { text: 'behaviours' }),
        el('span', { text: 'summary' }),
      ]),
      this.list.element,
      this.detail,
    ]);
  }

  private checkbox(label: string, value: string, kind: string, into: Checkbox[]): Checkbox {
    const c = el('vscode-checkbox', { attrs: { 'data-filter': kind, 'data-value': value } }) as Checkbox;
    c.label = label;
    c.addEventListener('change', () => this.sendFilter());
    into.push(c);
    return c;
  }

  filter(): TimelineFilter {
    const chosen = (boxes: Checkbox[]) => boxes.filter((b) => b.checked).map((b) => b.dataset.value ?? '');
    return { scenes: chosen(this.sceneBoxes) as Scene[], behaviours: chosen(this.behaviourBoxes) };
  }

  /** A new generation: rows of earlier filters that arrive late are dropped. */
  sendFilter(): void {
    this.generation = ++generations;
    this.rows.clear();
    this.asked.clear();
    this.element.dataset.state = 'filtering';
    this.post({ type: 'filter', generation: this.generation, filter: this.filter() });
  }

  onTimeline(generation: number, count: number, histogram: Histogram): void {
    if (generation !== this.generation) return;
    this.count = count;
    // Unreadable records belong to no scene, so the total is the position of the test action, not a sum of scenes.
    const total = Math.min(this.model.ref.index, this.model.historyLength);
    this.countText.textContent = `${count.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} records before the test action`;
    this.element.dataset.count = String(count);
    this.element.dataset.state = 'ready';
    this.list.setSource(count, (i) => this.rows.get(i));
    this.drawHistogram(histogram);
    this.scrollToOpened();
  }

  onRows(generation: number, rows: TimelineRow[]): void {
    if (generation !== this.generation) return;
    for (const r of rows) this.rows.set(r.pos, r);
    this.list.refresh();
    this.pageToOpened();
  }

  setLabels(items: readonly LabelledHistoryItem[]): void {
    this.labelled = new Map(items.map((i) => [i.index, i]));
    this.element.dataset.labelled = items.map((i) => i.index).join(' ');
    this.list.refresh();
  }

  /** Scrolls the list to record `index` (without a filter a record's row is its index) and highlights it. */
  reveal(index: number): void {
    this.opened = index;
    this.revealPending = true;
    this.scrollToOpened();
  }

  /** The reveal waits for the list's rows: a new list (the timeline's answer) starts at the top. */
  private scrollToOpened(): void {
    const f = this.filter();
    if (!this.revealPending || this.opened === undefined || this.element.dataset.state !== 'ready') return;
    this.revealPending = false;
    if (f.scenes.length === 0 && f.behaviours.length === 0)
      this.list.element.scrollTop = Math.max(0, (this.opened - 3) * ROW_HEIGHT);
    this.list.refresh();
    this.bringOpenedIntoView = true;
    this.pageToOpened();
  }

  /** Scrolls the page to the revealed record's row once it has rendered (its rows may arrive later). */
  private pageToOpened(): void {
    const row = this.bringOpenedIntoView ? this.list.element.querySelector('.vrow.opened') : null;
    if (!row) return;
    this.bringOpenedIntoView = false;
    row.scrollIntoView({ block: 'center' });
  }

  onRecord(index: number, text: string): void {
    this.opened = index;
    this.list.refresh();
    this.detail.textContent = `Record #${index}\n${text}`;
    this.detail.dataset.index = String(index);
    this.detail.removeAttribute('hidden');
    this.detail.scrollIntoView({ block: 'nearest' });
  }

  private ask(first: number, last: number): void {
    for (let w = Math.floor(first / ROWS_WINDOW); w * ROWS_WINDOW < Math.min(last, this.count); w++) {
      if (this.asked.has(w)) continue;
      this.asked.add(w);
      this.post({
        type: 'rows',
        generation: this.generation,
        from: w * ROWS_WINDOW,
        to: Math.min(this.count, (w + 1) * ROWS_WINDOW),
      });
    }
  }

  private renderRow(r: TimelineRow, row: HTMLElement): void {
    row.setAttribute('data-scene', r.scene);
    row.setAttribute('data-record', String(r.index));
    if (r.index === this.opened) row.classList.add('opened');
    const labels = this.labelled.get(r.index);
    if (labels) {
      row.setAttribute('data-labelled', labels.stale ? 'stale' : 'true');
      row.classList.add('labelled');
    }
    row.append(
      el('span', { className: 'idx', text: `#${r.index}` }),
      el('span', { className: 'ts', text: r.timestamp }),
      el('span', { className: 'sc', text: r.scene }),
      el('span', { className: 'bh', text: r.behaviours.join(', ') }),
      el('span', { className: 'sm', title: r.summary }, [
        labels
          ? el('span', {
              className: `row-labels${labels.stale ? ' stale' : ''}`,
              text: `⚑ ${labels.names.join(', ')}${labels.stale ? ' (stale)' : ''}`,
            })
          : null,
        r.summary,
      ]),
    );
  }

  private drawHistogram(h: Histogram): void {
    this.chart?.destroy();
    if (!h.edges.length) {
      this.chart = undefined;
      return;
    }
    const span = h.edges[h.edges.length - 1] - h.edges[0];
    const labels = h.edges.slice(0, -1).map((e) => binLabel(e, span));
    const colours = readColours();
    const fg = cssVar('--vscode-foreground', '#cccccc');
    const muted = cssVar('--vscode-descriptionForeground', '#9d9d9d');
    const grid = cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.35)');
    const datasets = h.series.map((s) => {
      // A scene keeps the hue and dotted fill it has in the OmniBehavior dashboard (one meaning per colour).
      return { label: s.scene, data: s.counts, ...areaStyle(sceneEncoding(colours, s.scene)), stack: 'scenes' };
    });
    this.chart = new Chart(this.canvas, {
      type: 'bar',
      data: { labels, datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { labels: { color: fg, boxHeight: 8 } } },
        scales: {
          x: { stacked: true, grid: { display: false }, ticks: { color: muted, maxRotation: 0, autoSkip: true } },
          y: {
            stacked: true,
            beginAtZero: true,
            title: { display: true, text: 'records', color: muted },
            grid: { color: grid },
            ticks: { color: muted, precision: 0 },
          },
        },
      },
    });
  }

  destroy(): void {
    this.chart?.destroy();
  }
}
