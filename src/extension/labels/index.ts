// Labels feature: the label database and set (LabelService), labelling in the step view, badges / counts / the
// step filter in the Benchmarks tree, and the label commands' handlers.
import * as vscode from 'vscode';
import type { SpbStore } from '../benchmarks/spb/store';
import type { StepViews } from '../stepView/views';
import type { TreeApi } from '../tree';
import { labelFileCommands, type LabelFileCommands } from './fileCommands';
import { filterMessage, type FilterDeps } from './filterCommands';
import { LabelService } from './service';
import { LabelStepController } from './spb/controller';
import { LabelTreeAugment } from './spb/treeLabels';

export interface LabelsApi {
  /** The label service, which the trace view's labelling shares. */
  service: LabelService;
  filter: FilterDeps;
  files: LabelFileCommands;
}

export function activateLabels(
  context: vscode.ExtensionContext,
  store: SpbStore,
  stepViews: StepViews,
  tree: TreeApi,
): LabelsApi {
  const labels = new LabelService(store, context.globalStorageUri.fsPath);
  const augment = new LabelTreeAugment(store, labels, context.workspaceState);
  const controller = new LabelStepController(stepViews.main, store, labels, augment);
  context.subscriptions.push(
    labels,
    augment,
    controller,
    // A pinned panel labels the run it shows; its controller goes with it.
    stepViews.onDidCreatePinned((panel) => {
      const pinned = new LabelStepController(panel, store, labels, augment);
      const sub = panel.onDidChangeOpen((open) => {
        if (open) return;
        pinned.dispose();
        sub.dispose();
      });
    }),
  );
  store.tree.setAugment(augment);
  const filter: FilterDeps = { bench: store, labels, augment, panel: stepViews.main, tree };
  context.subscriptions.push(filterMessage(filter));
  return { service: labels, filter, files: labelFileCommands(context, labels) };
}
