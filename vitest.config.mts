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
    // A PostgreSQL server for the tests that need one (test/support/pg.ts): see docs/development.md.
    globalSetup: ['test/support/pgGlobalSetup.ts'],
  },
});
