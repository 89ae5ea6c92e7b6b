// code-server's file dialogs are the workbench's own simple dialog: a quick input holding a path.
import type { Page } from 'playwright-core';
import { waitFor } from './harness';

/**
 * Answers an open or save dialog with `target`. The dialog fills in its start path asynchronously, so this waits
 * until `ready` accepts what it shows, types the path until it sticks, then presses Enter.
 */
export async function answerFileDialog(page: Page, target: string, ready: (value: string) => boolean, what: string): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await waitFor(async () => ready(await input.inputValue()), { timeout: 30_000, message: what });
  await waitFor(async () => {
    if ((await input.inputValue()) === target) return true;
    await input.fill(target);
    return false;
  }, { timeout: 30_000, message: 'the dialog to hold the typed path' });
  await input.press('Enter');
}
