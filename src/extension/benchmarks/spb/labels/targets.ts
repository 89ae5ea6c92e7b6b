// The StreamProfileBench steps as label targets: a label goes on a step of a run (the whole step, a tag, a span of
// the persona), and the current author's labels of a run are indexed by step for the tree's badges and filter.
import type { StepRef } from '../../../../core/labels/model';
import { StepLabelIndex } from '../../../../core/labels/stepIndex';
import type { StepLocation } from '../../../../core/spb/view/stepModel';
import type { SpbStore } from '../store';
import { LabelTargets } from '../../../labels/targets';

export class SpbLabelTargets extends LabelTargets<SpbStore, StepLocation> {
  private cache: { generation: number; indexes: Map<string, StepLabelIndex> } = { generation: -1, indexes: new Map() };

  sameRef(a: StepLocation | undefined, b: StepLocation | undefined): boolean {
    return !!a && !!b && a.platform === b.platform && a.userId === b.userId && a.stepId === b.stepId;
  }

  exists(ref: StepLocation): boolean {
    return this.open.step(ref) !== undefined;
  }

  protected storeRef(ref: StepLocation, benchmark: string, run: string): StepRef {
    return { benchmark, platform: ref.platform, userId: ref.userId, stepId: ref.stepId, run };
  }

  /** The current author's labels of a run (default: the selected one), by step. */
  index(run = this.run): StepLabelIndex {
    if (this.cache.generation !== this.labels.generation)
      this.cache = { generation: this.labels.generation, indexes: new Map() };
    let idx = this.cache.indexes.get(run);
    if (idx) return idx;
    const store = this.labels.store(false);
    const benchmark = this.benchmark;
    idx =
      store && benchmark !== undefined
        ? new StepLabelIndex(store.list({ benchmark, run, author: this.labels.author }))
        : StepLabelIndex.empty;
    this.cache.indexes.set(run, idx);
    return idx;
  }
}
