// The Label Summary as a table (Persona Lab: Label Summary): per benchmark, κ per label among all authors (Cohen's or
// Fleiss') with the Disagreements list (a row opens its unit beside the table), then per pair of authors κ, n, po, pe
// and the disagreements per label. A pair's row opens its disagreeing units: the first in the step view or the trace view, in the
// other editor group, and all of them listed under the row. It follows the label database live (the label
// service's change event, which covers other windows and the CLI) and comes back after a reload.
import * as vscode from 'vscode';
import type { StepRef } from '../../../core/labels/model';
import {
  AGREEMENT_VIEW_TYPE,
  isWebviewToExtension,
  type ExtensionToWebview,
  type WebviewToExtension,
} from '../../../shared/agreementProtocol';
import { log } from '../../log';
import { newNonce, webviewHtml } from '../../webviewHtml';
import { ReusedPanel } from '../../webviewPanel';
import type { LabelService } from '../service';
import { openSummaryMarkdown, summaryText } from './markdown';
import { agreementModel } from './model';
import { GoldTablesMemo } from './gold';
import { followWhileShown } from '../gold/decisionSource';
import { after, coalesce } from '../../../core/coalesce';
import { DISAGREEMENTS_SCOPE } from '../adjudicate/hook';

/** How a unit opens when a format's label part opens it in its own view (labels/part.ts `unitOpener`). */
export type UnitOpener = (ref: StepRef) => (() => Promise<void>) | undefined;

/** How long a burst of label changes may last before the table is computed again (once) for all of it. */
const CHANGES_SETTLE_MS = 250;

export class AgreementPanel extends ReusedPanel<ExtensionToWebview, WebviewToExtension> {
  private readonly gold = new GoldTablesMemo();
  constructor(
    extensionUri: vscode.Uri,
    private readonly labels: LabelService,
    private readonly unitOpener: UnitOpener,
  ) {
    super(
      {
        viewType: AGREEMENT_VIEW_TYPE,
        title: 'Label Agreement',
        // Beside the step view, so that labelling goes on with the table in sight.
        viewColumn: vscode.ViewColumn.Beside,
        extensionUri,
        html: (webview) =>
          webviewHtml(webview, extensionUri, newNonce(), {
            title: 'Persona Lab: Label Agreement',
            bundle: 'agreement',
            rootId: 'agreement-root',
            placeholder: 'Reading the labels…',
          }),
      },
      { accepts: isWebviewToExtension, logName: 'label agreement' },
    );
    // Each change event asks; the gold report (bootstrap intervals) is computed once per burst, and only when its
    // inputs changed.
    const soon = coalesce(() => this.host && this.refresh(), after(CHANGES_SETTLE_MS));
    this.disposables.push(
      labels.onDidChange(() => this.host && soon.request()),
      { dispose: () => soon.dispose() },
      // Its gold part follows the label server's decisions while the table shows.
      followWhileShown(labels.decisions, this.onDidChangeVisible),
    );
  }

  protected refresh(): void {
    const rows = this.labels.store(false)?.list() ?? [];
    const model = agreementModel(rows, this.labels.names(), this.labels.dbFile, this.labels.error, this.labels.unitOf);
    const gold = this.gold.part(rows, this.labels.decisions.read(), this.labels.names(), this.labels.unitOf);
    this.post({ type: 'show', model: { ...model, ...gold } });
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    switch (msg.type) {
      case 'ready':
        return;
      case 'open':
        return this.openUnit(msg.ref);
      case 'copyMarkdown':
        await vscode.env.clipboard.writeText(summaryText(this.labels, this.gold));
        void vscode.window.showInformationMessage('Persona Lab: the Label Summary is on the clipboard as Markdown.');
        return;
      case 'openMarkdown':
        return openSummaryMarkdown();
      case 'adjudicate':
        await vscode.commands.executeCommand('personaLab.adjudicateLabels', DISAGREEMENTS_SCOPE);
        return;
    }
  }

  /**
   * A unit in its view (a format part's, else the step or trace view), in a group other than the table's; the
   * keyboard stays in the table.
   */
  private async openUnit(ref: StepRef): Promise<void> {
    const own = this.host?.panel.viewColumn ?? vscode.ViewColumn.One;
    const other = own === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    log.info(`label agreement: open ${ref.platform}/${ref.userId}/${ref.stepId}${ref.run ? ` of run ${ref.run}` : ''}`);
    const byPart = this.unitOpener(ref);
    if (byPart) {
      // The view opens in the active group: make that the other one first, then give the table the keyboard back.
      await vscode.commands.executeCommand(
        other === vscode.ViewColumn.One
          ? 'workbench.action.focusFirstEditorGroup'
          : 'workbench.action.focusSecondEditorGroup',
      );
      await byPart();
      this.host?.panel.reveal(own, false);
      return;
    }
    // Labels belong to a run: a step opens in that run's step view.
    const arg = {
      platform: ref.platform,
      userId: ref.userId,
      stepId: ref.stepId,
      ...(ref.run ? { run: ref.run } : {}),
    };
    await vscode.commands.executeCommand('personaLab.openStep', arg, { viewColumn: other, preserveFocus: true });
  }
}
