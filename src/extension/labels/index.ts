// Labels feature: the label database and set (LabelService), labelling in the step view, badges / counts / the
// step filter in the Benchmarks tree, and the label commands.
import * as vscode from 'vscode';
import type { StepViews } from '../stepView/views';
import type { BenchmarkStore } from '../store';
import type { TreeApi } from '../tree';
import { registerFileCommands } from './fileCommands';
import { registerFilterCommands } from './filterCommands';
import { LabelService } from './service';
import { LabelStepController } from './stepController';
import { LabelTreeAugment } from './treeLabels';

/** Returns the label service, which the trace view's labelling shares. */
export function activateLabels(context: vscode.ExtensionContext, store: BenchmarkStore, stepViews: StepViews, tree: TreeApi): LabelService {
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
  tree.provider.setAugment(augment);
  registerFilterCommands(context, store, labels, augment, stepViews.main, tree);
  registerFileCommands(context, labels);
  return labels;
}
