// What a format's label part supplies the labels (a step; a test action and its history records): where on its open
// benchmark a label goes, and the rows already there.
import type { LabelRow, StepRef } from '../../core/labels/model';
import type { OpenBenchmark } from '../benchmarks/types';
import type { LabelService } from './service';

export abstract class LabelTargets<B extends OpenBenchmark, R extends object> {
  constructor(
    readonly open: B,
    protected readonly labels: LabelService,
  ) {}

  /** The `benchmark` column of its labels; undefined when it is not loaded. */
  get benchmark(): string | undefined {
    return this.labels.benchmarkOf(this.open);
  }

  /** The selected run, '' when none (labels about the data itself). */
  get run(): string {
    return this.open.runName ?? '';
  }

  /** The rows on `ref` in `run`, all authors; none without a database or a loaded benchmark. */
  rowsAt(ref: R, run: string): LabelRow[] {
    const benchmark = this.benchmark;
    const store = this.labels.store(false);
    if (!store || benchmark === undefined) return [];
    return store.listByStep(this.storeRef(ref, benchmark, run));
  }

  /** The unit `ref` is in `run` (what gold rows and the adjudication pass name); undefined when not loaded. */
  unitAt(ref: R, run: string): StepRef | undefined {
    const benchmark = this.benchmark;
    return benchmark === undefined ? undefined : this.storeRef(ref, benchmark, run);
  }

  abstract sameRef(a: R | undefined, b: R | undefined): boolean;
  /** `ref` is in the loaded benchmark. */
  abstract exists(ref: R): boolean;
  /** Where the store keeps the labels on `ref`. */
  protected abstract storeRef(ref: R, benchmark: string, run: string): StepRef;
}
