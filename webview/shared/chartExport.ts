// Saving a chart as SVG or PNG: the toolbar on a chart, and the renderers. Both draw the chart again off screen from
// a fresh configuration (animation and events off, fixed size, the page's background behind it): PNG on a canvas at
// PNG_SCALE× the chart's CSS size, SVG on svgcanvas's mock 2D context, where text stays <text> (a paper can edit the
// labels). Colours are the resolved theme colours the page drew with, written as plain colours.
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import { BasicPlatform, Chart, type ChartConfiguration, type ChartType, type Plugin } from 'chart.js';
import { Context } from 'svgcanvas';
import { PNG_SCALE, type ChartFormat, type SaveChart } from '../../src/shared/chartExport';
import { el } from './dom';

export interface Size {
  width: number;
  height: number;
}

/** Renders one chart in a format: the SVG document, or a PNG data URL. */
export type ChartRender = (format: ChartFormat, size: Size, background: string) => string;

/** A renderer of the chart that `config` configures; it is called for a fresh configuration on each save. */
export function chartRenderer<TType extends ChartType, TData, TLabel>(
  config: () => ChartConfiguration<TType, TData, TLabel>,
): ChartRender {
  return (format, size, background) => {
    const offscreen = (item: HTMLCanvasElement, scale: number, svg: boolean) => {
      const c = config();
      // No DOM platform: no resize observer or event listeners on a canvas that is never shown.
      c.platform = BasicPlatform;
      c.plugins = [...(c.plugins ?? []), backgroundPlugin(background)];
      // chart.js strokes lines through a Path2D where it can, which a mock context cannot read; with segment
      // styles (none here) it draws them with moveTo/lineTo.
      const segments = { ...c.options?.datasets, scatter: { segment: {} }, line: { segment: {} } };
      c.options = Object.assign({}, c.options, {
        responsive: false,
        animation: false,
        devicePixelRatio: scale,
        events: [],
        ...(svg ? { datasets: segments } : {}),
      });
      return new Chart(item, c);
    };
    if (format === 'png') {
      const canvas = document.createElement('canvas');
      canvas.width = size.width;
      canvas.height = size.height;
      const chart = offscreen(canvas, PNG_SCALE, false);
      const url = chart.toBase64Image('image/png');
      chart.destroy();
      return url;
    }
    const ctx = new SvgContext(size);
    const chart = offscreen({ getContext: () => ctx } as unknown as HTMLCanvasElement, 1, true);
    const svg = ctx.getSvg();
    svg.setAttribute('viewBox', `0 0 ${size.width} ${size.height}`);
    plainColours(svg);
    const text = new XMLSerializer().serializeToString(svg);
    chart.destroy(); // clears the context: after serialising
    return text;
  };
}

function backgroundPlugin<TType extends ChartType>(color: string): Plugin<TType> {
  return {
    id: 'personaLabBackground',
    beforeDraw: (chart) => {
      const { ctx, width, height } = chart;
      ctx.save();
      ctx.fillStyle = color;
      ctx.fillRect(0, 0, width, height);
      ctx.restore();
    },
  };
}

const ANCHOR: Record<string, string> = { left: 'start', right: 'end', center: 'middle', start: 'start', end: 'end' };
const BASELINE: Record<string, string> = {
  alphabetic: 'alphabetic',
  hanging: 'hanging',
  top: 'text-before-edge',
  bottom: 'text-after-edge',
  middle: 'central',
};

/**
 * svgcanvas's context with its text method redone: the library parses `ctx.font` through a span's style attribute,
 * which this page's CSP refuses (no inline styles), losing the font and reporting a violation. The same element
 * and attributes, with the font parsed through the CSSOM.
 */
class SvgContext extends Context {
  private readonly fonts = new Map<string, CSSStyleDeclaration>();

  protected override __applyText(text: string, x: number, y: number, action: 'fill' | 'stroke'): void {
    let font = this.fonts.get(this.font);
    if (!font) {
      font = document.createElement('span').style;
      font.font = this.font;
      this.fonts.set(this.font, font);
    }
    const parent = this.__closestGroupOrSvg();
    const node = this.__createElement(
      'text',
      {
        'font-family': font.fontFamily,
        'font-size': font.fontSize,
        'font-style': font.fontStyle,
        'font-weight': font.fontWeight,
        x,
        y,
        'text-anchor': ANCHOR[this.textAlign] ?? 'start',
        'dominant-baseline': BASELINE[this.textBaseline] ?? 'alphabetic',
      },
      true,
    );
    node.appendChild(this.__document.createTextNode(text));
    this.__currentElement = node;
    this.__applyTransformation(node);
    this.__applyStyleToCurrentElement(action);
    parent.appendChild(node);
  }
}

/**
 * Rewrites every fill and stroke as a plain #rrggbb with its alpha in fill-/stroke-opacity: whatever CSS colour
 * syntax the theme used (8-digit hex, rgba, names), as the canvas understood it, for editors that know only SVG 1.1.
 */
function plainColours(svg: SVGSVGElement): void {
  const probe = document.createElement('canvas').getContext('2d');
  if (!probe) return;
  const parse = (value: string): string | undefined => {
    probe.fillStyle = '#000000';
    probe.fillStyle = value;
    const a = probe.fillStyle;
    probe.fillStyle = '#ffffff';
    probe.fillStyle = value;
    return a === probe.fillStyle ? a : undefined; // an invalid colour leaves either sentinel in place
  };
  for (const node of svg.querySelectorAll('[fill], [stroke]')) {
    for (const attr of ['fill', 'stroke']) {
      const value = node.getAttribute(attr);
      if (!value || value === 'none' || value.startsWith('url(')) continue;
      const colour = parse(value);
      if (!colour) continue;
      const rgba = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(colour);
      if (!rgba) {
        node.setAttribute(attr, colour);
        continue;
      }
      const hex = rgba
        .slice(1, 4)
        .map((n) => Number(n).toString(16).padStart(2, '0'))
        .join('');
      node.setAttribute(attr, `#${hex}`);
      const opacity = Number(node.getAttribute(`${attr}-opacity`) ?? 1) * Number(rgba[4]);
      node.setAttribute(`${attr}-opacity`, String(Math.round(opacity * 1000) / 1000));
    }
  }
}

/** The first non-transparent background from `node` up: what the chart is seen on. */
export function backgroundOf(node: Element | null): string {
  for (let n = node; n; n = n.parentElement) {
    const bg = getComputedStyle(n).backgroundColor;
    if (bg && bg !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return '#ffffff';
}

/**
 * The `saveChart` message for the chart drawn on `canvas`, rendered at the canvas's CSS size (rounded to whole
 * pixels) on its card's background; undefined when the chart is not laid out.
 */
export function saveChartMessage(
  canvas: HTMLCanvasElement,
  render: ChartRender,
  chart: string,
  format: ChartFormat,
): ({ type: 'saveChart' } & SaveChart) | undefined {
  const rect = canvas.getBoundingClientRect();
  const size = { width: Math.round(rect.width), height: Math.round(rect.height) };
  if (!size.width || !size.height) return undefined;
  return { type: 'saveChart', chart, format, data: render(format, size, backgroundOf(canvas)) };
}

const BUTTONS: { format: ChartFormat; label: string; title: string }[] = [
  { format: 'svg', label: 'Save as SVG', title: 'Save as SVG (vector: the text stays editable)' },
  { format: 'png', label: 'Save as PNG', title: `Save as PNG (${PNG_SCALE}× the pixel size shown, for print)` },
];

/** The chart's Save as SVG / Save as PNG buttons. */
export function chartToolbar(onSave: (format: ChartFormat) => void): HTMLElement {
  const bar = el('div', { className: 'chart-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Save the chart' } });
  for (const b of BUTTONS) {
    const button = el('vscode-toolbar-button', { title: b.title, attrs: { 'data-format': b.format } }, [
      b.format.toUpperCase(),
    ]);
    button.icon = 'save';
    button.label = b.label;
    button.addEventListener('click', () => onSave(b.format));
    bar.appendChild(button);
  }
  return bar;
}
