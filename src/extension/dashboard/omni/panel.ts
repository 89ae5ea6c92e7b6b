// The OmniBehavior dashboard: the selected run's headline scores (spec "Scoring") and the paper's bias diagnostics
// (positive rates per scene, intra/inter-user distance ratio, a one-line reading). One panel, reused.
import * as vscode from 'vscode';
import { biasDiagnostics } from '../../../core/omni/bias';
import { COMPONENTS } from '../../../core/omni/fields';
import {
  OMNI_DASHBOARD_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type OmniDashboardModel,
} from '../../../shared/omniDashboardProtocol';
import { newNonce, webviewHtml } from '../../webviewHtml';
import { PanelHost } from '../../webviewPanel';
import type { OmniStore } from '../../benchmarks/omni/store';

export class OmniDashboardPanel implements vscode.Disposable {
  private host: PanelHost<ExtensionToWebview> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: OmniStore,
  ) {
    this.subscription = store.onDidChange(() => this.refresh());
  }

  show(): void {
    if (this.host) {
      this.host.panel.reveal(this.host.panel.viewColumn);
      this.refresh();
      return;
    }
    this.host = new PanelHost<ExtensionToWebview>({
      viewType: OMNI_DASHBOARD_VIEW_TYPE,
      title: 'Persona Lab: OmniBehavior Dashboard',
      viewColumn: vscode.ViewColumn.Active,
      extensionUri: this.extensionUri,
      html: (webview) =>
        webviewHtml(webview, this.extensionUri, newNonce(), {
          title: 'Persona Lab OmniBehavior dashboard',
          bundle: 'omnidash',
          rootId: 'omnidash-root',
          placeholder: 'Loading…',
        }),
      onMessage: (raw) => {
        if (!isWebviewToExtension(raw)) return;
        if (raw.type === 'ready') this.refresh();
        else void vscode.commands.executeCommand('personaLab.chooseOmniRun');
      },
      onDispose: () => (this.host = undefined),
    });
  }

  private post(msg: ExtensionToWebview): void {
    this.host?.post(msg);
  }

  private refresh(): void {
    const bench = this.store.bench;
    const run = this.store.run;
    const score = this.store.score();
    if (!bench || !run || !score) {
      this.post({ type: 'empty', message: bench ? 'No run is selected: choose one (Persona Lab: Choose OmniBehavior Run…).' : 'No OmniBehavior benchmark is open.' });
      return;
    }
    const model: OmniDashboardModel = {
      root: bench.root,
      run: run.name,
      overall: score.overall ?? null,
      answered: score.answered,
      leftOut: score.leftOut,
      components: COMPONENTS.map((id) => ({ id, value: score.components[id] ?? null })),
      fields: score.fields,
      bias: biasDiagnostics(bench, run),
    };
    this.post({ type: 'show', model });
  }

  dispose(): void {
    this.host?.panel.dispose();
    this.subscription.dispose();
  }
}
