// The OmniBehavior dashboard: the selected run's headline scores (spec "Scoring") and the paper's bias diagnostics
// (positive rates per scene, intra/inter-user distance ratio, a one-line reading). One panel, reused.
import * as vscode from 'vscode';
import { biasDiagnostics } from '../../../../core/omni/bias';
import { coverageNote } from '../../../../core/coverage';
import { COMPONENTS } from '../../../../core/omni/fields';
import { componentNote, overallReason } from '../../../../core/omni/overallReason';
import {
  OMNI_DASHBOARD_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type OmniDashboardModel,
  type WebviewToExtension,
} from '../../../../shared/omni/dashboardProtocol';
import { newNonce, webviewHtml } from '../../../webviewHtml';
import { ReusedPanel } from '../../../webviewPanel';
import type { OmniStore } from '../store';
import { saveChart } from '../../../charts/save';
import { judgeAgreement } from '../../../../core/omni/judgeAgreement';
import type { ScoreRow } from '../../../../core/labels/scores';
import type { LabelService } from '../../../labels/service';
import { log } from '../../../log';
import { WhyRunsFailFeed } from '../../../labels/gold/whyRunsFailFeed';

export class OmniDashboardPanel extends ReusedPanel<ExtensionToWebview, WebviewToExtension> {
  private readonly whyRunsFail: WhyRunsFailFeed;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: OmniStore,
    private readonly labels: LabelService,
  ) {
    super(
      {
        viewType: OMNI_DASHBOARD_VIEW_TYPE,
        title: 'Persona Lab: OmniBehavior Dashboard',
        viewColumn: vscode.ViewColumn.Active,
        extensionUri,
        html: (webview) =>
          webviewHtml(webview, extensionUri, newNonce(), {
            title: 'Persona Lab OmniBehavior dashboard',
            bundle: 'omnidash',
            rootId: 'omnidash-root',
            placeholder: 'Loading…',
          }),
      },
      { accepts: isWebviewToExtension, logName: 'OmniBehavior dashboard' },
    );
    // The panel draws again on every label change (people's judge scores), the section with it.
    this.whyRunsFail = new WhyRunsFailFeed(labels, store, () => this.host, this.onDidChangeVisible, false);
    this.disposables.push(
      this.whyRunsFail,
      store.onDidChange(() => this.refresh()),
      labels.onDidChange(() => this.refresh()),
    );
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    if (msg.type === 'saveChart') await saveChart(msg, 'OmniBehavior dashboard', this.store.bench?.root);
    else if (msg.type === 'chooseRun') await vscode.commands.executeCommand('personaLab.chooseOmniRun');
  }

  protected refresh(): void {
    const bench = this.store.bench;
    const run = this.store.run;
    const score = this.store.score();
    if (!bench || !run || !score) {
      this.post({
        type: 'empty',
        message: bench
          ? 'No run is selected: choose one (Persona Lab: Choose OmniBehavior Run…).'
          : 'No OmniBehavior benchmark is open.',
      });
      return;
    }
    const model: OmniDashboardModel = {
      root: bench.root,
      run: run.name,
      overall: score.overall ?? null,
      overallReason: overallReason(score) ?? null,
      coverage: coverageNote(score.coverage) ?? null,
      made: this.store.madeNote() ?? null,
      answered: score.answered,
      leftOut: score.leftOut,
      components: COMPONENTS.map((id) => ({
        id,
        value: score.components[id] ?? null,
        why: componentNote(score, id) ?? null,
      })),
      fields: score.fields,
      bias: biasDiagnostics(bench, run),
      judge: judgeAgreement(run, this.peopleScores(run.name)),
    };
    this.post({ type: 'show', model });
    this.whyRunsFail.refresh();
  }

  /** People's scores of `run`'s utterances in the label database (none when there is no database yet). */
  private peopleScores(run: string): ScoreRow[] {
    const benchmark = this.labels.benchmarkOf(this.store);
    if (benchmark === undefined) return [];
    try {
      return this.labels.store(false)?.scores({ benchmark, run }) ?? [];
    } catch (e) {
      log.warn(`OmniBehavior dashboard: cannot read people's judge scores: ${(e as Error).message}`);
      return [];
    }
  }
}
