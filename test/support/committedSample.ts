import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * The sample as committed, copied once per test process into a temporary folder named `sample` (so the benchmark's
 * name stays "sample"). Tests read this copy, never the checkout's sample/: the extension and the CLI write runs,
 * samples and labels into sample/ as a user works, and a test must give the same answer after any such use.
 * Tracked files only (`git ls-files`), with their contents in the work tree, so an edit to a committed sample file is
 * tested before it is committed; outside a git checkout (an unpacked tarball) the whole folder is copied.
 */
const REPO = resolve(__dirname, '../..');
const KEY = Symbol.for('persona-lab.test.committedSample');

function copyCommitted(): string {
  const dir = mkdtempSync(join(tmpdir(), 'persona-lab-sample-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const to = join(dir, 'sample');
  let tracked: string[] | undefined;
  try {
    const out = execFileSync('git', ['-C', REPO, 'ls-files', '-z', '--', 'sample'], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
    // A tracked file deleted in the work tree is left out, as the next commit would.
    tracked = out.split('\0').filter((f) => f !== '' && existsSync(join(REPO, f)));
  } catch {
    tracked = undefined;
  }
  if (tracked === undefined || tracked.length === 0) {
    cpSync(join(REPO, 'sample'), to, { recursive: true });
    return to;
  }
  for (const file of tracked) {
    const target = join(dir, file);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(REPO, file), target);
  }
  return to;
}

/** The absolute path of the committed sample's copy (made on first use, removed when the process exits). */
export function committedSample(): string {
  const g = globalThis as { [KEY]?: string };
  return (g[KEY] ??= copyCommitted());
}

/** The committed sample's copy. */
export const SAMPLE = committedSample();
/** Its OmniBehavior folder. */
export const OMNI_SAMPLE = join(SAMPLE, 'omnibehavior');
/** Its broken OmniBehavior copy (planted problems). */
export const BROKEN_OMNI_SAMPLE = join(SAMPLE, 'broken', 'omnibehavior');
/** Its PersonaMem folder. */
export const PMEM_SAMPLE = join(SAMPLE, 'personamem');
