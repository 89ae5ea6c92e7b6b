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
    // After a failed test, each open workbench is put back to a clean state (quick inputs, dialogs, toasts closed).
    setupFiles: ['test/e2e/support/afterFailure.ts'],
  },
});
