// The compare view: the paired summary of run B against run A and the steps sorted by the biggest regression or
// gain. Rows open both runs' step views side by side. One panel, reused for every pair.
import * as vscode from 'vscode';
import { PLATFORMS } from '../../core/spb/types';
import {
  isWebviewToExtension,
  type ExtensionToWebview,
  type Ref,
  type Scope,
  type WebviewToExtension,
} from '../../shared/dashboardProtocol';
import type { SpbStore } from '../benchmarks/spb/store';
import { ReusedPanel } from '../webviewPanel';
import { dashboardPanelOptions } from '../dashboard/spb/html';
import { openStepOfRun } from '../dashboard/spb/open';
import { compareModel, type CompareOptions } from './model';
import type { CompareSession } from './session';
import { log } from '../log';

export class ComparePanel extends ReusedPanel<ExtensionToWebview, WebviewToExtension> {
  private generation = 0;
  private options: CompareOptions = { scope: 'all', sortMetric: 'Recall', order: 'regression' };

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: SpbStore,
    private readonly session: CompareSession,
  ) {
    super(dashboardPanelOptions(extensionUri, 'compare'), { accepts: isWebviewToExtension, logName: 'compare view' });
    this.disposables.push(session.onDidChange(() => void this.refresh()));
  }

  /** Posts the comparison of the current pair (a later call supersedes one still computing). */
  async refresh(): Promise<void> {
    if (!this.host) return;
    const generation = ++this.generation;
    const bench = this.store.bench;
    const pair = this.session.pair;
    const cmp = await this.session.comparison();
    if (generation !== this.generation || !this.host) return;
    if (!bench || !pair || !cmp) {
      this.post({
        type: 'empty',
        message: bench ? 'Pick two runs to compare (Persona Lab: Compare Runs…).' : 'No benchmark is open.',
      });
      return;
    }
    const scopes: Scope[] = ['all', ...PLATFORMS.filter((p) => cmp.users.some((u) => u.platform === p))];
    if (!scopes.includes(this.options.scope)) this.options = { ...this.options, scope: 'all' };
    const options = this.options;
    const started = Date.now();
    const summary = (await this.session.summary(options.scope)) ?? [];
    if (generation !== this.generation || !this.host) return;
    const model = compareModel(cmp, summary, [...bench.runs.keys()], scopes, options);
    this.host.panel.title = `Compare: ${pair.a} vs ${pair.b}`;
    this.post({ type: 'compare', model });
    if (this.host.ready) {
      const regressed = model.rows.filter((r) => (r.delta[0] ?? 0) < 0).length;
      log.info(
        `compare view: ${pair.a} vs ${pair.b} (${options.scope}): ${model.rows.length} step(s), ${regressed} regressed, in ${Date.now() - started} ms`,
      );
    }
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    switch (msg.type) {
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

  /**
   * Run A's step view in the group right of this panel and run B's in the one after (each run's own pinned panel),
   * so the list stays in view for the next row; focus stays here.
   */
  private async openPair(ref: Ref): Promise<void> {
    const pair = this.session.pair;
    if (!pair) return;
    const here = this.host?.panel.viewColumn ?? vscode.ViewColumn.One;
    const a = Math.min(here + 1, vscode.ViewColumn.Nine) as vscode.ViewColumn;
    const b = Math.min(here + 2, vscode.ViewColumn.Nine) as vscode.ViewColumn;
    await openStepOfRun(ref, pair.a, { viewColumn: a, preserveFocus: true });
    await openStepOfRun(ref, pair.b, { viewColumn: b, preserveFocus: true });
  }
}
