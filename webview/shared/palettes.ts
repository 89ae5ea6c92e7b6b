// One meaning per colour in the charts. Each kind of thing a chart tells apart has its own encoding, so
// that no two kinds ever look alike: runs are solid fills in the theme's chart hues (then other markers and dashes);
// a format's error classes are hatches in the foreground colour, one hatch per class, and its scenes dotted fills in
// the theme's hues (each format's pages hold their own palette, built from these); the data's own figures (α of the
// tasks, the real positive rates) are outlined in the muted colour.
// Pure: the theme's colours come in, the page (hatch.ts) paints them. A format's own marks (a pick's hit, miss or
// wrong side) keep their colours in its own stylesheets and are not chart series.
import type { PointStyle } from 'chart.js';

/** The workbench theme's chart hues (--vscode-charts-*) and the two text colours, as resolved CSS colours. */
export interface PaletteColours {
  blue: string;
  orange: string;
  green: string;
  purple: string;
  red: string;
  yellow: string;
  /** --vscode-foreground */
  fg: string;
  /** --vscode-descriptionForeground */
  muted: string;
}

export type Hue = 'blue' | 'orange' | 'green' | 'purple' | 'red' | 'yellow';
export const RUN_HUES: readonly Hue[] = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'];

/** How an area is filled: solid, one of the hatches (lines drawn over a light tint), dots, or an outline. */
export type Fill = 'solid' | 'diagonal' | 'antidiagonal' | 'cross' | 'horizontal' | 'dots' | 'outline';
export type Kind = 'run' | 'error' | 'scene' | 'data';

export interface Encoding {
  kind: Kind;
  /** the ink: the fill of a solid area, the lines of a hatch, the dots, the outline */
  color: string;
  fill: Fill;
  /** marker of a point (scatter charts) */
  style: PointStyle;
  /** dash of a line (empty: solid) */
  dash: number[];
}

const STYLES: PointStyle[] = ['circle', 'rect', 'triangle', 'rectRot', 'star', 'crossRot'];

/** The i-th run: the six theme hues, solid; then the markers change and lines are dashed. */
export function runEncoding(c: PaletteColours, i: number): Encoding {
  return {
    kind: 'run',
    color: c[RUN_HUES[i % RUN_HUES.length]],
    fill: 'solid',
    style: STYLES[Math.floor(i / RUN_HUES.length) % STYLES.length],
    dash: i >= RUN_HUES.length ? [6, 3] : [],
  };
}

/** A property of the data, not of a run (α of the tasks, the real positive rates): outlined in the muted colour. */
export function dataEncoding(c: PaletteColours): Encoding {
  return { kind: 'data', color: c.muted, fill: 'outline', style: 'circle', dash: [] };
}

const colourOf = (e: Encoding) => e.color.replace(/\s+/g, '').toLowerCase();

/** What tells an area (a bar, a legend box) apart: its colour and its fill. */
export function areaLook(e: Encoding): string {
  return `${colourOf(e)}|${e.fill}`;
}

/** What tells a point or a line apart: colour, fill, marker and dash. */
export function markLook(e: Encoding): string {
  return `${areaLook(e)}|${e.style}|${e.dash.join(',')}`;
}
