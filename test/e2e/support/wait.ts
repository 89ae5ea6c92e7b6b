// The one way e2e code waits: poll a condition, never sleep without one.

/** Poll `fn` until it returns a truthy value; throws with `message` (and the last error) on timeout. */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  opts: { timeout?: number; interval?: number; message?: string | (() => string) } = {},
): Promise<NonNullable<T>> {
  const timeout = opts.timeout ?? 30_000;
  const interval = opts.interval ?? 100;
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message.split('\n')[0]})` : '';
      const what = typeof opts.message === 'function' ? opts.message() : opts.message;
      throw new Error(`timed out after ${timeout} ms waiting for ${what ?? 'a condition'}${why}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
