// Debian's Chromium through playwright-core, headless, one page per workbench; its console lines are kept.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumArgs, chromiumBin } from '../../../scripts/lib/chromium.mjs';

export { chromiumArgs, chromiumBin };

export interface BrowserPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console lines of the extension host (`[Extension Host] ...`) as the workbench relays them, in order. */
  extensionHostLog: string[];
  /** All browser console lines and page errors, for diagnostics. */
  consoleLog: string[];
}

export function checkChromium(): void {
  if (!existsSync(chromiumBin)) throw new Error(`Chromium not found at ${chromiumBin} (apt-get install chromium)`);
}

/** Launches Chromium with `env` (HOME is the run's), headless. */
export function launchChromium(env: NodeJS.ProcessEnv): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumBin,
    headless: true,
    args: chromiumArgs,
    env: env as Record<string, string>,
    timeout: 60_000,
  });
}

/** Launches Chromium with `env` (HOME is the run's) and opens one page of `viewport`, recording its console. */
export async function launchBrowser(
  env: NodeJS.ProcessEnv,
  viewport: { width: number; height: number },
  onBrowser: (browser: Browser) => void,
): Promise<BrowserPage> {
  const browser = await launchChromium(env);
  onBrowser(browser); // so that a failure from here on still closes it
  return { browser, ...(await openPage(browser, viewport)) };
}

/** Opens a page of `viewport` in a new context of `browser`, recording its console. */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<Omit<BrowserPage, 'browser'>> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { context, page, ...watchConsole(page) };
}

/** Records the console of `page`: the extension host's lines, and all lines and page errors. */
export function watchConsole(page: Page): { extensionHostLog: string[]; consoleLog: string[] } {
  const extensionHostLog: string[] = [];
  const consoleLog: string[] = [];
  page.on('console', (msg) => {
    const text = msg.text();
    consoleLog.push(`[${msg.type()}] ${text}`);
    // The workbench logs them as "%c[Extension Host] %c<message> color: blue color: " (CSS-styled).
    if (text.includes('[Extension Host]')) {
      extensionHostLog.push(
        text
          .replace(/%c/g, '')
          .replace(/\s*color: blue color: *$/, '')
          .trim(),
      );
    }
  });
  page.on('pageerror', (err) => consoleLog.push(`[pageerror] ${err.message}`));
  return { extensionHostLog, consoleLog };
}
