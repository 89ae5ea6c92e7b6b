// The extension host's memory once a benchmark is open, as one line of the log: the bench compares its heap with the
// CLI's after the same load (test/e2e/stepRender.test.ts reads the line, scripts/bench/render.ts prints the ratio).
// The whole process is measured (VS Code's own extension host code and other extensions included), as the goal
// states it. A full collection runs first only where `gc` is exposed (`node --expose-gc`, which the e2e harness can
// give code-server and so its extension hosts); a user's extension host never has it, and the line says which.
// No vscode import: the tests load this file.

export interface HeapReading {
  /** process.memoryUsage(), bytes */
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  rss: number;
  /** true when a full collection ran right before the reading */
  collected: boolean;
}

const MIB = 2 ** 20;
const COLLECTED = 'after a full collection';
const NOT_COLLECTED = 'no collection forced (gc not exposed)';

/** Reads the process's memory, after a full collection when `gc` is exposed. */
export function readHeap(): HeapReading {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc === 'function') (gc as () => void)();
  const m = process.memoryUsage();
  return {
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    rss: m.rss,
    collected: typeof gc === 'function',
  };
}

const mib = (bytes: number) => (bytes / MIB).toFixed(1);

/** "heap <what>: 312.4 MiB used of 350.0 MiB, external … MiB (array buffers … MiB), RSS … MiB; after a full collection" */
export function heapLine(what: string, h: HeapReading): string {
  return (
    `heap ${what}: ${mib(h.heapUsed)} MiB used of ${mib(h.heapTotal)} MiB, external ${mib(h.external)} MiB ` +
    `(array buffers ${mib(h.arrayBuffers)} MiB), RSS ${mib(h.rss)} MiB; ${h.collected ? COLLECTED : NOT_COLLECTED}`
  );
}

const HEAP_LINE =
  /(?:^|\] )heap (.+?): (\d+\.\d) MiB used of (\d+\.\d) MiB, external (\d+\.\d) MiB \(array buffers (\d+\.\d) MiB\), RSS (\d+\.\d) MiB; (.+)$/;

/**
 * A heapLine() message, or a log entry holding one ("<date> <time> [info] heap …"), back as figures (bytes, to the
 * 0.1 MiB the line gives); undefined for any other line.
 */
export function parseHeapLine(line: string): (HeapReading & { what: string }) | undefined {
  const m = HEAP_LINE.exec(line.trimEnd());
  if (!m || (m[7] !== COLLECTED && m[7] !== NOT_COLLECTED)) return undefined;
  const bytes = (i: number) => Math.round(Number(m[i]) * MIB);
  return {
    what: m[1],
    heapUsed: bytes(2),
    heapTotal: bytes(3),
    external: bytes(4),
    arrayBuffers: bytes(5),
    rss: bytes(6),
    collected: m[7] === COLLECTED,
  };
}
