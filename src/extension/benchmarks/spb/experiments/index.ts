// Template experiments: StreamProfileBench's rows of the Experiments view (the log, newest first, with paired deltas;
// the view is extension/experiments/, which finds them by the store) and what its commands need.
// The Experiments table comes back after a reload of the window: its sort and selection are in the page's state, its
// rows are read from the log again.
import * as vscode from 'vscode';
import { EXPERIMENT_TABLE_VIEW_TYPE } from '../../../../shared/spb/experimentTableProtocol';
import { restoreReusedPanel } from '../../../webviewPanel';
import type { ReadOnlyDocs } from '../../../docs';
import type { RerunDeps } from '../rerun/step';
import type { ExperimentDeps } from './commands';
import type { SpbStore } from '../store';
import { ExperimentsProvider } from './provider';
import { ExperimentTablePanel } from './table';

const made = new WeakMap<SpbStore, ExperimentsProvider>();

/** The store's rows of the Experiments view (its contribution's `experiments`), once its features made them. */
export const spbExperimentsOf = (store: SpbStore): ExperimentsProvider | undefined => made.get(store);

export function activateExperiments(
  context: vscode.ExtensionContext,
  rerun: RerunDeps,
  docs: ReadOnlyDocs,
): ExperimentDeps {
  const provider = new ExperimentsProvider(rerun.store);
  made.set(rerun.store, provider);
  provider.refresh();
  let table: ExperimentTablePanel | undefined;
  const tablePanel = () => (table ??= new ExperimentTablePanel(context.extensionUri, deps));
  const deps: ExperimentDeps = {
    rerun,
    docs,
    provider,
    showTable: () => tablePanel().show(),
  };
  context.subscriptions.push(
    { dispose: () => table?.dispose() },
    restoreReusedPanel(EXPERIMENT_TABLE_VIEW_TYPE, { adopt: (panel) => tablePanel().adopt(panel) }, () =>
      rerun.store.ready(),
    ),
  );
  return deps;
}
