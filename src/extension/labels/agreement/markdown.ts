// The Label Summary as Markdown, for Copy as Markdown and Open as Markdown in the agreement table: a read-only
// document rebuilt from the database whenever the labels change.
import * as vscode from 'vscode';
import { agreementsByBenchmark, summarize } from '../../../core/labels/agreement';
import type { LabelService } from '../service';
import { summaryMarkdown } from '../summaryMarkdown';

export const SUMMARY_URI = vscode.Uri.from({ scheme: 'personalab-labels', path: '/Label Summary.md' });

export function summaryText(labels: LabelService): string {
  const rows = labels.store(false)?.list() ?? [];
  const perAuthor = new Map<string, number>();
  for (const r of rows) perAuthor.set(r.author, (perAuthor.get(r.author) ?? 0) + 1);
  return summaryMarkdown(
    summarize(rows),
    labels.names(),
    labels.dbFile,
    perAuthor,
    agreementsByBenchmark(rows, labels.unitOf),
  );
}

class SummaryDocument implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly labels: LabelService) {
    labels.onDidChange(() => this.changed.fire(SUMMARY_URI));
  }

  provideTextDocumentContent(): string {
    return summaryText(this.labels);
  }
}

export function registerSummaryDocument(labels: LabelService): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SUMMARY_URI.scheme, new SummaryDocument(labels));
}

/** The Markdown preview of the summary beside the active group (its source when there is no Markdown preview). */
export async function openSummaryMarkdown(): Promise<void> {
  await vscode.commands.executeCommand('markdown.showPreviewToSide', SUMMARY_URI).then(undefined, async () => {
    await vscode.window.showTextDocument(SUMMARY_URI, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  });
}
