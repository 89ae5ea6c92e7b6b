// Experiment figures as text, for any format: shares and their differences in percentage points (pp).
import { pyFixed } from '../io/pyNumber';
import { MISSING } from '../glossary';

/** A share as a percentage with one decimal, MISSING when it is not a number. */
export const pct = (x: number) => (Number.isFinite(x) ? pyFixed(100 * x, 1) : MISSING);
/** A difference of shares in signed percentage points, MISSING when it is not a number. */
export const pp = (x: number) =>
  Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${pyFixed(Math.abs(100 * x), 1)}` : MISSING;
