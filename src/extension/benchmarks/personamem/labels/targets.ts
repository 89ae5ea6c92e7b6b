// PersonaMem questions as label targets: a label goes on one question, in the run the question view shows for it
// (the selected run when it answers the question's split, else '': a label about the data). The store's columns are
// core/personamem/labels.ts's unit.
import type { LabelRow, StepRef } from '../../../../core/labels/model';
import {
  questionStepRef,
  questionUnit,
  unitKey,
  unitOfRow,
  type PmLabelUnit,
} from '../../../../core/personamem/labels';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import { benchmarkId } from '../../../labels/paths';
import { LabelTargets } from '../../../labels/targets';
import type { PersonaMemStore } from '../store';

export class PmLabelTargets extends LabelTargets<PersonaMemStore, QuestionRef> {
  sameRef(a: QuestionRef | undefined, b: QuestionRef | undefined): boolean {
    return !!a && !!b && a.split === b.split && a.questionId === b.questionId;
  }

  exists(ref: QuestionRef): boolean {
    return this.unit(ref) !== undefined;
  }

  unit(ref: QuestionRef): PmLabelUnit | undefined {
    const bench = this.open.bench;
    return bench && questionUnit(bench, ref.split, ref.questionId);
  }

  /** The run a label on a question of `split` goes in: the selected run when it answers that split, else ''. */
  runFor(split: string): string {
    const run = this.open.run;
    return run && run.split === split ? run.name : '';
  }

  protected storeRef(ref: QuestionRef, benchmark: string, run: string): StepRef {
    const unit = this.unit(ref);
    if (!unit) throw new Error(`question ${ref.questionId} is not in the loaded PersonaMem benchmark`);
    return questionStepRef(benchmark, unit, run);
  }

  /** This author's labels of the benchmark at `root` (default: the loaded one), in any run. */
  mine(root = this.open.root): LabelRow[] {
    if (root === undefined) return [];
    return this.labels.store(false)?.list({ benchmark: benchmarkId(root), author: this.labels.author }) ?? [];
  }

  /** unitKey of each question that carries a label of this author in the run its view shows. */
  labelledUnits(root = this.open.root): Set<string> {
    return new Set(
      this.mine(root)
        .filter((r) => r.run === this.runFor(r.platform))
        .map((r) => unitKey(unitOfRow(r))),
    );
  }
}
