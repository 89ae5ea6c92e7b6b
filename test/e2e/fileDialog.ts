// code-server's file dialogs are the workbench's own simple dialog: a quick input holding a path.
import type { Page } from 'playwright-core';
import { waitFor } from './harness';

/**
 * Answers an open or save dialog with `target`. The dialog fills in its start path at once but lists that folder
 * asynchronously, and when the listing is done it writes the start path into the input again (over anything typed
 * meanwhile: an Enter then accepts the start folder). So this waits until `ready` accepts what it shows and the
 * listing is there, types the path until it has stuck for a few polls, then presses Enter.
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
  await input.press('Enter');
}
