// The OmniBehavior test actions as label targets: a label goes on a test action of a run, or on one of the history
// records before it (core/omni/labels/trace.ts keeps them in the step columns).
import type { LabelRow, StepRef } from '../../../../core/labels/model';
import { traceStepRef, type TraceRef as CoreTraceRef } from '../../../../core/omni/labels/trace';
import type { TraceRef } from '../../../../shared/omni/traceProtocol';
import type { OmniStore } from '../store';
import { benchmarkId } from '../../../labels/paths';
import { LabelTargets } from '../../../labels/targets';

export class OmniLabelTargets extends LabelTargets<OmniStore, TraceRef> {
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

  protected storeRef(ref: TraceRef, benchmark: string, run: string): StepRef {
    return traceStepRef({ benchmark, userId: ref.userId, index: ref.index, run });
  }

  /** The current author's labels of `run` on the benchmark at `root` (default: the loaded one). */
  mine(run: string, root = this.open.root): LabelRow[] {
    if (root === undefined) return [];
    return this.labels.store(false)?.list({ benchmark: benchmarkId(root), run, author: this.labels.author }) ?? [];
  }
}
