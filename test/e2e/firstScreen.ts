// What a new user sees without scrolling, and what the Benchmarks view's header and benchmark row say: helpers of the
// walkthrough test, shared by its 1440×900 walk and its 1280×800 variant with the secondary side bar open.
import type { Frame, Locator } from 'playwright-core';
import { expect } from 'vitest';
import { waitFor, type Workbench } from './harness';
import { ROW_PARTS } from './support/sideBar';

/**
 * The selectors among `selectors` whose element does not start on the frame's first screen (none, in a good walk), on
 * a window of `size` with the panel hidden (the walk's *Show Problems* step opened it). Waits for the layout to
 * settle, since hiding the panel resizes the webview.
 */
export async function firstScreen(
  wb: Workbench,
  frame: Frame,
  selectors: string[],
  size = { width: 1440, height: 900 },
): Promise<string[]> {
  expect(wb.page.viewportSize()).toEqual(size);
  await wb.panel.hide();
  const below = () =>
    frame.evaluate((sels) => {
      window.scrollTo(0, 0);
      return sels.filter((sel) => {
        const e = document.querySelector(sel);
        return !e || e.getBoundingClientRect().top > window.innerHeight - 60;
      });
    }, selectors);
  await waitFor(async () => (await below()).length === 0, {
    timeout: 10_000,
    message: 'the content on the first screen',
  }).catch(() => {});
  return below();
}

/** The Benchmarks view's description, in its header (which run its figures are for). */
export function viewDescription(wb: Workbench): Promise<string> {
  return wb.sideBar.benchmarks
    .description()
    .first()
    .innerText()
    .catch(() => '');
}

/**
 * The StreamProfileBench row's name, its description, and whether the description's first `shown` characters are in
 * sight (not cut, nor under the ellipsis of a cut row).
 */
export async function benchmarkRow(
  wb: Workbench,
  shown: number,
): Promise<{ name: string; description: string; inSight: boolean }> {
  const row = wb.sideBar.benchmarks.rows({ level: 1 }).first();
  return row.evaluate(
    (el, [n, parts]) => {
      const name = el.querySelector(parts.name)?.textContent ?? '';
      const desc = el.querySelector(parts.description);
      const text = desc && document.createTreeWalker(desc, NodeFilter.SHOW_TEXT).nextNode();
      const box = el.querySelector(parts.labelBox) ?? el;
      if (!desc || !text) return { name, description: '', inSight: false };
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, Math.min(n, text.textContent?.length ?? 0));
      // A cut description ends in an ellipsis drawn over its last characters that fit.
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = getComputedStyle(desc).font;
      const right = range.getBoundingClientRect().right + ctx.measureText('…').width;
      return { name, description: desc.textContent ?? '', inSight: right <= box.getBoundingClientRect().right };
    },
    [shown, ROW_PARTS] as const,
  );
}

/**
 * How many rows a view's empty state takes: its lines of text and its buttons, each line counted once (the boxes
 * whose tops lie within half a line of each other are one row).
 */
export function rowsOf(block: Locator): Promise<number> {
  return block.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const line = parseFloat(getComputedStyle(el).fontSize) * 1.4;
    const tops = [...range.getClientRects()]
      .filter((r) => r.height > 0 && r.width > 0)
      .map((r) => r.top)
      .sort((a, b) => a - b);
    let rows = 0;
    let last = -Infinity;
    for (const top of tops) {
      if (top - last <= line / 2) continue;
      rows++;
      last = top;
    }
    return rows;
  });
}

/**
 * Starts recording every text the elements of `selectors` show (read at each change of the page), for a state too
 * short to wait for, such as a load's; `seen()` returns them.
 */
export async function recordTexts(wb: Workbench, selectors: string[]): Promise<{ seen(): Promise<string[]> }> {
  await wb.page.evaluate((sels) => {
    const seen = new Set<string>();
    const read = () => {
      for (const sel of sels)
        for (const e of document.querySelectorAll(sel)) {
          const text = (e as HTMLElement).innerText?.trim();
          if (text) seen.add(`${sel} ${text}`);
        }
    };
    (globalThis as Record<string, unknown>).__plSeen = seen;
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
    read();
  }, selectors);
  return {
    seen: () =>
      wb.page.evaluate(() => [...((globalThis as Record<string, unknown>).__plSeen as Set<string>)].map(String)),
  };
}

/** Compare Runs… on `runs`, then a click on the first row: the compare page and the selectors of its pair's cells. */
export async function openFirstPair(wb: Workbench, runs: [string, string]): Promise<{ frame: Frame; cells: string[] }> {
  await wb.runWithPicks('Persona Lab: Compare Runs…', runs);
  const frame = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]', { timeout: 60_000 });
  const first = frame.locator('.vlist .vrow').first();
  const key = (await first.getAttribute('data-key'))!;
  await first.click();
  await frame.locator(`.pair-page[data-pair="${key}"]`).waitFor({ timeout: 30_000 });
  const cells = ['Picks', 'Persona written'].flatMap((row) =>
    ['a', 'b'].map((side) => `.pair-page .cmp-cell[data-side="${side}"][data-row="${row}"]`),
  );
  return { frame, cells };
}
