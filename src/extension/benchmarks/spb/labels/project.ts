// A StreamProfileBench labelling project's items: the steps of the runs chosen (or those the tree's step filter
// shows), opened in the step view (a step of another run in a view pinned to that run).
import * as vscode from 'vscode';
import { itemOf, type ProjectStep } from '../../../../core/labels/server/projectItems';
import type { Step, User } from '../../../../core/spb/types';
import type { SpbStore } from '../store';
import { toStepRef } from '../stepView';
import type { StepViews } from '../stepView/views';
import { argRun, type ProjectSource } from '../../../labels/projectSources';
import type { LabelService } from '../../../labels/service';
import type { LabelTreeAugment } from './treeLabels';

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
