import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { pythonText } from './test/support/pythonText';
import { SLOW_TESTS } from './test/tiers';

// The fast tier: `npm test`. The slow tier (test/tiers.mts) is vitest.slow.config.mts, `npm run test:slow`.
export default defineConfig({
  plugins: [pythonText()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/abi/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...SLOW_TESTS],
    testTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores, which on a two-core machine is a single worker: the files
    // then run one after another while the tests wait on child processes, PostgreSQL and files, and half the machine
    // idles. One worker per core keeps both busy (the main process only collects results).
    maxWorkers: availableParallelism(),
    // A PostgreSQL server for the tests that need one (test/support/pg.ts): see docs/development.md.
    globalSetup: ['test/support/tmpGlobalSetup.ts', 'test/support/pgGlobalSetup.ts'],
  },
});
