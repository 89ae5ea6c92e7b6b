// A results file's rows as the Map every reader expects, filled from the index only when a reader needs a row.
// Scoring reads the pick tables the index gave (score/table.ts) and never fills it, so that a warm open of a folder
// with many runs builds no result objects at all; the step view, the labels and the audit fill the maps they read.
import { LazyMap } from '../../lazyMap';
import type { UserResult } from '../types';

export class LazyResults extends LazyMap<string, UserResult> {
  /** `rows`: how many rows `fill` will give (the scorer compares it with its table's size before filling). */
  constructor(
    readonly rows: number,
    fill: () => Map<string, UserResult>,
  ) {
    super(rows, fill);
  }
}
