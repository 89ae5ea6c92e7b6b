// `npm start -- --web --check`: what a new user sees after `npm ci && npm start`, checked in Debian's Chromium through
// playwright-core: the workbench loads, the Persona Lab entry is in the activity bar, and its Benchmarks view lists
// the sample. `.ci/run` runs it on its clean clone before anything else installs code-server.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const CHROMIUM = process.env.PERSONA_LAB_CHROMIUM || '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Resolves with the Benchmarks view's first rows; rejects naming the step that did not happen within `timeoutMs`.
 * @param {string} url
 * @param {{ home: string, screenshot: string, timeoutMs?: number }} opts
 */
export async function checkWorkbench(url, { home, screenshot, timeoutMs = 120_000 }) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
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
    return texts;
  } catch (e) {
    throw new Error(`waiting for ${stage}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, { cause: e });
  } finally {
    await browser.close().catch(() => {});
  }
}
