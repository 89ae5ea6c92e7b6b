// The Label Summary as Markdown, for Copy as Markdown and Open as Markdown in the agreement table: the summary and
// its gold section (goldMarkdown.ts), a read-only document rebuilt from the database whenever the labels change.
import * as vscode from 'vscode';
import { agreementsByBenchmark, summarize } from '../../../core/labels/agreement';
import type { LabelService } from '../service';
import { summaryMarkdown } from '../summaryMarkdown';
import { GoldTablesMemo } from './gold';
import { goldMarkdown } from './goldMarkdown';
import { followWhileShown, type ShownEvent } from '../gold/decisionSource';

export const SUMMARY_URI = vscode.Uri.from({ scheme: 'personalab-labels', path: '/Label Summary.md' });

/** The summary and, after it, the gold section (its report from `gold`, which keeps the last one computed). */
export function summaryText(labels: LabelService, gold: GoldTablesMemo): string {
  const rows = labels.store(false)?.list() ?? [];
  const perAuthor = new Map<string, number>();
  for (const r of rows) perAuthor.set(r.author, (perAuthor.get(r.author) ?? 0) + 1);
  const part = gold.part(rows, labels.decisions.read(), labels.names(), labels.unitOf);
  const agreements = agreementsByBenchmark(rows, labels.unitOf);
  return [
    summaryMarkdown(summarize(rows), labels.names(), labels.dbFile, perAuthor, agreements).trimEnd(),
    '',
    goldMarkdown(part),
  ].join('\n');
}

class SummaryDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly gold = new GoldTablesMemo();
  readonly onDidChange = this.changed.event;

  private readonly subscription: vscode.Disposable;

  constructor(private readonly labels: LabelService) {
    this.subscription = labels.onDidChange(() => this.changed.fire(SUMMARY_URI));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  provideTextDocumentContent(): string {
    return summaryText(this.labels, this.gold);
  }
}

export function registerSummaryDocument(labels: LabelService): vscode.Disposable {
  const isSummary = (d: vscode.TextDocument) => d.uri.toString() === SUMMARY_URI.toString();
  // Its gold section follows the label server's decisions while the document is open.
  const open: ShownEvent = (listener) =>
    vscode.Disposable.from(
      vscode.workspace.onDidOpenTextDocument((d) => isSummary(d) && listener(true)),
      vscode.workspace.onDidCloseTextDocument((d) => isSummary(d) && listener(false)),
    );
  const document = new SummaryDocument(labels);
  return vscode.Disposable.from(
    document,
    vscode.workspace.registerTextDocumentContentProvider(SUMMARY_URI.scheme, document),
    followWhileShown(labels.decisions, open),
  );
}

/** The Markdown preview of the summary beside the active group (its source when there is no Markdown preview). */
export async function openSummaryMarkdown(): Promise<void> {
  await vscode.commands.executeCommand('markdown.showPreviewToSide', SUMMARY_URI).then(undefined, async () => {
    await vscode.window.showTextDocument(SUMMARY_URI, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  });
}
