// `npm start -- --web --check`: what a new user sees after `npm ci && npm start`, checked in Debian's Chromium through
// playwright-core: the workbench loads, the Persona Lab entry is in the activity bar, and its Benchmarks view lists
// the sample. `.ci/run` runs it on its clean clone before anything else installs code-server.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { chromiumArgs, chromiumBin } from './chromium.mjs';

/**
 * Resolves with the Benchmarks view's first rows; rejects naming the step that did not happen within `timeoutMs`.
 * @param {string} url
 * @param {{ home: string, screenshot: string, timeoutMs?: number }} opts
 */
export async function checkWorkbench(url, { home, screenshot, timeoutMs = 120_000 }) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumBin,
    headless: true,
    args: chromiumArgs,
    env: { ...process.env, HOME: home },
    timeout: 60_000,
  });
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  let stage = 'the page to load';
  try {
    await page.goto(url, { timeout: timeoutMs });
    stage = 'the workbench (.monaco-workbench)';
    await page.locator('.monaco-workbench').waitFor({ timeout: timeoutMs });
    stage = 'the "Persona Lab" entry in the activity bar';
    const entry = page.locator('.part.activitybar .action-item a.action-label[aria-label^="Persona Lab"]').first();
    await entry.waitFor({ state: 'visible', timeout: timeoutMs });
    await entry.click();
    stage = 'a row in the Benchmarks view';
    const rows = page.locator(
      '.part.sidebar .pane:has(.pane-header h3.title:text-is("Benchmarks")) .customview-tree .monaco-list-row',
    );
    await rows.first().waitFor({ state: 'visible', timeout: timeoutMs });
    const texts = await rows.evaluateAll((els) =>
      els
        .slice(0, 4)
        .map((e) =>
          [e.querySelector('.label-name')?.textContent, e.querySelector('.label-description')?.textContent]
            .filter(Boolean)
            .join(' — '),
        ),
    );
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
    stage = 'a CJK glyph (the sample is Chinese)';
    if (!(await cjkRenders(page))) throw new Error(CJK_MISSING);
    return texts;
  } catch (e) {
    if (e instanceof Error && e.message === CJK_MISSING) throw e;
    throw new Error(`waiting for ${stage}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, { cause: e });
  } finally {
    await browser.close().catch(() => {});
  }
}

/** What a browser without a CJK font shows every post as, and the packages that fix it. */
export const CJK_MISSING =
  'Chinese text renders as empty boxes (tofu): this browser has no CJK font. Install one, e.g. ' +
  '`sudo apt-get install fonts-wqy-microhei` (or fonts-noto-cjk), then restart the browser.';

/**
 * Whether the page's browser draws CJK glyphs: 中 and 文 drawn in the workbench's font stack differ where a font has
 * them, and are the same box (the missing-glyph shape) where none does.
 * @param {import('playwright-core').Page} page
 */
export async function cjkRenders(page) {
  return page.evaluate(() => {
    const draw = (ch) => {
      // Runs in the page, where `document` exists.
      // eslint-disable-next-line no-undef
      const c = document.createElement('canvas');
      c.width = 48;
      c.height = 48;
      const ctx = c.getContext('2d');
      if (!ctx) return '';
      ctx.font = '32px system-ui, "Ubuntu", "Droid Sans", sans-serif';
      ctx.fillStyle = '#000';
      ctx.fillText(ch, 4, 38);
      return Array.from(ctx.getImageData(0, 0, 48, 48).data).join(',');
    };
    const a = draw('中');
    const b = draw('文');
    return a !== '' && a !== b && /[^0,]/.test(a);
  });
}
