// Set up for every e2e file (vitest.e2e.config.mts): after a failed test, close what it may have left open in each
// running workbench (a quick pick waiting for input, a dialog, a menu, toasts), so that the next tests' clicks reach
// the workbench instead of cascading into failures of their own.
import { afterEach } from 'vitest';
import { openWorkbenches } from './workbench';

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  for (const wb of openWorkbenches) await wb.reset().catch(() => undefined);
});
