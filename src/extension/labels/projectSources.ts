// What a labelling project needs of each benchmark (projects.ts): its items (StreamProfileBench steps, OmniBehavior
// test actions) in the runs chosen, the item its view shows, and how to open one. The queue itself is the same.
import * as vscode from 'vscode';
import {
  itemOf,
  testActionItemOf,
  type ItemKind,
  type ProjectItem,
  type ProjectStep,
} from '../../core/labels/server/projectItems';
import { isRecord } from '../../core/guards';
import { testActionOrder } from '../../core/omni/order';
import type { Step, User } from '../../core/spb/types';
import type { SpbStore } from '../benchmarks/spb/store';
import type { OmniStore } from '../benchmarks/omni/store';
import { toTraceRef } from '../benchmarks/omni/commands';
import { toStepRef } from '../stepView';
import type { StepViews } from '../stepView/views';
import type { TracePanel } from '../traceView/panel';
import { log } from '../log';
import type { LabelService } from './service';
import type { LabelTreeAugment } from './spb/treeLabels';

export interface ProjectSource {
  readonly itemKind: ItemKind;
  /** The benchmark's name in messages. */
  readonly title: string;
  /** Where its items show: "step view", "trace view". */
  readonly view: string;
  /** The open benchmark's id in the label store; undefined while none is open. */
  benchmark(): string | undefined;
  /** Its view (step view, trace view) is the active editor. */
  viewActive(): boolean;
  runNames(): string[];
  selectedRun(): string | undefined;
  /** The items of `runs`, in order; undefined when the person stepped back from a question. */
  items(runs: string[]): Promise<string[] | undefined>;
  /** The item the view shows: the one `.` was pressed on (a ref with its run), else the view's own. */
  shownItem(arg: unknown): string | undefined;
  /** Opens an item of this benchmark (false: the item is of another kind). */
  open(item: ProjectItem): Promise<boolean>;
}

const argRun = (arg: unknown): string | undefined =>
  isRecord(arg) && typeof arg.run === 'string' ? arg.run : undefined;

export function spbProjectSource(
  labels: LabelService,
  spb: SpbStore,
  views: StepViews,
  augment: LabelTreeAugment,
): ProjectSource {
  return {
    itemKind: 'step',
    title: 'StreamProfileBench',
    view: 'step view',
    benchmark: () => labels.benchmarkOf(spb),
    viewActive: () => views.main.isActive,
    runNames: () => [...(spb.bench?.runs.keys() ?? [])],
    selectedRun: () => spb.runName,
    async items(runs) {
      const bench = spb.bench;
      if (!bench) return [];
      // With the tree's step filter on, the project may take the steps it shows (judged in the selected run).
      let keep: (user: User, step: Step) => boolean = () => true;
      const shown = augment.stepFilter();
      if (shown) {
        const choice = await vscode.window.showQuickPick(
          [
            { label: 'All steps of the runs', filtered: false },
            { label: 'The steps the tree shows', description: augment.describe(), filtered: true },
          ],
          { title: 'New Labelling Project: which steps', ignoreFocusOut: true },
        );
        if (!choice) return undefined;
        if (choice.filtered) keep = shown;
      }
      const all: string[] = [];
      for (const run of runs)
        for (const users of bench.users.values())
          for (const u of users.values())
            for (const s of u.steps)
              if (keep(u, s)) all.push(itemOf(run, { platform: u.platform, userId: u.userId, stepId: s.stepId }));
      return all;
    },
    shownItem(arg) {
      const from = toStepRef(arg);
      const run = argRun(arg);
      if (from && run) return itemOf(run, from);
      const panel = views.main;
      return panel.currentRef && panel.runName ? itemOf(panel.runName, panel.currentRef) : undefined;
    },
    async open(item) {
      if (item.kind !== 'step') return false;
      const ref: ProjectStep = item.ref;
      // A step of another run opens in a view pinned to that run, whose labels are that run's.
      const pinned = item.run === spb.runName ? {} : { run: item.run };
      await vscode.commands.executeCommand('personaLab.openStep', { ...ref, ...pinned });
      return true;
    },
  };
}

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
