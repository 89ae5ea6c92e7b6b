// The run's temporary folder (test/support/tmpGlobalSetup.ts): a test's mkdtemp lands inside it, so the run removes
// what its tests leave behind.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { RUN_TMP_PREFIX } from '../support/tmpGlobalSetup';

it("makes a test's temporary folders inside the run's own", () => {
  const made = mkdtempSync(join(tmpdir(), 'pl-tmp-run-'));
  expect(basename(dirname(made)).startsWith(RUN_TMP_PREFIX)).toBe(true);
  expect(process.env.TMPDIR).toBe(dirname(made));
});

it('lets the PostgreSQL server pass through it to its folder (the pg tests are not skipped)', async () => {
  const { statSync } = await import('node:fs');
  expect(statSync(process.env.TMPDIR!).mode & 0o001).toBe(0o001);
});
