// Show Experiment Table: the experiment log as a sortable table in a webview (webview/spb/experiments), kept up to date as
// the log changes. A row opens its paired steps in Compare Runs; two rows, their templates' diff.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { benchmarkSize, experimentTableRows } from '../../../../core/spb/experiments/table';
import {
  EXPERIMENT_TABLE_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type WebviewToExtension,
} from '../../../../shared/spb/experimentTableProtocol';
import { newNonce, webviewHtml } from '../../../webviewHtml';
import { ReusedPanel } from '../../../webviewPanel';
import { compareExperiment, diffTemplates, type ExperimentDeps } from './commands';
import { ExperimentNode } from './provider';

export class ExperimentTablePanel extends ReusedPanel<ExtensionToWebview, WebviewToExtension> {
  constructor(
    extensionUri: vscode.Uri,
    private readonly deps: ExperimentDeps,
  ) {
    super(
      {
        viewType: EXPERIMENT_TABLE_VIEW_TYPE,
        title: 'Experiments',
        viewColumn: vscode.ViewColumn.Active,
        extensionUri,
        html: (webview) =>
          webviewHtml(webview, extensionUri, newNonce(), {
            title: 'Persona Lab: Experiments',
            bundle: 'experiments',
            rootId: 'experiments-root',
            placeholder: 'Reading the experiment log…',
          }),
      },
      { accepts: isWebviewToExtension, logName: 'experiment table' },
    );
    this.disposables.push(deps.provider.onDidChange(() => this.refresh()));
  }

  protected refresh(): void {
    const { root, bench } = this.deps.rerun.store;
    const size = bench ? benchmarkSize(bench) : { users: 0, steps: 0 };
    this.post({
      type: 'show',
      model: { benchmark: root ? basename(root) : '', rows: experimentTableRows(this.deps.provider.current, size) },
    });
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    const row = (id: number) => this.deps.provider.current.find((r) => r.id === id);
    if (msg.type === 'compare') {
      const r = row(msg.id);
      if (r) await compareExperiment(this.deps, new ExperimentNode(r));
    } else if (msg.type === 'diff') {
      const a = row(msg.a);
      const b = row(msg.b);
      if (a && b) await diffTemplates(this.deps, undefined, [new ExperimentNode(a), new ExperimentNode(b)]);
    }
  }
}
