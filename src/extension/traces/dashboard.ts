// The OmniBehavior dashboard: the selected run's headline scores (spec "Scoring") and the paper's bias diagnostics
// (positive rates per scene, intra/inter-user distance ratio, a one-line reading). One panel, reused.
import * as vscode from 'vscode';
import { biasDiagnostics } from '../../core/omni/bias';
import { COMPONENTS } from '../../core/omni/fields';
import {
  OMNI_DASHBOARD_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type OmniDashboardModel,
} from '../../shared/omniDashboardProtocol';
import { localRoots, newNonce, webviewHtml } from '../webviewHtml';
import type { OmniStore } from '../benchmarks/omni/store';

export class OmniDashboardPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: OmniStore,
  ) {
    this.subscription = store.onDidChange(() => this.refresh());
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal(this.panel.viewColumn);
      this.refresh();
      return;
    }
    const panel = vscode.window.createWebviewPanel(OMNI_DASHBOARD_VIEW_TYPE, 'Persona Lab: OmniBehavior Dashboard', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: localRoots(this.extensionUri),
      enableFindWidget: true,
    });
    this.panel = panel;
    this.ready = false;
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, newNonce(), {
      title: 'Persona Lab OmniBehavior dashboard',
      bundle: 'omnidash',
      rootId: 'omnidash-root',
      placeholder: 'Loading…',
    });
    const own = [
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
      }),
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        if (!isWebviewToExtension(raw)) return;
        if (raw.type === 'ready') {
          this.ready = true;
          this.refresh();
        } else void vscode.commands.executeCommand('personaLab.chooseOmniRun');
      }),
    ];
    panel.onDidDispose(() => {
      this.panel = undefined;
      for (const d of own) d.dispose();
    });
  }

  private post(msg: ExtensionToWebview): void {
    if (this.panel && this.ready) void this.panel.webview.postMessage(msg);
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
    this.panel?.dispose();
    this.subscription.dispose();
  }
}
