// Charts saved as SVG and PNG in the real workbench on sample/: the run dashboard's Figure 5 as SVG, its error rates
// as PNG, its other three figures as SVG, and the OmniBehavior dashboard's bias chart as SVG, each through its
// toolbar button and code-server's save dialog (default name checked, answered with a path in a temp folder). The SVG must parse as XML with an <svg> root
// of the chart's size, keep the axis titles and the legend as text, and hold only plain colours (the theme's, as the
// page drew with, not CSS variables); the PNG must be a PNG at 2× the chart's CSS size with the chart drawn on it.
// The saved files are copied to test-results/e2e/chart-export-*.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerFileDialog } from './support/fileDialog';
import { repoRoot, resultsDir, startWorkbench, waitFor, type Workbench } from './harness';

const sample = join(repoRoot, 'sample');

interface SvgFacts {
  error: string | null;
  root: string;
  width: string | null;
  height: string | null;
  texts: { text: string; fill: string | null; font: string | null }[];
  /** fill and stroke values that are not none, url(#…) or #rrggbb */
  oddColours: string[];
}

describe('charts saved as SVG and PNG in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let runs: string[];
  let dash: Frame;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-charts-'));
    const cli = JSON.parse(
      execFileSync('node', [join(repoRoot, 'dist/cli.js'), 'score', sample, '--json'], { encoding: 'utf8' }),
    ) as { runs: { name: string }[] };
    runs = cli.runs.map((r) => r.name);
    wb = await startWorkbench({ folder: sample, theme: 'dark' });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`chart-export-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  /** Parses the SVG with the browser's XML parser (a parse error is a <parsererror> document). */
  const svgFacts = (text: string): Promise<SvgFacts> =>
    wb.page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
      const error = doc.querySelector('parsererror')?.textContent ?? null;
      const root = doc.documentElement;
      const odd = new Set<string>();
      for (const n of doc.querySelectorAll('[fill], [stroke]'))
        for (const a of ['fill', 'stroke']) {
          const v = n.getAttribute(a);
          if (v !== null && v !== 'none' && !/^url\(#[\w-]+\)$/.test(v) && !/^#[0-9a-f]{6}$/.test(v)) odd.add(v);
        }
      return {
        error,
        root: root.localName,
        width: root.getAttribute('width'),
        height: root.getAttribute('height'),
        texts: [...doc.querySelectorAll('text')].map((t) => ({
          text: t.textContent ?? '',
          fill: t.getAttribute('fill'),
          font: t.getAttribute('font-family'),
        })),
        oddColours: [...odd],
      };
    }, text);

  /** The chart's CSS size, as the page lays it out (whole pixels). */
  const cssSize = (frame: Frame, canvas: string) =>
    frame.locator(canvas).evaluate((c) => {
      const r = c.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height) };
    });

  /** Clicks a chart's save button and answers the save dialog, checking its default name; resolves when written. */
  async function saveVia(frame: Frame, scope: string, format: 'svg' | 'png', defaultName: string): Promise<string> {
    const target = join(tmp, `${basename(defaultName, `.${format}`)}-saved.${format}`);
    const button = frame.locator(`${scope} vscode-toolbar-button[data-format="${format}"]`);
    expect(await button.getAttribute('title')).toMatch(new RegExp(`^Save as ${format.toUpperCase()}`));
    await button.click();
    await answerFileDialog(wb.page, target, (v) => v.endsWith(`/${defaultName}`), `the save dialog on ${defaultName}`);
    await waitFor(() => existsSync(target), { timeout: 30_000, message: `${target} to be written` });
    mkdirSync(resultsDir, { recursive: true });
    copyFileSync(target, join(resultsDir, `chart-export-${basename(target)}`));
    return target;
  }

  it('saves Figure 5 of the run dashboard as SVG, text kept as text in the theme colours', async () => {
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await wb.runCommand('Persona Lab: Open Run Dashboard');
    dash = await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]', { timeout: 60_000 });
    const card = '[data-chart="fig5"]';
    await waitFor(async () => (await dash.locator(card).getAttribute('data-rendered')) === 'true', {
      message: 'Figure 5 drawn',
    });
    await dash.locator(card).scrollIntoViewIfNeeded();
    await wb.screenshot('chart-export-toolbar');
    const size = await cssSize(dash, `${card} canvas`);
    const file = await saveVia(dash, card, 'svg', 'recall-by-step.svg');
    const line = await wb.waitForExtensionHostLine(/dashboard: saved chart recall-by-step \(SVG/);
    expect(line).toContain(file);

    const svg = await svgFacts(readFileSync(file, 'utf8'));
    expect(svg.error).toBeNull();
    expect(svg.root).toBe('svg');
    expect([Number(svg.width), Number(svg.height)]).toEqual([size.width, size.height]);
    const texts = svg.texts.map((t) => t.text);
    // Axis titles, the legend's run names, and tick labels: all <text>.
    expect(texts).toContain('step index n (steps averaged below)');
    // Each index carries its n, so the export keeps how few steps the last points average.
    expect(texts.filter((t) => /^\(\d+\)$/.test(t)).length, texts.join(' | ')).toBeGreaterThan(1);
    expect(texts).toContain('mean Recall (%)');
    for (const run of runs) expect(texts, `legend entry ${run}`).toContain(run);
    expect(
      texts.some((t) => /^\d{1,3}%$/.test(t)),
      'the Recall axis ticks, in % as the tables',
    ).toBe(true);
    // Colours are the theme's as resolved by the page (data-chart-color is the foreground the charts drew with).
    expect(svg.oddColours).toEqual([]);
    expect(readFileSync(file, 'utf8')).not.toContain('var(');
    const fg = await dash.locator('#dash-root').getAttribute('data-chart-color');
    const legend = svg.texts.find((t) => t.text === runs[0]);
    expect(legend?.fill).toBe(normaliseHex(fg ?? ''));
    expect(legend?.font).toBeTruthy();
    expect(wb.consoleLog.filter((l) => /Content Security Policy|Refused to|pageerror/.test(l))).toEqual([]);
    // One confirmation, naming the file.
    await waitFor(async () => (await wb.notifications()).some((n) => n.includes('saved the chart to')), {
      message: 'the confirmation',
    });
    expect((await wb.notifications()).filter((n) => n.includes(basename(file)))).toHaveLength(1);
  });

  it('saves the error-rate bars as PNG at twice the chart’s CSS size', async () => {
    const card = '[data-chart="errors"]';
    await dash.locator(card).scrollIntoViewIfNeeded();
    const size = await cssSize(dash, `${card} canvas`);
    const focus = await dash
      .locator('vscode-single-select[aria-label="Run whose error rates are drawn"]')
      .evaluate((s: HTMLElement & { value: string }) => s.value);
    const file = await saveVia(dash, card, 'png', `error-rates-${focus}.png`);
    await wb.waitForExtensionHostLine(
      new RegExp(`dashboard: saved chart error-rates-${focus} \\(PNG ${2 * size.width}×${2 * size.height} px`),
    );
    const bytes = readFileSync(file);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([2 * size.width, 2 * size.height]);
    // The chart is drawn on it: the page's background, and the four error colours' bars among many colours.
    const colours = await wb.page.evaluate(async (b64) => {
      const blob = new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' });
      const bitmap = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const seen = new Set<number>();
      let opaque = 0;
      for (let i = 0; i < data.length; i += 4) {
        seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        if (data[i + 3] === 255) opaque++;
      }
      return { distinct: seen.size, opaque, pixels: data.length / 4 };
    }, bytes.toString('base64'));
    expect(colours.opaque).toBe(colours.pixels);
    expect(colours.distinct).toBeGreaterThan(20);
    // The chart names its run inside itself, so that an exported copy still says whose error rates these are.
    const svgFile = await saveVia(dash, card, 'svg', `error-rates-${focus}.svg`);
    await wb.waitForExtensionHostLine(`dashboard: saved chart error-rates-${focus} (SVG`);
    const svg = await svgFacts(readFileSync(svgFile, 'utf8'));
    expect(svg.texts.map((t) => t.text)).toContain(`run ${focus}`);
    // Each error class is its own hatch, a vector <pattern> the saved bars and legend boxes fill with:
    // four different tiles, and the legend names the four classes.
    const hatches = await wb.page.evaluate(
      (text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        const used = new Set(
          [...doc.querySelectorAll('[fill^="url(#"]')].map(
            (n) => /^url\(#([\w-]+)\)$/.exec(n.getAttribute('fill')!)?.[1],
          ),
        );
        const tiles = [...doc.querySelectorAll('pattern')]
          .filter((p) => used.has(p.id))
          .map((p) => [...p.querySelectorAll('path')].map((d) => d.getAttribute('d')).join(' '));
        return { tiles, filled: doc.querySelectorAll('[fill^="url(#"]').length };
      },
      readFileSync(svgFile, 'utf8'),
    );
    expect(new Set(hatches.tiles).size, hatches.tiles.join('\n')).toBe(4);
    expect(hatches.filled, 'bars and legend boxes filled with a hatch').toBeGreaterThanOrEqual(4 * 2);
    for (const t of ['Err_decay', 'Err_peer', 'Err_viral', 'Err_random'])
      expect(svg.texts.map((x) => x.text)).toContain(t);
    expect(svg.oddColours).toEqual([]);
  });

  it('saves the other three figures as SVG too (points of every marker, the constraint lines, the α bars)', async () => {
    const figures = [
      { id: 'fig3', name: 'budget-vs-ratio', axis: 'budget B̄ = 1 − δ/K (mean)' },
      { id: 'fig4', name: 'constraint-iso-f1', axis: 'R_stab (stability recall) (%)' },
      { id: 'alpha', name: 'stability-ratio', axis: 'stability ratio ᾱ' },
    ];
    for (const f of figures) {
      const file = await saveVia(dash, `[data-chart="${f.id}"]`, 'svg', `${f.name}.svg`);
      await wb.waitForExtensionHostLine(`dashboard: saved chart ${f.name} (SVG`);
      const source = readFileSync(file, 'utf8');
      const svg = await svgFacts(source);
      expect(svg.error, f.id).toBeNull();
      const texts = svg.texts.map((t) => t.text);
      expect(texts, f.id).toContain(f.axis);
      // The grey iso-F1 contours say their F1 inside the chart, so the export keeps it.
      if (f.id === 'fig4')
        expect(texts.filter((t) => /^F1 = 0\.\d+$/.test(t)).length, 'iso-F1 labels').toBeGreaterThan(1);
      // α is the tasks': the sample's runs cover the same steps, so one bar per platform under one legend entry.
      if (f.id === 'alpha') expect(texts, 'the α legend').toContain("the tasks' (the same for every shown run)");
      else for (const run of runs) expect(texts, `${f.id} legend entry ${run}`).toContain(run);
      expect(svg.oddColours, f.id).toEqual([]);
      expect((source.match(/<path /g) ?? []).length, `${f.id} shapes`).toBeGreaterThan(f.id === 'alpha' ? 5 : 20);
    }
  });

  it('saves the OmniBehavior bias chart as SVG', async () => {
    await wb.runCommand('Persona Lab: Open OmniBehavior Dashboard');
    const frame = await wb.findWebviewFrame('#omnidash-root[data-run]', { timeout: 60_000 });
    const run = (await frame.locator('#omnidash-root').getAttribute('data-run')) ?? '';
    const name = `positive-rates-${run.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    const scenes = await frame.locator('[data-table="bias"] tbody th').allTextContents();
    expect(scenes.length).toBeGreaterThan(0);
    await frame.locator('.chart-box').scrollIntoViewIfNeeded();
    await wb.screenshot('chart-export-omni-positive-rates');
    const size = await cssSize(frame, '.chart-box canvas');
    const file = await saveVia(frame, '.chart-head', 'svg', `${name}.svg`);
    await wb.waitForExtensionHostLine(new RegExp(`OmniBehavior dashboard: saved chart ${name} \\(SVG`));
    const svg = await svgFacts(readFileSync(file, 'utf8'));
    expect(svg.error).toBeNull();
    expect([svg.root, Number(svg.width), Number(svg.height)]).toEqual(['svg', size.width, size.height]);
    const texts = svg.texts.map((t) => t.text);
    for (const t of ['positive rate (%)', 'real', 'predicted', ...scenes]) expect(texts, t).toContain(t);
    expect(svg.oddColours).toEqual([]);
    // The page's other message still does what it did: Choose Run… opens the run picker.
    await frame.locator('vscode-button', { hasText: 'Choose Run…' }).click();
    const title = wb.quick.title('Choose OmniBehavior Run');
    await title.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.quick.press('Escape');
    await title.waitFor({ state: 'hidden', timeout: 30_000 });
  });
});

/** '#CCC' / '#cccccc' / 'rgb(204, 204, 204)' → '#cccccc' (how the exported SVG writes colours). */
function normaliseHex(css: string): string {
  const s = css.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(s);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  const rgb = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(s);
  if (rgb)
    return `#${rgb
      .slice(1, 4)
      .map((n) => Number(n).toString(16).padStart(2, '0'))
      .join('')}`;
  return s;
}
