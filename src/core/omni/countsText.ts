// The answers of a run as the Benchmarks tree writes them: in full for tooltips, figure first for a row.
import type { ActionCounts } from './score';

type Counts = ActionCounts;

// A user or test action the selected run has no prediction for: in a run of some users that is most of them, and it
// is not a failure of theirs, so the words say the run does not reach them.
const NOT_IN_RUN = 'not in this run';

/** "204 right · 145 wrong · 4 graded · 2 left out" */
export function countsText(c: Counts | undefined): string {
  if (!c) return NOT_IN_RUN;
  const parts = [`${c.correct} right`, `${c.incorrect} wrong`];
  if (c.graded) parts.push(`${c.graded} graded`);
  if (c.leftOut) parts.push(`${c.leftOut} left out`);
  return parts.join(' · ');
}

/**
 * A row's figure first, short enough not to be cut in a side bar: "58% right (204 of 349)" for a user, "1 of 2 right ·
 * 1 graded" for a test action; the full counts (graded, left out) are in the tooltip.
 */
export function rowCountsText(c: Counts | undefined, share: boolean): string {
  if (!c) return NOT_IN_RUN;
  const n = c.correct + c.incorrect;
  const judged = c.graded ? `${c.graded} graded` : '';
  if (n === 0) return judged || (c.leftOut ? `${c.leftOut} left out` : 'nothing scored');
  const right = share
    ? `${Math.round((100 * c.correct) / n)}% right (${c.correct} of ${n})`
    : `${c.correct} of ${n} right`;
  return share || !judged ? right : `${right} · ${judged}`;
}
