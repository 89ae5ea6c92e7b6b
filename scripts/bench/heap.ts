// What a loaded benchmark keeps: the V8 heap after loading it the way the extension does (with the persistent
// index: cold, writing it, then warm, reading it), after a full collection. Not part of `npm run bench`; run by hand:
//   npx esbuild scripts/bench/heap.ts --bundle --platform=node --external:better-sqlite3 --outfile=/tmp/pl-heap.js
//   npx node --expose-gc /tmp/pl-heap.js .cache/bench-paper
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { INDEX_DIR } from '../../src/core/cache/store';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { mb } from './measure';
import { peakRssBytes } from './peakRss';

async function main(): Promise<void> {
  const dir = resolve(process.argv[2] ?? '.cache/bench-paper');
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const cacheDir = join(dir, INDEX_DIR);
  const heap = () => {
    gc();
    return process.memoryUsage();
  };
  const base = heap();
  console.log(`before: heap ${mb(base.heapUsed)}, RSS ${mb(base.rss)}`);
  rmSync(cacheDir, { recursive: true, force: true });
  // Each open in its own call, so that nothing of the first is reachable while the second is measured.
  const openOnce = async (what: string) => {
    const t0 = performance.now();
    const bench = await loadBenchmark(dir, { cacheDir });
    const ms = performance.now() - t0;
    const m = heap();
    console.log(
      `${what}: ${bench.runs.size} runs in ${ms.toFixed(0)} ms; kept: heap ${mb(m.heapUsed - base.heapUsed)}, external + array buffers ${mb(m.external + m.arrayBuffers - base.external - base.arrayBuffers)}; RSS now ${mb(m.rss)}, peak ${mb(peakRssBytes())}`,
    );
  };
  await openOnce('cold (writing the index)');
  await openOnce('warm (reading it)');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
