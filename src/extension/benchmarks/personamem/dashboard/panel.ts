// The PersonaMem dashboard: every run's accuracy per question type and per topic on its split, and per context
// length across the splits (core/personamem/dashboard.ts, from the store's scores), each table with what it covers.
// One panel, reused; it follows the benchmark's reloads.
import * as vscode from 'vscode';
import { buildPmDashboard, pmDashboardTables, type PmDashboardModel } from '../../../../core/personamem/dashboard';
import type { PmRunScore } from '../../../../core/personamem/score';
import {
  PM_DASHBOARD_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type WebviewToExtension,
} from '../../../../shared/personamem/dashboardProtocol';
import { saveChart } from '../../../charts/save';
import { copyTable } from '../../../dashboard/copyTable';
import { log } from '../../../log';
import { newNonce, webviewHtml } from '../../../webviewHtml';
import { ReusedPanel } from '../../../webviewPanel';
import type { PersonaMemStore } from '../store';
import type { LabelService } from '../../../labels/service';
import { WhyRunsFailFeed } from '../../../labels/gold/whyRunsFailFeed';

const VIEW = 'PersonaMem dashboard';

export class PersonaMemDashboardPanel extends ReusedPanel<ExtensionToWebview, WebviewToExtension> {
  private readonly whyRunsFail: WhyRunsFailFeed;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: PersonaMemStore,
    labels: LabelService,
  ) {
    super(
      {
        viewType: PM_DASHBOARD_VIEW_TYPE,
        title: 'Persona Lab: PersonaMem Dashboard',
        viewColumn: vscode.ViewColumn.Active,
        extensionUri,
        html: (webview) =>
          webviewHtml(webview, extensionUri, newNonce(), {
            title: 'Persona Lab PersonaMem dashboard',
            bundle: 'personamemdash',
            rootId: 'pmdash-root',
            placeholder: 'Loading…',
          }),
      },
      { accepts: isWebviewToExtension, logName: VIEW },
    );
    this.whyRunsFail = new WhyRunsFailFeed(labels, store, () => this.host, this.onDidChangeVisible);
    this.disposables.push(
      this.whyRunsFail,
      store.onDidChange(() => this.refresh()),
    );
  }

  /** The model of every run the folder holds, scored once per load by the store. */
  private model(): PmDashboardModel | undefined {
    const bench = this.store.bench;
    if (!bench || bench.runs.size === 0) return undefined;
    const scores = [...bench.runs.keys()]
      .map((name) => this.store.score(name))
      .filter((s): s is PmRunScore => s !== undefined);
    return buildPmDashboard(bench, scores);
  }

  protected refresh(): void {
    if (!this.host) return;
    const bench = this.store.bench;
    const model = this.model();
    if (!model) {
      this.post({
        type: 'empty',
        message: bench
          ? `No runs: the dashboard shows the results CSVs under ${bench.root}/results/ (eval_results_<size>_<model>.csv).`
          : 'No PersonaMem benchmark is open.',
      });
      return;
    }
    this.post({ type: 'show', model });
    this.whyRunsFail.refresh();
    const tables = pmDashboardTables(model).length;
    log.info(`${VIEW}: showing ${bench?.runs.size ?? 0} run(s) in ${tables} table(s)`);
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    if (msg.type === 'saveChart') await saveChart(msg, VIEW, this.store.bench?.root);
    else if (msg.type === 'copyTable') {
      const model = this.model();
      const table = model && pmDashboardTables(model).find((t) => t.id === msg.table);
      if (table) await copyTable(table, msg.format, VIEW);
    }
  }
}
