// Paints an encoding (palettes.ts) as a chart.js fill: a solid colour, or a pattern tile (hatch lines or dots over a
// light tint of the ink). The tile is drawn on the context the chart draws on: a canvas on the page and for PNG, the
// SVG exporter's mock context for SVG, where it becomes a vector <pattern> (so a saved chart keeps its hatches).
import type { ScriptableContext } from 'chart.js';
import { Context } from 'svgcanvas';
import type { Encoding, Fill, PaletteColours } from './palettes';

const TILE = 8;
/** the tint under a hatch or the dots, and the fill inside an outline */
const TINT = 0.3;

type Painter = (ctx: CanvasRenderingContext2D) => void;

const line =
  (x0: number, y0: number, x1: number, y1: number): Painter =>
  (ctx) => {
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
  };

// Diagonals continue over the tile's edge: the corner pieces make the lines meet on a repeated tile.
const DIAGONAL = [line(0, TILE, TILE, 0), line(-1, 1, 1, -1), line(TILE - 1, TILE + 1, TILE + 1, TILE - 1)];
const ANTIDIAGONAL = [line(0, 0, TILE, TILE), line(-1, TILE - 1, 1, TILE + 1), line(TILE - 1, -1, TILE + 1, 1)];
const STROKES: Partial<Record<Fill, Painter[]>> = {
  diagonal: DIAGONAL,
  antidiagonal: ANTIDIAGONAL,
  cross: [...DIAGONAL, ...ANTIDIAGONAL],
  horizontal: [line(0, TILE / 2, TILE, TILE / 2)],
};

function drawTile(ctx: CanvasRenderingContext2D, e: Encoding): void {
  ctx.fillStyle = e.color;
  ctx.globalAlpha = TINT;
  ctx.fillRect(0, 0, TILE, TILE);
  ctx.globalAlpha = 1;
  if (e.fill === 'dots') {
    ctx.beginPath();
    ctx.arc(TILE / 2, TILE / 2, 1.8, 0, 2 * Math.PI);
    ctx.fill();
    return;
  }
  ctx.strokeStyle = e.color;
  ctx.lineWidth = 1.4;
  ctx.beginPath();
  for (const p of STROKES[e.fill] ?? []) p(ctx);
  ctx.stroke();
}

const isSvg = (ctx: unknown): ctx is Context => ctx instanceof Context;

/** One pattern per drawing context and encoding (the SVG context keeps each tile once, in its <defs>). */
const patterns = new WeakMap<object, Map<string, CanvasPattern | string>>();

function patternOn(ctx: CanvasRenderingContext2D, e: Encoding): CanvasPattern | string {
  const key = `${e.color}|${e.fill}`;
  let cache = patterns.get(ctx);
  if (!cache) patterns.set(ctx, (cache = new Map()));
  const known = cache.get(key);
  if (known) return known;
  let made: CanvasPattern | null;
  if (isSvg(ctx)) {
    const tile = new Context({ width: TILE, height: TILE });
    drawTile(tile as unknown as CanvasRenderingContext2D, e);
    made = ctx.createPattern(tile as unknown as CanvasImageSource, 'repeat');
  } else {
    const tile = document.createElement('canvas');
    tile.width = tile.height = TILE;
    const tctx = tile.getContext('2d');
    if (tctx) drawTile(tctx, e);
    made = ctx.createPattern(tile, 'repeat');
  }
  const result = made ?? e.color;
  cache.set(key, result);
  return result;
}

/** A light tint of the ink (an outline's inside): any CSS colour, as the canvas reads it (#rrggbb or rgba()). */
function tint(color: string): string {
  const probe = document.createElement('canvas').getContext('2d');
  if (!probe) return 'transparent';
  probe.fillStyle = color;
  const c = probe.fillStyle;
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c);
  const rgba = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(c);
  if (hex)
    return `rgba(${hex
      .slice(1)
      .map((h) => parseInt(h, 16))
      .join(', ')}, ${TINT})`;
  if (rgba) return `rgba(${rgba.slice(1, 4).join(', ')}, ${TINT * Number(rgba[4])})`;
  return 'transparent';
}

/** The chart.js options of an area (bar) in this encoding: its fill, its border, and the same when hovered. */
export function areaStyle(e: Encoding): {
  backgroundColor: (c: ScriptableContext<'bar'>) => CanvasPattern | string;
  hoverBackgroundColor: (c: ScriptableContext<'bar'>) => CanvasPattern | string;
  borderColor: string;
  borderWidth: (c: ScriptableContext<'bar'>) => number;
} {
  const inside = e.fill === 'outline' ? tint(e.color) : e.color;
  const background = (c: ScriptableContext<'bar'>): CanvasPattern | string =>
    e.fill === 'solid' || e.fill === 'outline' ? inside : patternOn(c.chart.ctx, e);
  const width = e.fill === 'solid' ? 0 : e.fill === 'outline' ? 2 : 1;
  return {
    backgroundColor: background,
    hoverBackgroundColor: background,
    borderColor: e.color,
    // chart.js draws a bar's border as the ink clipped to the bar with the fill on top; svgcanvas's clip loses the
    // ring, so a saved SVG would show the ink under the whole (translucent) fill: no border there.
    borderWidth: (c) => (isSvg(c.chart.ctx) ? 0 : width),
  };
}

/** The theme's chart hues and text colours, as the page resolves them now (they change with the theme). */
export function readColours(): PaletteColours {
  const cs = getComputedStyle(document.body);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  return {
    blue: v('--vscode-charts-blue', '#3794ff'),
    orange: v('--vscode-charts-orange', '#d18616'),
    green: v('--vscode-charts-green', '#89d185'),
    purple: v('--vscode-charts-purple', '#b180d7'),
    red: v('--vscode-charts-red', '#f14c4c'),
    yellow: v('--vscode-charts-yellow', '#cca700'),
    fg: v('--vscode-foreground', '#cccccc'),
    muted: v('--vscode-descriptionForeground', '#9d9d9d'),
  };
}
