// A PersonaMem labelling project's items: the questions of the runs chosen (each run answers one split), in the
// tree's order, shown in the question view (an item of another run selects that run first); the Label Summary's
// rows open the same way.
import { unitItemOf } from '../../../../core/labels/server/projectItems';
import type { StepRef } from '../../../../core/labels/model';
import {
  questionAt,
  questionOrder,
  questionStepRef,
  questionUnit,
  unitOfRow,
} from '../../../../core/personamem/labels';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import { argRun, type ProjectSource } from '../../../labels/projectSources';
import type { LabelService } from '../../../labels/service';
import { log } from '../../../log';
import type { QuestionPanel } from '../questionView';
import type { PersonaMemStore } from '../store';

const isQuestionRef = (v: unknown): v is QuestionRef =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as QuestionRef).split === 'string' &&
  typeof (v as QuestionRef).questionId === 'string';

/**
 * How the question a label unit names opens in the question view, in the unit's run (an item of another run selects
 * that run first: the view labels the selected run's answer); undefined when the unit is no question of the open
 * benchmark.
 */
export function questionOpener(
  store: PersonaMemStore,
  panel: QuestionPanel,
  unit: Pick<StepRef, 'platform' | 'userId' | 'stepId' | 'run'>,
): (() => Promise<void>) | undefined {
  const bench = store.bench;
  const q = bench && questionAt(bench, unitOfRow(unit));
  if (!bench || !q) return undefined;
  return async () => {
    if (unit.run && unit.run !== store.runName) {
      if (!bench.runs.has(unit.run)) throw new Error(`run ${unit.run} is not in the open PersonaMem folder`);
      log.info(`labels: question of run ${unit.run}: selecting that run`);
      await store.selectRun(unit.run);
    }
    panel.show({ split: q.split, questionId: q.questionId });
  };
}

export function questionProjectSource(
  labels: LabelService,
  store: PersonaMemStore,
  panel: QuestionPanel,
): ProjectSource {
  /** The item of question `ref` in `run`; undefined when the question is not loaded. */
  const itemOf = (run: string, ref: QuestionRef): string | undefined => {
    const bench = store.bench;
    const unit = bench && questionUnit(bench, ref.split, ref.questionId);
    if (!unit) return undefined;
    const { platform, userId, stepId } = questionStepRef('', unit, run);
    return unitItemOf(run, { platform, userId, stepId });
  };
  return {
    itemKind: 'item',
    title: 'PersonaMem',
    view: 'question view',
    benchmark: () => labels.benchmarkOf(store),
    viewActive: () => panel.isActive,
    runNames: () => [...(store.bench?.runs.keys() ?? [])],
    selectedRun: () => store.runName,
    items(runs) {
      const bench = store.bench;
      if (!bench) return Promise.resolve([]);
      const order = questionOrder(bench, store.tree.order.value.direction === 'descending');
      return Promise.resolve(
        runs.flatMap((name) => {
          const split = bench.runs.get(name)?.split;
          return order.filter((q) => q.split === split).flatMap((q) => itemOf(name, q) ?? []);
        }),
      );
    },
    shownItem(arg) {
      const run = argRun(arg);
      if (isQuestionRef(arg) && run) return itemOf(run, arg);
      const shown = panel.currentRef;
      const selected = store.run;
      return shown && selected && selected.split === shown.split ? itemOf(selected.name, shown) : undefined;
    },
    async open(item) {
      if (item.kind !== 'item') return false;
      const open = questionOpener(store, panel, { ...item.ref, run: item.run });
      if (!open) return false;
      await open();
      return true;
    },
  };
}
