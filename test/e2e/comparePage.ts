// What the e2e tests of every compare view share: the summary table read as the page shows it, and the steps that
// turn the view round (Swap A and B) and bring it back after Reload Window. Only our own page's selectors: the
// view's root id, its `data-*` and classes.
import type { Frame } from 'playwright-core';
import type { Workbench } from './harness';

/** The summary table: each row's slice and its cells' texts by column. */
export const summaryCells = (frame: Frame) =>
  frame.locator('table.summary tbody tr[data-slice]').evaluateAll((trs) =>
    trs.map((tr) => ({
      slice: tr.getAttribute('data-slice') ?? '',
      cells: Object.fromEntries(
        [...tr.querySelectorAll('td')].map((td) => [td.getAttribute('data-col') ?? '', td.textContent ?? '']),
      ),
    })),
  );

/** The compare view whose root is `#rootId`, showing `a` against `b`. */
export const shownPair = (wb: Workbench, rootId: string, a: string, b: string, timeout = 30_000) =>
  wb.findWebviewFrame(`#${rootId}[data-state="shown"][data-runs="${a} ${b}"]`, { timeout });

/** Back to the compare view of A and B (after it opened another editor), then Swap A and B: the swapped view. */
export async function swapRuns(wb: Workbench, rootId: string, a: string, b: string): Promise<Frame> {
  await wb.runCommand('View: Open Previous Editor');
  const frame = await shownPair(wb, rootId, a, b);
  await frame.locator('vscode-button', { hasText: 'Swap A and B' }).click();
  return shownPair(wb, rootId, b, a);
}

/** Reload Window, then the compare tab of A and B: the view as it came back. */
export async function reloadToPair(wb: Workbench, rootId: string, a: string, b: string): Promise<Frame> {
  const reloaded = wb.page.waitForEvent('load', { timeout: 60_000 });
  await wb.runCommand('Developer: Reload Window').catch(() => {});
  await reloaded;
  await wb.waitForWorkbench();
  await wb.editor.tab(`Compare: ${a} vs ${b}`).first().click({ timeout: 60_000 });
  return shownPair(wb, rootId, a, b, 90_000);
}
