// vitest globalSetup (every config, listed first so that its teardown runs last): one temporary folder per test run,
// made the run's TMPDIR before the workers start, so every mkdtemp of a test, and of the processes it starts, lands in
// it; deleted at the end of the run. Tests make thousands of folders, and not every test can remove its own when it
// fails or is ended; without this they piled up in the machine's /tmp run after run.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The prefix of a run's folder (test/unit/tmp-run.test.ts checks the workers see it). */
export const RUN_TMP_PREFIX = 'persona-lab-tests-';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), RUN_TMP_PREFIX));
  // mkdtemp makes it 0700; the throwaway PostgreSQL cluster (pgGlobalSetup.ts) runs as the postgres user, which must
  // pass through it to its own folder inside. Others may pass through, not list it.
  chmodSync(dir, 0o711);
  process.env.TMPDIR = dir;
  return () => {
    // PERSONA_LAB_E2E_KEEP=1 keeps an e2e run's folders to look at afterwards; it keeps these too.
    if (process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
