import { defineConfig } from 'vitest/config';
import { pythonText } from './test/support/pythonText';

// The real workbench (code-server + Chromium) is slow to start and shared by the tests of one file: run serially.
export default defineConfig({
  plugins: [pythonText()],
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    // Every file in one process, whose module state stays: the files share one code-server and Chromium
    // (test/e2e/support/shared.ts) instead of starting their own.
    isolate: false,
    // After a failed test, each open workbench is put back to a clean state (quick inputs, dialogs, toasts closed).
    setupFiles: ['test/e2e/support/afterFailure.ts'],
    // Ends the shared code-server and Chromium at the end of the run.
    globalSetup: ['test/support/tmpGlobalSetup.ts', 'test/e2e/support/globalSetup.ts'],
  },
});
