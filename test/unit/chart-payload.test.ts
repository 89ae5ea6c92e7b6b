// The extension's check of a chart a dashboard page asks to save (src/extension/charts/payload.ts), and the message
// both dashboards' protocols accept for it.
import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  MAX_CHART_CHARS,
  PNG_DATA_URL,
  checkChartPayload,
  describeChart,
  pngSize,
  withExtension,
} from '../../src/extension/charts/payload';
import { chartSlug, type SaveChart } from '../../src/shared/chartExport';
import { isWebviewToExtension as isDashboardMessage } from '../../src/shared/spb/dashboardProtocol';
import { isWebviewToExtension as isOmniMessage } from '../../src/shared/omni/dashboardProtocol';

/** A valid RGBA PNG of the given size (every chunk with its CRC), as a browser's toDataURL would give. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (1 + 4 * width), 0x7f);
  for (let y = 0; y < height; y++) rows[y * (1 + 4 * width)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SVG =
  '<svg version="1.1" xmlns="http://www.w3.org/2000/svg" width="413" height="300" viewBox="0 0 413 300">' +
  '<g><rect fill="#1e1e1e" x="0" y="0" width="413" height="300"/>' +
  '<text fill="#cccccc" font-family="sans-serif" x="10" y="20">mean Recall</text></g></svg>';

const save = (format: SaveChart['format'], data: string, chart = 'recall-by-step'): SaveChart => ({
  chart,
  format,
  data,
});

const reason = (msg: SaveChart) => {
  const r = checkChartPayload(msg);
  return r.ok ? 'accepted' : r.reason;
};

describe('chart payload: SVG', () => {
  it('accepts the serialised chart and keeps its bytes, name and size', () => {
    const r = checkChartPayload(save('svg', SVG));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.file.fileName).toBe('recall-by-step.svg');
    expect(new TextDecoder().decode(r.file.bytes)).toBe(SVG);
    expect([r.file.width, r.file.height]).toEqual([413, 300]);
    expect(describeChart('svg', r.file)).toBe('SVG 413×300, 1 KB');
  });

  it('accepts an XML declaration, and dataset text that only looks like markup (it is escaped)', () => {
    expect(reason(save('svg', `<?xml version="1.0" encoding="UTF-8"?>\n${SVG}`))).toBe('accepted');
    const escaped = SVG.replace('mean Recall', 'run &lt;script&gt;alert(1)&lt;/script&gt; onload=x javascript');
    expect(reason(save('svg', escaped))).toBe('accepted');
  });

  it('refuses what is not an SVG document, with the reason', () => {
    expect(reason(save('svg', '<html><svg></svg></html>'))).toBe(
      'recall-by-step.svg: not an SVG document (it must start with <svg)',
    );
    expect(reason(save('svg', SVG.replace('</svg>', '')))).toBe(
      'recall-by-step.svg: not an SVG document (it must end with </svg>)',
    );
    expect(reason(save('svg', SVG.replace(/ width="413" height="300"/, '')))).toBe(
      'recall-by-step.svg: the <svg> root has no width and height',
    );
  });

  it('refuses an SVG that could run script when opened in a browser', () => {
    const inject = (markup: string) => save('svg', SVG.replace('</g></svg>', `${markup}</g></svg>`));
    expect(reason(inject('<script>alert(1)</script>'))).toBe('recall-by-step.svg: it holds a script element');
    expect(reason(inject('<foreignObject><div/></foreignObject>'))).toBe(
      'recall-by-step.svg: it holds a foreignObject element',
    );
    expect(reason(inject('<rect onclick="alert(1)"/>'))).toBe(
      'recall-by-step.svg: it holds an event handler attribute',
    );
    expect(reason(inject('<a href="javascript:alert(1)"><text>x</text></a>'))).toBe(
      'recall-by-step.svg: it holds a javascript: URL',
    );
    expect(reason(save('svg', SVG.replace('<svg ', '<svg onload="alert(1)" ')))).toBe(
      'recall-by-step.svg: it holds an event handler attribute',
    );
  });
});

describe('chart payload: PNG', () => {
  it('decodes the data URL to the PNG bytes and reads its pixel size from IHDR', () => {
    const bytes = png(826, 600);
    const r = checkChartPayload(save('png', PNG_DATA_URL + bytes.toString('base64'), 'error-rates-demo-llm'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.file.fileName).toBe('error-rates-demo-llm.png');
    expect(Buffer.from(r.file.bytes).equals(bytes)).toBe(true);
    expect([r.file.width, r.file.height]).toEqual([826, 600]);
    expect(describeChart('png', r.file)).toMatch(/^PNG 826×600 px, \d+ KB$/);
  });

  it('refuses another image type, malformed base64 and bytes that are not a PNG', () => {
    const b64 = png(2, 2).toString('base64');
    expect(reason(save('png', `data:image/jpeg;base64,${b64}`))).toBe(
      'recall-by-step.png: not a PNG data URL (it must start with data:image/png;base64,)',
    );
    expect(reason(save('png', `${PNG_DATA_URL}${b64.slice(1)}`))).toBe(
      'recall-by-step.png: the base64 data is malformed',
    );
    expect(reason(save('png', `${PNG_DATA_URL}${b64.replace(/=*$/, '')}!!!!`))).toBe(
      'recall-by-step.png: the base64 data is malformed',
    );
    expect(reason(save('png', PNG_DATA_URL + Buffer.from('GIF89a, not a PNG at all').toString('base64')))).toBe(
      'recall-by-step.png: the data is not a PNG image (no PNG signature and IHDR chunk)',
    );
    expect(reason(save('png', SVG))).toMatch(/not a PNG data URL/);
  });

  it('refuses a payload over the size cap before decoding it', () => {
    const big = PNG_DATA_URL + 'A'.repeat(MAX_CHART_CHARS);
    expect(reason(save('png', big))).toBe(
      `recall-by-step: ${big.length} characters of png data, over the cap of ${MAX_CHART_CHARS}`,
    );
  });

  it('pngSize reads IHDR and nothing else', () => {
    expect(pngSize(png(3, 5))).toEqual({ width: 3, height: 5 });
    const zero = png(1, 1);
    zero.writeUInt32BE(0, 16);
    expect(pngSize(zero)).toBeUndefined();
    expect(pngSize(new Uint8Array(10))).toBeUndefined();
  });
});

describe('saveChart message in both dashboards’ protocols', () => {
  const ok = { type: 'saveChart', chart: 'positive-rates-demo-sim', format: 'png', data: PNG_DATA_URL };
  it('is accepted with a file-name-safe chart name and a known format', () => {
    expect(isDashboardMessage(ok)).toBe(true);
    expect(isOmniMessage(ok)).toBe(true);
  });
  it('refuses a name that is a path or not a slug, another format, or data that is not text', () => {
    for (const bad of [
      { ...ok, chart: '../../etc/passwd' },
      { ...ok, chart: 'Recall By Step' },
      { ...ok, chart: '' },
      { ...ok, chart: 'a'.repeat(81) },
      { ...ok, format: 'pdf' },
      { ...ok, data: 42 },
      { ...ok, data: undefined },
    ]) {
      expect(isDashboardMessage(bad), JSON.stringify(bad).slice(0, 80)).toBe(false);
      expect(isOmniMessage(bad)).toBe(false);
    }
  });
});

describe('file names', () => {
  it('chartSlug makes a name the protocol accepts from any run name', () => {
    expect(chartSlug('demo-llm')).toBe('demo-llm');
    expect(chartSlug('GPT-4o (2024/08) run #2')).toBe('gpt-4o-2024-08-run-2');
    expect(chartSlug('模型')).toBe('chart');
    expect(chartSlug('x'.repeat(100))).toHaveLength(40);
  });
  it('withExtension adds the format when the chosen name has none', () => {
    expect(withExtension('/w/figs/recall', 'svg')).toBe('/w/figs/recall.svg');
    expect(withExtension('/w/figs/recall.svg', 'svg')).toBe('/w/figs/recall.svg');
    expect(withExtension('/w/figs.v2/recall', 'png')).toBe('/w/figs.v2/recall.png');
  });
});
