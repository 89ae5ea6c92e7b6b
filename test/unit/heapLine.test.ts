// The heap line the extension logs after an open, and the bench's reading of it and of the CLI's heap worker.
import { describe, expect, it } from 'vitest';
import { parseCliHeap } from '../../scripts/bench/cliHeap';
import { heapLine, parseHeapLine, readHeap, type HeapReading } from '../../src/extension/heapLine';

const MIB = 2 ** 20;
const reading: HeapReading = {
  heapUsed: 312.4 * MIB,
  heapTotal: 350 * MIB,
  external: 20.1 * MIB,
  arrayBuffers: 5 * MIB,
  rss: 501.2 * MIB,
  collected: true,
};

describe('heap line', () => {
  it('reads back what it wrote, to the 0.1 MiB it gives, from the message or the log entry', () => {
    const what = 'after the open of /data/a: b/bench-paper';
    const line = heapLine(what, reading);
    expect(line).toBe(
      'heap after the open of /data/a: b/bench-paper: 312.4 MiB used of 350.0 MiB, external 20.1 MiB ' +
        '(array buffers 5.0 MiB), RSS 501.2 MiB; after a full collection',
    );
    const entry = `2026-12-07 04:01:02.345 [info] ${line}`;
    for (const l of [line, entry, `${entry}\n`]) {
      const parsed = parseHeapLine(l);
      expect(parsed?.what).toBe(what);
      for (const k of ['heapUsed', 'heapTotal', 'external', 'arrayBuffers', 'rss'] as const) {
        expect(Math.abs(parsed![k] - reading[k]), k).toBeLessThanOrEqual(0.05 * MIB);
      }
      expect(parsed?.collected).toBe(true);
    }
  });

  it('says when no collection ran, and reads that back', () => {
    const line = heapLine('after the open of /x', { ...reading, collected: false });
    expect(line).toMatch(/; no collection forced \(gc not exposed\)$/);
    expect(parseHeapLine(line)?.collected).toBe(false);
  });

  it('is undefined for other lines and for a line whose figures are cut or changed', () => {
    const line = heapLine('after the open of /x', reading);
    expect(parseHeapLine('2026-12-07 04:01:02.345 [info] loaded /x: 1 users, 2 steps, 1 run(s) in 3 ms')).toBe(
      undefined,
    );
    expect(parseHeapLine(line.replace('; after a full collection', ''))).toBe(undefined);
    expect(parseHeapLine(line.replace('; after a full collection', '; after lunch'))).toBe(undefined);
    expect(parseHeapLine(line.replace('312.4 MiB used', '312 MiB used'))).toBe(undefined);
    expect(parseHeapLine(`[info] not a ${line}`)).toBe(undefined);
  });

  it("reads this process's memory, collecting first only where gc is exposed", () => {
    const h = readHeap();
    expect(h.collected).toBe(typeof (globalThis as { gc?: unknown }).gc === 'function');
    expect(h.heapUsed).toBeGreaterThan(0);
    expect(h.heapUsed).toBeLessThanOrEqual(h.heapTotal);
  });
});

describe("the CLI's heap worker output", () => {
  it('takes the JSON on its last line, and nothing else', () => {
    const out = { runs: 14, idle: { ...reading, heapUsed: 5 * MIB }, loaded: reading };
    expect(parseCliHeap(`a warning\n${JSON.stringify(out)}\n`)).toEqual(out);
    expect(parseCliHeap('')).toBe(undefined);
    expect(parseCliHeap('Error: boom')).toBe(undefined);
    expect(parseCliHeap(JSON.stringify({ ...out, loaded: { ...reading, heapUsed: '312' } }))).toBe(undefined);
    expect(parseCliHeap(JSON.stringify({ idle: reading, loaded: reading }))).toBe(undefined);
  });
});
