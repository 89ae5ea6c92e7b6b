// The extension's cold open outside the workbench: the load as SpbStore.loadBench asks for it (the persistent index
// on, in a fresh folder, its writes deferred, progress reported) against the CLI's `score --no-cache` load, in
// back-to-back pairs, each after a full collection; then once more, how long the extension's load holds the event
// loop at a time (the lateness of a 1 ms timer while it runs) and its index writes one at a time, as the store runs
// them, one per turn. Not part of `npm run bench`; run by hand (add --cpu-prof to profile the same load in a plain
// Node process):
//   npx esbuild scripts/bench/extensionOpen.ts --bundle --platform=node --external:better-sqlite3 \
//     --loader:.py=text --outfile=/tmp/pl-open.js
//   npx node --expose-gc /tmp/pl-open.js .cache/bench-paper [PAIRS]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { streamProfileBench } from '../../src/core/formats';
import type { CacheReport } from '../../src/core/spb/format/indexed';

interface Open {
  ms: number;
  /** the event loop's longest and median wait during the load, ms */
  longestTurn: number;
  medianTurn: number;
  writes: number[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});

async function extensionOpen(target: string, watchLoop: boolean): Promise<Open> {
  collect();
  const dir = mkdtempSync(join(tmpdir(), 'pl-open-'));
  const waits: number[] = [];
  let last = performance.now();
  const timer = watchLoop
    ? setInterval(() => {
        const now = performance.now();
        waits.push(now - last);
        last = now;
      }, 1)
    : undefined;
  try {
    const report: CacheReport = { hits: 0, appended: 0, read: 0 };
    const deferred: (() => void)[] = [];
    const started = performance.now();
    await streamProfileBench.load(target, {
      onProgress: () => {},
      cacheDir: () => dir,
      cacheReport: report,
      deferIndexWrites: (w) => deferred.push(w),
    });
    const ms = performance.now() - started;
    clearInterval(timer);
    if (!watchLoop) return { ms, longestTurn: NaN, medianTurn: NaN, writes: [] };
    const writes = deferred.map((write) => {
      const at = performance.now();
      write();
      return performance.now() - at;
    });
    return { ms, longestTurn: Math.max(...waits), medianTurn: median(waits), writes };
  } finally {
    clearInterval(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function cliOpen(target: string): Promise<number> {
  collect();
  const started = performance.now();
  await streamProfileBench.load(target, {});
  return performance.now() - started;
}

async function main(): Promise<void> {
  const target = resolve(process.argv[2] ?? '.cache/bench-paper');
  const pairs = Number(process.argv[3] ?? 5);
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    // Alternating which goes first, so that neither always runs right after the other's garbage.
    const cliFirst = i % 2 === 1;
    const cli0 = cliFirst ? await cliOpen(target) : 0;
    const ext = await extensionOpen(target, false);
    const cli = cliFirst ? cli0 : await cliOpen(target);
    ratios.push(ext.ms / cli);
    console.log(`pair ${i + 1}: the extension's load ${ext.ms.toFixed(0)} ms, the CLI's ${cli.toFixed(0)} ms`);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    `the extension's load / the CLI's: ${median(ratios).toFixed(2)}x, median of ${pairs} pairs ` +
      `(${sorted[0].toFixed(2)}-${sorted.at(-1)!.toFixed(2)}x)`,
  );
  const ext = await extensionOpen(target, true);
  const total = ext.writes.reduce((s, w) => s + w, 0);
  console.log(
    `once more, watched: the load ${ext.ms.toFixed(0)} ms, the event loop waited at most ` +
      `${ext.longestTurn.toFixed(0)} ms (median ${ext.medianTurn.toFixed(0)} ms); its index writes ` +
      `${total.toFixed(0)} ms in ${ext.writes.length} turns, the longest ${Math.max(...ext.writes).toFixed(0)} ms`,
  );
}

void main();
