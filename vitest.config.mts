import { defineConfig } from 'vitest/config';
import { pythonText } from './test/support/pythonText';

export default defineConfig({
  plugins: [pythonText()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/abi/**/*.test.ts'],
    testTimeout: 60_000,
    // A PostgreSQL server for the tests that need one (test/support/pg.ts): see docs/development.md.
    globalSetup: ['test/support/pgGlobalSetup.ts'],
  },
});
