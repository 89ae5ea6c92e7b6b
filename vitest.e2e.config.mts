import { defineConfig } from 'vitest/config';

// The real workbench (code-server + Chromium) is slow to start and shared by the tests of one file: run serially.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
