// The chart export message the dashboards post (webview/shared/chartExport.ts renders the chart, the extension's
// src/extension/charts/ asks where to save it): one shape, used by the dashboards' protocols.
// The guard checks the types; the payload itself (size, data-URL prefix, PNG signature) is checked by the extension
// (src/extension/charts/payload.ts) before anything is written.
import { oneOf, refine, str, type ShapeType } from '../core/guards';

export const CHART_FORMATS = ['svg', 'png'] as const;
export type ChartFormat = (typeof CHART_FORMATS)[number];

/** The chart's file name without extension: lower-case words joined by '-' ("recall-by-step"). */
export const CHART_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const isChartName = refine(str, (s) => s.length <= 80 && CHART_NAME.test(s));

/** PNGs go at twice the chart's CSS pixel size (print). */
export const PNG_SCALE = 2;

/** The fields of the `saveChart` message: `message('saveChart', saveChartShape)` in each dashboard's protocol. */
export const saveChartShape = {
  chart: isChartName,
  format: oneOf(CHART_FORMATS),
  /** svg: the serialised document; png: a data:image/png;base64 URL */
  data: str,
};
export type SaveChart = ShapeType<typeof saveChartShape>;

/** A file name stem from free text (a run name, a scene): what CHART_NAME accepts, at most `max` characters. */
export function chartSlug(text: string, max = 40): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, max)
      .replace(/^-+|-+$/g, '') || 'chart'
  );
}
