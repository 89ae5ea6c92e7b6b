// How a batch run works through its queue, whatever the benchmark: at most `concurrency` items in flight, one
// abort for all of them (the caller's signal, or the first item that throws), and the first error kept as the
// run's. Items that finish report through their own journal; this only schedules them.

export interface PoolOutcome {
  /** The first error an item threw (the run failed; the others were aborted), else null. */
  fatal: string | null;
}

/**
 * Runs `work` on each item of `queue` in order, `concurrency` at a time (default 4, at least 1). `work` gets the
 * pool's signal, which aborts when `outer` does or when an item throws; no new item starts after that.
 */
export async function runPool<T>(
  queue: readonly T[],
  work: (item: T, signal: AbortSignal) => Promise<void>,
  opts: { concurrency?: number; signal?: AbortSignal; inner?: AbortController } = {},
): Promise<PoolOutcome> {
  const inner = opts.inner ?? new AbortController();
  const onOuterAbort = () => inner.abort();
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (opts.signal?.aborted) inner.abort();
  let fatal: string | null = null;
  let next = 0;
  const worker = async () => {
    while (!inner.signal.aborted && next < queue.length) {
      const item = queue[next++];
      try {
        await work(item, inner.signal);
      } catch (e) {
        fatal ??= e instanceof Error ? e.message : String(e);
        inner.abort();
      }
    }
  };
  const width = Math.max(1, Math.min(queue.length, Math.floor(opts.concurrency ?? 4) || 1));
  try {
    await Promise.all(Array.from({ length: width }, worker));
  } finally {
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
  return { fatal };
}

/** A progress callback that can never stop the run: a listener's error is dropped. */
export function safeListener<A extends unknown[]>(fn: ((...args: A) => void) | undefined): (...args: A) => void {
  return (...args) => {
    try {
      fn?.(...args);
    } catch {
      // a listener (progress, history) is a convenience; the journal already has what happened
    }
  };
}
