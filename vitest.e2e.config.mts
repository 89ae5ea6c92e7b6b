import { defineConfig } from 'vitest/config';

// The real workbench (code-server + Chromium) is slow to start and shared by the tests of one file: run serially.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    // After a failed test, each open workbench is put back to a clean state (quick inputs, dialogs, toasts closed).
    setupFiles: ['test/e2e/support/afterFailure.ts'],
    // In CI only, a failed test gets one more try after that reset, and the log shows it as a retry. This is a
    // stopgap while the cause of a quick pick closing right after it opens on VS Code 1.139 is unknown (issue #12).
    // Locally a flake fails at once, so that it gets seen.
    retry: process.env.CI ? 1 : 0,
  },
});
