// Walking an ordered list of labelled items (steps, test actions, questions) from one of them:
// what j/k, Next Unlabelled Step and the trace view's `.` share.

/**
 * The first item after (delta 1) or before (delta -1) position `start` that satisfies `pred`. With `wrap` the search
 * goes round once (the start itself comes last); without it, it stops at the ends. `start` -1: from the start (or,
 * going back, from the end).
 */
export function findAround<T>(
  order: readonly T[],
  start: number,
  delta: 1 | -1,
  pred: (item: T) => boolean,
  wrap: boolean,
): T | undefined {
  const n = order.length;
  if (n === 0) return undefined;
  const origin = start >= 0 && start < n ? start : delta === 1 ? -1 : n;
  for (let i = 1; i <= n; i++) {
    let j = origin + delta * i;
    if (j < 0 || j >= n) {
      if (!wrap) return undefined;
      j = ((j % n) + n) % n;
    }
    if (pred(order[j])) return order[j];
  }
  return undefined;
}
