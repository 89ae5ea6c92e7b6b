// The OmniBehavior test actions as label targets: a label goes on a test action of a run, or on one of the history
// records before it (core/labels/trace.ts keeps them in the step columns).
import type { LabelRow } from '../../../core/labels/model';
import { traceStepRef, type TraceRef as CoreTraceRef } from '../../../core/labels/trace';
import type { TraceRef } from '../../../shared/traceProtocol';
import type { OmniStore } from '../../benchmarks/omni/store';
import type { LabelService } from '../service';
import type { LabelTargets } from '../targets';
import { benchmarkId } from '../paths';

export class OmniLabelTargets implements LabelTargets<TraceRef> {
  constructor(
    readonly open: OmniStore,
    private readonly labels: LabelService,
  ) {}

  get benchmark(): string | undefined {
    return this.labels.benchmarkOf(this.open);
  }

  get run(): string {
    return this.open.runName ?? '';
  }

  sameRef(a: TraceRef | undefined, b: TraceRef | undefined): boolean {
    return !!a && !!b && a.userId === b.userId && a.index === b.index;
  }

  exists(ref: TraceRef): boolean {
    return this.open.testAction(ref.userId, ref.index) !== undefined;
  }

  /** The core's ref of a test action in the selected run; undefined when no OmniBehavior benchmark is loaded. */
  coreRef(ref: TraceRef): CoreTraceRef | undefined {
    const benchmark = this.benchmark;
    return benchmark === undefined ? undefined : { benchmark, userId: ref.userId, index: ref.index, run: this.run };
  }

  rowsAt(ref: TraceRef, run: string): LabelRow[] {
    const benchmark = this.benchmark;
    const store = this.labels.store(false);
    if (!store || benchmark === undefined) return [];
    return store.listByStep(traceStepRef({ benchmark, userId: ref.userId, index: ref.index, run }));
  }

  /** The current author's labels of `run` on the benchmark at `root` (default: the loaded one). */
  mine(run: string, root = this.open.root): LabelRow[] {
    if (root === undefined) return [];
    return this.labels.store(false)?.list({ benchmark: benchmarkId(root), run, author: this.labels.author }) ?? [];
  }
}
