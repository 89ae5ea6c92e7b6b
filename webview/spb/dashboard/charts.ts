// The dashboard's figures with chart.js (bundled; only the parts used are registered; it needs no eval and sets
// sizes through the CSSOM). Colours come from the workbench theme's --vscode-* variables and follow theme changes.
// Clicking a point or a bar asks for the matching step list. The bar charts are in barCharts.ts.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LineElement,
  LinearScale,
  PointElement,
  ScatterController,
  Title,
  Tooltip,
  type ActiveElement,
  type ChartConfiguration,
  type ChartEvent,
  type ChartType,
  type Plugin,
  type PointStyle,
} from 'chart.js';
import {
  SCOPE_LABELS,
  type DashboardModel,
  type Scope,
  type StepFilter,
} from '../../../src/shared/spb/dashboardProtocol';
import type { Platform } from '../../../src/core/spb/types';
import { chartRenderer, type ChartRender } from '../../shared/chartExport';
import { fixed, pct, runLegend } from './dom';
import { readColours } from '../../shared/hatch';
import { runEncoding, type Encoding, type PaletteColours } from '../../shared/palettes';

Chart.register(
  ScatterController,
  BarController,
  LineElement,
  PointElement,
  BarElement,
  LinearScale,
  CategoryScale,
  Title,
  Tooltip,
  Legend,
);

export interface Theme {
  fg: string;
  muted: string;
  grid: string;
  /** the theme's chart hues and text colours the palettes (palettes.ts) are made of */
  colours: PaletteColours;
  font: string;
}

export function readTheme(): Theme {
  const cs = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  const colours = readColours();
  return {
    fg: colours.fg,
    muted: colours.muted,
    grid: v('--vscode-editorWidget-border', v('--vscode-panel-border', 'rgba(128,128,128,0.35)')),
    colours,
    font: v('--vscode-font-family', 'sans-serif'),
  };
}

const PLATFORM_STYLES: Record<Platform, PointStyle> = {
  weibo: 'circle',
  xiaohongshu: 'rect',
  toutiao: 'triangle',
  zhihu: 'rectRot',
  douban: 'star',
};

/** Colour, marker and dash of the i-th run (palettes.ts: runs only ever use these). */
export function runStyle(theme: Theme, i: number): Encoding {
  return runEncoding(theme.colours, i);
}

export type Pick = (filter: StepFilter) => void;

interface PointInfo {
  label: string;
  filter?: StepFilter;
}

type XY = { x: number; y: number };
type Scatter = Built<'scatter', XY[], unknown>;

/** Collects per-dataset, per-point hover text and click targets next to a chart's data. */
export class Info {
  readonly rows: PointInfo[][] = [];
  add(points: PointInfo[]): void {
    this.rows.push(points);
  }
  at(datasetIndex: number, index: number): PointInfo | undefined {
    return this.rows[datasetIndex]?.[index];
  }
}

function clickHandler(info: Info, pick: Pick) {
  return (_e: ChartEvent, elements: ActiveElement[]) => {
    const hit = elements.map((e) => info.at(e.datasetIndex, e.index)).find((p) => p?.filter);
    if (hit?.filter) pick(hit.filter);
  };
}

function hoverCursor(_e: ChartEvent, elements: ActiveElement[], chart: Chart): void {
  chart.canvas.style.cursor = elements.length ? 'pointer' : 'default';
}

/** Ticks of a share (0–1) in %, as the tables write it. */
export const percentTick = (value: number | string) => `${Math.round(Number(value) * 100)}%`;

/** `unit`: both axes are recalls on 0–1, ticked in %; `percentY`: only the y axis is a share. */
function axes(theme: Theme, x: string, y: string, unit = false, percentY = unit) {
  const axis = (title: string, percent: boolean) => ({
    type: 'linear' as const,
    title: { display: true, text: percent ? `${title} (%)` : title, color: theme.muted },
    grid: { color: theme.grid },
    ticks: { color: theme.muted, ...(percent ? { callback: percentTick } : {}) },
    ...(unit ? { min: 0, max: 1 } : {}),
  });
  return { x: axis(x, unit), y: axis(y, percentY) };
}

export function base(theme: Theme, info: Info, pick: Pick) {
  return {
    animation: false as const,
    responsive: true,
    maintainAspectRatio: false,
    onClick: clickHandler(info, pick),
    onHover: hoverCursor,
    interaction: { mode: 'nearest' as const, intersect: true },
    plugins: {
      legend: { labels: { color: theme.fg, usePointStyle: true, boxHeight: 6 } },
      tooltip: {
        callbacks: {
          label: (ctx: { datasetIndex: number; dataIndex: number }) =>
            info.at(ctx.datasetIndex, ctx.dataIndex)?.label ?? '',
        },
      },
    },
  };
}

/** Figure 3: each run's mean budget B̄ against its mean ratio ρ̄ (per platform, and the Avg. point in scope "all"). */
export function budgetRatio(m: DashboardModel, scope: Scope, theme: Theme, pick: Pick): Scatter {
  const info = new Info();
  const shown: Scope[] = scope === 'all' ? m.scopes : [scope];
  const datasets: ScatterConfig['data']['datasets'] = m.figures.map((f, i) => {
    const st = runStyle(theme, i);
    const pts: XY[] = [];
    const infos: PointInfo[] = [];
    const styles: PointStyle[] = [];
    const radius: number[] = [];
    for (const s of shown) {
      const op = f.scopes[s]?.op;
      if (!op || op.budget === null || op.ratio === null) continue;
      pts.push({ x: op.budget, y: op.ratio });
      styles.push(s === 'all' ? st.style : PLATFORM_STYLES[s]);
      radius.push(s === 'all' ? 7 : 4);
      infos.push({
        label: `${f.run} · ${SCOPE_LABELS[s]}: B̄ = ${fixed(op.budget)}, ρ̄ = ${fixed(op.ratio)} (${op.steps} steps; ρ defined on ${op.ratioSteps})`,
        filter: { run: f.run, scope: s, sort: 'budget' },
      });
    }
    info.add(infos);
    return {
      label: runLegend(m, f.run),
      data: pts,
      backgroundColor: st.color,
      borderColor: st.color,
      pointStyle: styles,
      pointRadius: radius,
      pointHoverRadius: radius.map((r) => r + 2),
    };
  });
  // The marker key inside the chart (a saved copy keeps it): one empty, grey entry per platform's marker.
  if (scope === 'all')
    for (const s of m.scopes) {
      if (s === 'all') continue;
      datasets.push({
        label: `${SCOPE_LABELS[s]} (marker)`,
        data: [],
        pointStyle: PLATFORM_STYLES[s],
        backgroundColor: theme.muted,
        borderColor: theme.muted,
      });
      info.add([]);
    }
  return scatter(
    datasets,
    axes(theme, 'budget B̄ = 1 − δ/K (mean)', 'ratio ρ̄ = R_nov / R_stab (mean)'),
    theme,
    info,
    pick,
  );
}

/** Figure 4: constraint line α·R_stab + (1−α)·R_nov = B, iso-F1 contours, and each run's operating point. */
export function constraint(m: DashboardModel, scope: Scope, theme: Theme, pick: Pick): Scatter {
  const info = new Info();
  const datasets: ChartConfiguration<'scatter', XY[]>['data']['datasets'] = [];
  for (const level of m.isoLevels) {
    datasets.push({
      label: `F1 = ${level.f1}`,
      data: level.curve,
      showLine: true,
      pointRadius: 0,
      pointHitRadius: 0,
      borderColor: theme.grid,
      borderWidth: 1,
    });
    info.add(level.curve.map(() => ({ label: `iso-F1 ${level.f1}` })));
  }
  m.figures.forEach((f, i) => {
    const st = runStyle(theme, i);
    const op = f.scopes[scope]?.op;
    if (!op || op.rStab === null || op.rNov === null) return;
    datasets.push({
      label: `${f.run}: B line`,
      data: op.segment,
      showLine: true,
      pointRadius: 0,
      pointHitRadius: 0,
      borderColor: st.color,
      borderWidth: 2,
      borderDash: st.dash,
    });
    info.add(
      op.segment.map(() => ({
        label: `${f.run}: ᾱ·R_stab + (1−ᾱ)·R_nov = B̄ with ᾱ = ${fixed(op.alpha)}, B̄ = ${fixed(op.budget)}`,
      })),
    );
    datasets.push({
      label: `${f.run}: iso-F1`,
      data: op.contour,
      showLine: true,
      pointRadius: 0,
      pointHitRadius: 0,
      borderColor: st.color,
      borderWidth: 1,
      borderDash: [4, 4],
    });
    info.add(op.contour.map(() => ({ label: `${f.run}: iso-F1 ${fixed(op.f1)} through the operating point` })));
    datasets.push({
      label: runLegend(m, f.run),
      data: [{ x: op.rStab, y: op.rNov }],
      pointRadius: 6,
      pointHoverRadius: 8,
      pointStyle: st.style,
      backgroundColor: st.color,
      borderColor: st.color,
    });
    info.add([
      {
        label: `${f.run} · ${SCOPE_LABELS[scope]}: R_stab ${pct(op.rStab)}, R_nov ${pct(op.rNov)}, F1 of the point ${pct(op.f1)}, ᾱ ${fixed(op.alpha)}, B̄ ${fixed(op.budget)}`,
        filter: { run: f.run, scope, sort: 'recall' },
      },
    ]);
  });
  const built = scatter(
    datasets,
    axes(theme, 'R_stab (stability recall)', 'R_nov (novelty recall)', true),
    theme,
    info,
    pick,
  );
  const legend = built.config.options?.plugins?.legend;
  if (legend)
    legend.labels = { ...legend.labels, filter: (item) => !item.text.includes(':') && !item.text.startsWith('F1 =') };
  built.config.plugins = [isoLabels(theme)];
  return built;
}

/** Writes "F1 = 0.4" beside each grey iso-F1 contour, on the canvas itself, so that a saved chart keeps it. */
function isoLabels(theme: Theme): Plugin<'scatter'> {
  return {
    id: 'isoLabels',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.fillStyle = theme.muted;
      ctx.font = `11px ${theme.font}`;
      ctx.textBaseline = 'bottom';
      chart.data.datasets.forEach((ds, i) => {
        if (!ds.label?.startsWith('F1 = ')) return;
        // The middle of the curve is where R_stab = R_nov = F1: the label sits just above and right of it.
        const data = ds.data as XY[];
        let at = 0;
        data.forEach((p, k) => {
          if (Math.abs(p.x - p.y) < Math.abs(data[at].x - data[at].y)) at = k;
        });
        const mid = chart.getDatasetMeta(i).data[at];
        if (!mid) return;
        const { x, y } = mid.getProps(['x', 'y'], true) as { x: number; y: number };
        if (x < chartArea.left || x > chartArea.right - 40 || y < chartArea.top + 12 || y > chartArea.bottom) return;
        ctx.fillText(ds.label, x + 4, y - 2);
      });
      ctx.restore();
    },
  };
}

/** Figure 5: mean Recall at each step index, one line per run. */
export function recallByStep(m: DashboardModel, scope: Scope, theme: Theme, pick: Pick): Scatter {
  const info = new Info();
  // n under each index: later indices average fewer users, and the axis says so (the most any shown run has).
  const counts = new Map<number, number>();
  for (const f of m.figures)
    for (const p of f.scopes[scope]?.byStep ?? [])
      if (p.recall !== null) counts.set(p.stepId, Math.max(counts.get(p.stepId) ?? 0, p.steps));
  const datasets = m.figures.map((f, i) => {
    const st = runStyle(theme, i);
    const by = (f.scopes[scope]?.byStep ?? []).filter((p) => p.recall !== null);
    info.add(
      by.map((p) => ({
        label: `${f.run} · step ${p.stepId}: Recall ${pct(p.recall)} (${p.steps} steps)`,
        filter: { run: f.run, scope, stepId: p.stepId, sort: 'recall' },
      })),
    );
    return {
      label: runLegend(m, f.run),
      data: by.map((p) => ({ x: p.stepId, y: p.recall ?? 0 })),
      showLine: true,
      borderColor: st.color,
      backgroundColor: st.color,
      pointStyle: st.style,
      pointRadius: 4,
      borderDash: st.dash,
    };
  });
  const scales = axes(theme, 'step index n (steps averaged below)', 'mean Recall', false, true);
  const tick = (value: number | string) => {
    const n = counts.get(Number(value));
    return n === undefined ? String(value) : [String(value), `(${n})`];
  };
  return scatter(
    datasets,
    {
      x: { ...scales.x, ticks: { ...scales.x.ticks, stepSize: 1, precision: 0, callback: tick } },
      y: { ...scales.y, min: 0, max: 1 },
    },
    theme,
    info,
    pick,
  );
}

type ScatterConfig = ChartConfiguration<'scatter', XY[]>;

/** A scatter figure's configuration: the shared options (hover text, click to list steps) and the given axes. */
function scatter(
  datasets: ScatterConfig['data']['datasets'],
  scales: NonNullable<ScatterConfig['options']>['scales'],
  theme: Theme,
  info: Info,
  pick: Pick,
): Scatter {
  return { info, config: { type: 'scatter', data: { datasets }, options: { ...base(theme, info, pick), scales } } };
}

export interface Built<TType extends ChartType, TData, TLabel> {
  config: ChartConfiguration<TType, TData, TLabel>;
  info: Info;
}

/**
 * Draws a chart on the canvas. The canvas's data-probe gets the position (CSS pixels) and hover text of its first
 * clickable element, so a test can click a real point; it is not used by the view itself.
 */
export function draw<TType extends ChartType, TData, TLabel>(
  canvas: HTMLCanvasElement,
  built: Built<TType, TData, TLabel>,
): { destroy(): void } {
  const chart = new Chart(canvas, built.config);
  // Each legend entry's fill as drawn (a colour, or "pattern" for a hatch), so a test can read which encodings it got.
  canvas.dataset.fills = JSON.stringify(
    chart.data.datasets.map((ds, di) => {
      const bg: unknown = chart.getDatasetMeta(di).controller.getStyle(0, false).backgroundColor;
      return { label: ds.label ?? '', fill: typeof bg === 'string' ? bg : 'pattern' };
    }),
  );
  delete canvas.dataset.probe;
  chart.data.datasets.forEach((_ds, di) => {
    if (canvas.dataset.probe) return;
    chart.getDatasetMeta(di).data.forEach((el, i) => {
      const target = built.info.at(di, i);
      if (canvas.dataset.probe || !target?.filter) return;
      // A bar's middle: its top edge (the tooltip position) can fall a pixel outside it; a point is its own centre.
      const { x, y, base } = el.getProps(['x', 'y', 'base'], true) as { x: number; y: number; base?: number };
      const p = { x, y: typeof base === 'number' && Number.isFinite(base) ? (y + base) / 2 : y };
      if (p.x !== null && p.y !== null && Number.isFinite(p.x) && Number.isFinite(p.y))
        canvas.dataset.probe = JSON.stringify({ x: Math.round(p.x), y: Math.round(p.y), label: target.label });
    });
  });
  return chart;
}

/** A figure as the page draws it, and as it is saved (built afresh for each: chart.js keeps the config it is given). */
export interface Figure {
  draw(canvas: HTMLCanvasElement): { destroy(): void };
  render: ChartRender;
}

export function figure<TType extends ChartType, TData, TLabel>(build: () => Built<TType, TData, TLabel>): Figure {
  return { draw: (canvas) => draw(canvas, build()), render: chartRenderer(() => build().config) };
}

export function applyDefaults(theme: Theme): void {
  Chart.defaults.color = theme.fg;
  Chart.defaults.borderColor = theme.grid;
  Chart.defaults.font.family = theme.font;
}

export { Chart };
