// What a format supplies the labels (spb/targets.ts: the StreamProfileBench step; omni/targets.ts: the OmniBehavior
// test action and its history records): where on its open benchmark a label goes, and the rows already there.
import type { LabelRow } from '../../core/labels/model';
import type { OpenBenchmark } from '../benchmarks/types';

export interface LabelTargets<R extends object> {
  readonly open: OpenBenchmark;
  /** The `benchmark` column of its labels; undefined when it is not loaded. */
  readonly benchmark: string | undefined;
  /** The selected run, '' when none (labels about the data itself). */
  readonly run: string;
  sameRef(a: R | undefined, b: R | undefined): boolean;
  /** `ref` is in the loaded benchmark. */
  exists(ref: R): boolean;
  /** The rows on `ref` in `run`, all authors; none without a database. */
  rowsAt(ref: R, run: string): LabelRow[];
}
