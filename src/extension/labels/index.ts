// Labels feature: the label database and set (LabelService), labelling in the step view, badges / counts / the
// step filter in the Benchmarks tree, and the label commands.
import * as vscode from 'vscode';
import type { StepPanel } from '../stepView/panel';
import type { BenchmarkStore } from '../store';
import type { TreeApi } from '../tree';
import { registerFileCommands } from './fileCommands';
import { registerFilterCommands } from './filterCommands';
import { LabelService } from './service';
import { LabelStepController } from './stepController';
import { LabelTreeAugment } from './treeLabels';

export function activateLabels(context: vscode.ExtensionContext, store: BenchmarkStore, stepView: StepPanel, tree: TreeApi): void {
  const labels = new LabelService(store, context.globalStorageUri.fsPath);
  const augment = new LabelTreeAugment(store, labels, context.workspaceState);
  const controller = new LabelStepController(stepView, store, labels, augment);
  context.subscriptions.push(labels, augment, controller);
  tree.provider.setAugment(augment);
  registerFilterCommands(context, store, labels, augment, stepView, tree);
  registerFileCommands(context, labels);
}
