// code-server's file dialogs are the workbench's own simple dialog: a quick input holding a path.
import type { Page } from 'playwright-core';
import { waitFor } from './wait';

/**
 * Answers an open or save dialog with `target`. The dialog fills in its start path at once but lists that folder
 * asynchronously, and when the listing is done it writes the start path into the input again (over anything typed
 * meanwhile: an Enter then accepts the start folder). It also ignores an Enter that comes while it is still listing
 * the folder the typed path leads to. So this waits until `ready` accepts what it shows and the listing is there,
 * types the path until it has stuck for a few polls, then presses Enter until the dialog is gone, as long as it still
 * shows our path (with or without the trailing slash it adds on entering a folder), so that an Enter never lands in
 * whatever quick input the command opens next.
 */
export async function answerFileDialog(
  page: Page,
  target: string,
  ready: (value: string) => boolean,
  what: string,
): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  const rows = widget.locator('.quick-input-list .monaco-list-row');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await waitFor(async () => ready(await input.inputValue()) && (await rows.count()) > 0, {
    timeout: 30_000,
    message: what,
  });
  let stable = 0;
  await waitFor(
    async () => {
      if ((await input.inputValue()) !== target) {
        stable = 0;
        await input.fill(target);
        return false;
      }
      return ++stable >= 3;
    },
    { timeout: 30_000, interval: 150, message: 'the dialog to hold the typed path' },
  );
  await waitFor(
    async () => {
      if (!(await widget.isVisible())) return true;
      const value = await input.inputValue().catch(() => '');
      if (value === target || value === `${target}/`) await input.press('Enter');
      else if (value.startsWith('/')) await input.fill(target);
      else return true;
      return false;
    },
    { timeout: 30_000, interval: 500, message: `the dialog to take ${target}` },
  );
}
