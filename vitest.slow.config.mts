import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { pythonText } from './test/support/pythonText';
import { SLOW_TESTS } from './test/tiers';

// The slow tier: stress, scale and cross-process files (test/tiers.mts), `npm run test:slow`.
export default defineConfig({
  plugins: [pythonText()],
  test: {
    include: SLOW_TESTS,
    testTimeout: 120_000,
    // As in the fast tier (vitest.config.mts): one worker per core, not vitest's one fewer.
    maxWorkers: availableParallelism(),
    globalSetup: ['test/support/tmpGlobalSetup.ts', 'test/support/pgGlobalSetup.ts'],
  },
});
