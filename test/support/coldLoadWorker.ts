// The cold-load worker's bundle, built as scripts/build.mjs builds dist/spbColdLoad.js, for the tests that start it.
import { build } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Builds the worker into a new temporary folder; resolves with the folder and the bundle's path. */
export async function buildColdLoadWorker(prefix: string): Promise<{ dir: string; script: string }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const script = join(dir, 'spbColdLoad.js');
  await build({
    entryPoints: [resolve('src/extension/benchmarks/spb/coldLoad/worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: script,
    logLevel: 'warning',
  });
  return { dir, script };
}
