// A chart the page asks to save, checked before anything is written: the page is not trusted (it shows dataset text),
// so the extension writes only an SVG document without scripts or a real PNG, within a size cap. Pure (no vscode):
// test/unit/chart-payload.test.ts.
import { type ChartFormat, type SaveChart } from '../../shared/chartExport';

/** Characters of `data` accepted: a chart is tens to hundreds of KB; a page that sends more is refused. */
export const MAX_CHART_CHARS = 16 * 1024 * 1024;

export const PNG_DATA_URL = 'data:image/png;base64,';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface ChartFile {
  /** the default file name: `${chart}.${format}` */
  fileName: string;
  bytes: Uint8Array;
  /** pixel size (PNG) or the root's width and height (SVG) */
  width: number;
  height: number;
}

export type CheckedChart = { ok: true; file: ChartFile } | { ok: false; reason: string };

const refuse = (reason: string): CheckedChart => ({ ok: false, reason });

/** Checks and decodes what the page sent; `reason` says what was wrong (logged, nothing is written). */
export function checkChartPayload(msg: SaveChart): CheckedChart {
  if (msg.data.length > MAX_CHART_CHARS)
    return refuse(
      `${msg.chart}: ${msg.data.length} characters of ${msg.format} data, over the cap of ${MAX_CHART_CHARS}`,
    );
  const fileName = `${msg.chart}.${msg.format}`;
  const decoded = msg.format === 'svg' ? checkSvg(msg.data) : checkPng(msg.data);
  if (typeof decoded === 'string') return refuse(`${fileName}: ${decoded}`);
  return { ok: true, file: { fileName, ...decoded } };
}

type Decoded = Omit<ChartFile, 'fileName'>;

function checkSvg(data: string): Decoded | string {
  const text = data.replace(/^<\?xml[^>]*\?>\s*/, '');
  const root = /^<svg\b([^<>]*)>/.exec(text);
  if (!root) return 'not an SVG document (it must start with <svg)';
  if (!/<\/svg>\s*$/.test(text)) return 'not an SVG document (it must end with </svg>)';
  // Text content and attribute values are escaped (&lt; &gt;), so every <…> run is a tag; the chart draws only
  // shapes and text, and a file that could run script when opened in a browser is refused.
  const tag = /<[^<>]*>/g;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const t = m[0];
    if (/^<\s*(script|foreignObject|iframe|image|use)\b/i.test(t))
      return `it holds a ${t.slice(1).split(/[\s>]/)[0]} element`;
    if (/\son[a-z]+\s*=/i.test(t)) return 'it holds an event handler attribute';
    if (/javascript:/i.test(t)) return 'it holds a javascript: URL';
  }
  const size = (name: string) => Number(new RegExp(`\\s${name}="([0-9.]+)"`).exec(root[1])?.[1]);
  const width = size('width');
  const height = size('height');
  if (!(width > 0) || !(height > 0)) return 'the <svg> root has no width and height';
  return { bytes: new TextEncoder().encode(data), width, height };
}

function checkPng(data: string): Decoded | string {
  if (!data.startsWith(PNG_DATA_URL)) return `not a PNG data URL (it must start with ${PNG_DATA_URL})`;
  const b64 = data.slice(PNG_DATA_URL.length);
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return 'the base64 data is malformed';
  const bytes = new Uint8Array(Buffer.from(b64, 'base64'));
  const size = pngSize(bytes);
  if (!size) return 'the data is not a PNG image (no PNG signature and IHDR chunk)';
  return { bytes, ...size };
}

/** Width and height from a PNG's IHDR chunk, or undefined when `bytes` is not a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return undefined;
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** The path the user chose, with the format's extension added when the name has none. */
export function withExtension(path: string, format: ChartFormat): string {
  const base = path.split(/[\\/]/).pop() ?? '';
  return base.includes('.') ? path : `${path}.${format}`;
}

/** How the saved file is described in the log: "SVG 640×300, 52 KB" or "PNG 1280×600 px, 61 KB". */
export function describeChart(format: ChartFormat, file: ChartFile): string {
  const kb = Math.max(1, Math.round(file.bytes.length / 1024));
  return `${format.toUpperCase()} ${file.width}×${file.height}${format === 'png' ? ' px' : ''}, ${kb} KB`;
}
