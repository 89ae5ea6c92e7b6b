// The batch runs' work pool: never more than `concurrency` items in flight, the first error stops every other item
// and becomes the run's, the caller's abort stops the pool, and a throwing listener stops nothing.
import { describe, expect, it } from 'vitest';
import { runPool, safeListener } from '../../src/core/runner/pool';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('runPool', () => {
  it('keeps at most `concurrency` items in flight and runs each once, in order of start', async () => {
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const out = await runPool(
      Array.from({ length: 10 }, (_, i) => i),
      async (i) => {
        started.push(i);
        most = Math.max(most, ++inFlight);
        await tick();
        inFlight--;
      },
      { concurrency: 3 },
    );
    expect(out.fatal).toBeNull();
    expect(most).toBe(3);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('stops at the first error, aborts the items in flight, and keeps that error', async () => {
    const aborted: number[] = [];
    const started: number[] = [];
    const out = await runPool(
      [1, 2, 3, 4, 5, 6],
      async (i, signal) => {
        started.push(i);
        if (i === 2) throw new Error('endpoint said no');
        await tick();
        await tick();
        if (signal.aborted) aborted.push(i);
      },
      { concurrency: 2 },
    );
    expect(out.fatal).toBe('endpoint said no');
    expect(aborted).toEqual([1]);
    expect(started.length).toBeLessThan(6);
  });

  it('stops when the caller aborts, already-aborted included', async () => {
    const outer = new AbortController();
    const seen: number[] = [];
    const out = await runPool(
      [1, 2, 3, 4],
      async (i) => {
        seen.push(i);
        if (i === 2) outer.abort();
        await tick();
      },
      { concurrency: 1, signal: outer.signal },
    );
    expect(out.fatal).toBeNull();
    expect(seen).toEqual([1, 2]);
    const none: number[] = [];
    await runPool([1], async (i) => void none.push(i), { signal: outer.signal });
    expect(none).toEqual([]);
  });

  it('drops a listener’s error', () => {
    let calls = 0;
    const listen = safeListener((n: number) => {
      calls += n;
      throw new Error('a broken progress bar');
    });
    expect(() => listen(2)).not.toThrow();
    expect(calls).toBe(2);
    expect(() => safeListener(undefined)()).not.toThrow();
  });
});
