// One run of `fn` for a burst of requests: the views that recompute something costly on every change event (the
// Label Agreement's gold report, with its bootstrap intervals) ask for it on each event, and it runs once after the
// burst (a run of label keys, another window's writes, the pass's decisions). A request made while `fn` runs asks for
// one more run after it. The scheduler is given so that a test can count the runs without waiting for a timer.

export interface Coalesced {
  /** Asks for a run: the first request of a burst schedules it; the others join it. */
  request(): void;
  /** Drops a scheduled run (the view is gone). */
  dispose(): void;
}

export type Schedule = (run: () => void) => { cancel(): void };

/** A timer of `ms` milliseconds. */
export const after =
  (ms: number): Schedule =>
  (run) => {
    const t = setTimeout(run, ms);
    return { cancel: () => clearTimeout(t) };
  };

export function coalesce(fn: () => void, schedule: Schedule): Coalesced {
  let pending: { cancel(): void } | undefined;
  let disposed = false;
  return {
    request: () => {
      if (pending || disposed) return;
      pending = schedule(() => {
        pending = undefined;
        if (!disposed) fn();
      });
    },
    dispose: () => {
      disposed = true;
      pending?.cancel();
      pending = undefined;
    },
  };
}
