// Template experiments: the Experiments view (the log, newest first, with paired deltas) and what its commands need.
import * as vscode from 'vscode';
import type { ReadOnlyDocs } from '../docs';
import type { RerunDeps } from '../rerun/step';
import type { ExperimentDeps } from './commands';
import { ExperimentsProvider } from './provider';
import { ExperimentTablePanel } from './table';

export const EXPERIMENTS_VIEW = 'personaLab.experiments';

export function activateExperiments(
  context: vscode.ExtensionContext,
  rerun: RerunDeps,
  docs: ReadOnlyDocs,
): ExperimentDeps {
  const provider = new ExperimentsProvider(rerun.store);
  const view = vscode.window.createTreeView(EXPERIMENTS_VIEW, { treeDataProvider: provider, canSelectMany: true });
  context.subscriptions.push(provider, view);
  provider.refresh();
  let table: ExperimentTablePanel | undefined;
  const deps: ExperimentDeps = {
    rerun,
    docs,
    provider,
    showTable: () => {
      table ??= new ExperimentTablePanel(context.extensionUri, deps);
      table.show();
    },
  };
  context.subscriptions.push({ dispose: () => table?.dispose() });
  return deps;
}
