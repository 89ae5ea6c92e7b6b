// An OmniBehavior labelling project's items: the test actions of the runs chosen, in the tree's user order, shown in
// the trace view (an item of another run selects that run first).
import { testActionItemOf } from '../../../../core/labels/server/projectItems';
import { testActionOrder } from '../../../../core/omni/order';
import { toTraceRef } from '../commands';
import type { OmniStore } from '../store';
import type { TracePanel } from '../traceView/panel';
import { log } from '../../../log';
import { argRun, type ProjectSource } from '../../../labels/projectSources';
import type { LabelService } from '../../../labels/service';

export function omniProjectSource(labels: LabelService, omni: OmniStore, trace: TracePanel): ProjectSource {
  return {
    itemKind: 'testAction',
    title: 'OmniBehavior',
    view: 'trace view',
    benchmark: () => labels.benchmarkOf(omni),
    viewActive: () => trace.isActive,
    runNames: () => [...(omni.bench?.runs.keys() ?? [])],
    selectedRun: () => omni.runName,
    items(runs) {
      const bench = omni.bench;
      if (!bench) return Promise.resolve([]);
      const order = testActionOrder(bench, omni.tree.userIds());
      return Promise.resolve(
        runs.flatMap((run) => order.map((a) => testActionItemOf(run, { userId: a.userId, index: a.index }))),
      );
    },
    shownItem(arg) {
      const from = toTraceRef(arg);
      const run = argRun(arg);
      if (from && run) return testActionItemOf(run, from);
      const shown = trace.shownRef();
      return shown && omni.runName ? testActionItemOf(omni.runName, shown) : undefined;
    },
    async open(item) {
      if (item.kind !== 'testAction') return false;
      // The trace view labels the selected run's answer: an item of another run selects that run first.
      if (item.run !== omni.runName) {
        if (!omni.bench?.runs.has(item.run)) throw new Error(`run ${item.run} is not in the open OmniBehavior folder`);
        log.info(`labels: project item of run ${item.run}: selecting that run`);
        await omni.selectRun(item.run);
      }
      trace.goTo(item.ref);
      return true;
    },
  };
}
