import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/abi/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
