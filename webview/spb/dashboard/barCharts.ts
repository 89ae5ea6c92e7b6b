// The dashboard's bar charts: error rates and stability ratio ᾱ per platform. A click on a bar asks for its steps.
import {
  ERROR_KEYS,
  METRIC_LABELS,
  SCOPE_LABELS,
  type DashboardModel,
} from '../../../src/shared/spb/dashboardProtocol';
import type { Platform } from '../../../src/core/spb/types';
import { Info, base, percentTick, runStyle, type Built, type Pick, type Theme } from './charts';
import { fixed, pct, runLegend } from './dom';
import { areaStyle } from '../../shared/hatch';
import { dataEncoding } from '../../shared/palettes';
import { errorEncoding } from '../shared/palette';

/** `percent`: the bars are shares (0–1), ticked in % as the tables write them. */
function barScales(theme: Theme, y: string, percent = false) {
  return {
    x: { type: 'category' as const, grid: { display: false }, ticks: { color: theme.muted } },
    y: {
      type: 'linear' as const,
      min: 0,
      title: { display: true, text: y, color: theme.muted },
      grid: { color: theme.grid },
      ticks: { color: theme.muted, ...(percent ? { callback: percentTick } : {}) },
    },
  };
}

/** The four error rates per platform for the focus run (the Table 6 figures). */
export function errorBars(m: DashboardModel, theme: Theme, pick: Pick): Built<'bar', (number | null)[], string> {
  const info = new Info();
  const f = m.figures.find((x) => x.run === m.focus) ?? m.figures[0];
  const platforms = f?.platforms ?? [];
  const datasets = ERROR_KEYS.map((key) => {
    info.add(
      platforms.map((p) => ({
        label: `${f.run} · ${SCOPE_LABELS[p.platform]}: ${METRIC_LABELS[key]} ${pct(p.errors[key])} % (M̄ over ${p.steps} steps)`,
        filter: { run: f.run, scope: p.platform, errorKey: key, sort: key },
      })),
    );
    return {
      label: METRIC_LABELS[key],
      data: platforms.map((p) => p.errors[key]),
      ...areaStyle(errorEncoding(theme.colours, key)),
    };
  });
  return {
    info,
    config: {
      type: 'bar',
      data: { labels: platforms.map((p) => SCOPE_LABELS[p.platform]), datasets },
      options: {
        ...base(theme, info, pick),
        scales: barScales(theme, 'error rate M̄ (%)', true),
        plugins: {
          ...base(theme, info, pick).plugins,
          // Boxes big enough to show each class's hatch (a point-style dot would hide it).
          legend: { labels: { color: theme.fg, boxWidth: 26, boxHeight: 12 } },
          // The run is in the chart itself, so a saved copy still says whose errors these are.
          title: { display: Boolean(f), text: f ? `run ${runLegend(m, f.run)}` : '', color: theme.fg },
        },
      },
    },
  };
}

/** The label of the α chart's one bar set when every shown run covers the same steps. */
export const ALPHA_DATA_LABEL = "the tasks' (the same for every shown run)";

/**
 * ᾱ = |T_keep| / K per platform. α belongs to the data, not the run: one bar per platform when the shown runs give the
 * same figures (they cover the same steps), one per run only when their steps differ.
 */
export function alphaBars(m: DashboardModel, theme: Theme, pick: Pick): Built<'bar', (number | null)[], string> {
  const info = new Info();
  const platforms = m.scopes.filter((s): s is Platform => s !== 'all');
  const values = m.figures.map((f) =>
    platforms.map((p) => f.platforms.find((x) => x.platform === p)?.alpha ?? null).join(),
  );
  const same = values.every((v) => v === values[0]);
  const shown = same ? m.figures.slice(0, 1) : m.figures;
  const datasets = shown.map((f, i) => {
    const st = runStyle(theme, i);
    const byP = new Map(f.platforms.map((p) => [p.platform, p]));
    info.add(
      platforms.map((p) => ({
        label: `${same ? 'tasks' : f.run} · ${SCOPE_LABELS[p]}: ᾱ ${fixed(byP.get(p)?.alpha)} (${byP.get(p)?.steps ?? 0} steps)`,
        filter: { run: f.run, scope: p, sort: 'alpha' },
      })),
    );
    return {
      label: same ? ALPHA_DATA_LABEL : f.run,
      data: platforms.map((p) => byP.get(p)?.alpha ?? null),
      // α of the tasks is the data's, outlined in the muted colour; per run (steps differ) in the run's colour.
      ...areaStyle(same ? dataEncoding(theme.colours) : st),
    };
  });
  const scales = barScales(theme, 'stability ratio ᾱ');
  return {
    info,
    config: {
      type: 'bar',
      data: { labels: platforms.map((p) => SCOPE_LABELS[p]), datasets },
      options: {
        ...base(theme, info, pick),
        scales: { ...scales, y: { ...scales.y, max: 1 } },
        plugins: {
          ...base(theme, info, pick).plugins,
          legend: { labels: { color: theme.fg, boxWidth: 26, boxHeight: 12 } },
        },
      },
    },
  };
}
