// The compare view: the paired summary of run B against run A and the steps sorted by the biggest regression or
// gain. Rows open both runs' step views side by side. One panel, reused for every pair.
import * as vscode from 'vscode';
import { PLATFORMS } from '../../core/types';
import {
  COMPARE_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type Ref,
  type Scope,
  type WebviewToExtension,
} from '../../shared/dashboardProtocol';
import type { BenchmarkStore } from '../store';
import { dashboardHtml, localRoots, newNonce } from '../dashboard/html';
import { openStepOfRun } from '../dashboard/open';
import { compareModel, type CompareOptions } from './model';
import type { CompareSession } from './session';

export class ComparePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private generation = 0;
  private options: CompareOptions = { scope: 'all', sortMetric: 'Recall', order: 'regression' };
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: BenchmarkStore,
    private readonly session: CompareSession,
  ) {
    this.disposables.push(session.onDidChange(() => void this.refresh()));
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal(this.panel.viewColumn);
      void this.refresh();
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      COMPARE_VIEW_TYPE,
      'Persona Lab: Compare',
      { viewColumn: vscode.ViewColumn.Active },
      { enableScripts: true, localResourceRoots: localRoots(this.extensionUri), enableFindWidget: true },
    );
    this.panel = panel;
    this.ready = false;
    const own: vscode.Disposable[] = [];
    panel.webview.html = dashboardHtml(panel.webview, this.extensionUri, newNonce(), 'compare');
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.ready = false;
      for (const d of own.splice(0)) d.dispose();
    });
    panel.onDidChangeViewState(() => {
      if (!panel.visible) this.ready = false;
    }, undefined, own);
    panel.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw), undefined, own);
  }

  private post(message: ExtensionToWebview): void {
    if (this.panel && this.ready) void this.panel.webview.postMessage(message);
  }

  /** Posts the comparison of the current pair (a later call supersedes one still computing). */
  async refresh(): Promise<void> {
    if (!this.panel) return;
    const generation = ++this.generation;
    const bench = this.store.bench;
    const pair = this.session.pair;
    const cmp = await this.session.comparison();
    if (generation !== this.generation || !this.panel) return;
    if (!bench || !pair || !cmp) {
      this.post({ type: 'empty', message: bench ? 'Pick two runs to compare (Persona Lab: Compare Runs…).' : 'No benchmark is open.' });
      return;
    }
    const scopes: Scope[] = ['all', ...PLATFORMS.filter((p) => cmp.users.some((u) => u.platform === p))];
    if (!scopes.includes(this.options.scope)) this.options = { ...this.options, scope: 'all' };
    const options = this.options;
    const started = Date.now();
    const summary = (await this.session.summary(options.scope)) ?? [];
    if (generation !== this.generation || !this.panel) return;
    const model = compareModel(cmp, summary, [...bench.runs.keys()], scopes, options);
    this.panel.title = `Compare: ${pair.b} vs ${pair.a}`;
    this.post({ type: 'compare', model });
    if (this.ready) {
      const regressed = model.rows.filter((r) => (r.delta[0] ?? 0) < 0).length;
      console.log(`[persona-lab] compare view: ${pair.b} vs ${pair.a} (${options.scope}): ${model.rows.length} step(s), ${regressed} regressed, in ${Date.now() - started} ms`);
    }
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (!isWebviewToExtension(raw)) {
      console.warn('[persona-lab] compare view: ignored an unknown message from the webview');
      return;
    }
    const msg: WebviewToExtension = raw;
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        void this.refresh();
        break;
      case 'compareOptions':
        this.options = { scope: msg.scope, sortMetric: msg.sortMetric, order: msg.order };
        void this.refresh();
        break;
      case 'openPair':
        await this.openPair(msg.ref);
        break;
      case 'openStep':
        await openStepOfRun(msg.ref, msg.run, { viewColumn: vscode.ViewColumn.Beside });
        break;
      case 'pickRuns':
        await vscode.commands.executeCommand('personaLab.compareRuns');
        break;
      case 'swapRuns': {
        const pair = this.session.pair;
        if (pair) await this.session.setPair({ a: pair.b, b: pair.a });
        break;
      }
      default:
        break;
    }
  }

  /** Run A's step view in the second column and run B's in the third, beside this panel; focus stays here. */
  private async openPair(ref: Ref): Promise<void> {
    const pair = this.session.pair;
    if (!pair) return;
    await openStepOfRun(ref, pair.a, { viewColumn: vscode.ViewColumn.Two, preserveFocus: true });
    await openStepOfRun(ref, pair.b, { viewColumn: vscode.ViewColumn.Three, preserveFocus: true });
  }

  dispose(): void {
    this.panel?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
