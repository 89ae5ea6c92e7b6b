// The CLI's heap after its cold load, beside the extension host's after its cold open (src/extension/heapLine.ts):
// a fresh Node process started with --expose-gc loads the folder as `score --json --no-cache` does (every file
// read, no index) and reads its memory after a full collection, the same reading the extension logs; once before
// the load too, for the idle process it starts from.
import { streamProfileBench } from '../../src/core/formats';
import { readHeap, type HeapReading } from '../../src/extension/heapLine';

export interface CliHeap {
  runs: number;
  idle: HeapReading;
  loaded: HeapReading;
}

/** `--cli-heap DIR`: prints a CliHeap as JSON on stdout. */
export async function cliHeapWorker(dir: string): Promise<void> {
  const idle = readHeap();
  const { bench } = await streamProfileBench.load(dir, {});
  const loaded = readHeap();
  // `bench` is read after the reading, so the reading held it.
  process.stdout.write(JSON.stringify({ runs: bench.runs.size, idle, loaded } satisfies CliHeap));
}

/** The worker's output, or undefined when it is not one (a failed worker, other output). */
export function parseCliHeap(output: string): CliHeap | undefined {
  const line = output.trim().split('\n').at(-1) ?? '';
  try {
    const v = JSON.parse(line) as Partial<CliHeap>;
    const ok = (h: HeapReading | undefined) =>
      typeof h?.heapUsed === 'number' && typeof h.rss === 'number' && typeof h.collected === 'boolean';
    return typeof v.runs === 'number' && ok(v.idle) && ok(v.loaded) ? (v as CliHeap) : undefined;
  } catch {
    return undefined;
  }
}
