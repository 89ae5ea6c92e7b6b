// The PI Audit tree's first row: the audit's summary, one fact per row (when it ran, then each benchmark's findings,
// verdict counts, placeholders, files scanned), refreshed in place when a verdict changes the counts.
import * as vscode from 'vscode';
import { markdown, treeItem } from '../treeItem';
import { ranAtText, summaryFacts, type SummarisedResult, type SummaryFact, type VerdictOf } from './model';
import type { AuditNode } from './nodeTypes';

/** What the summary is built from: the session's results by format name, the verdicts and when the audit ran. */
export interface SummarySource {
  results(): readonly { format: string; result: SummarisedResult }[];
  verdictOf: VerdictOf;
  ranAt: Date;
}

class FactNode implements AuditNode {
  constructor(
    readonly parent: AuditNode,
    private readonly id: string,
    private readonly fact: () => SummaryFact,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const f = this.fact();
    return treeItem({
      label: f.label,
      description: f.value,
      state: vscode.TreeItemCollapsibleState.None,
      id: this.id,
      contextValue: 'auditSummaryFact',
      icon: 'blank',
    });
  }

  getChildren(): AuditNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    const f = this.fact();
    return markdown().appendText(`${f.label}: ${f.value}`);
  }
}

class FormatSummaryNode implements AuditNode {
  constructor(
    readonly parent: AuditNode,
    private readonly source: SummarySource,
    private readonly format: string,
  ) {}

  private facts(): SummaryFact[] {
    const r = this.source.results().find((x) => x.format === this.format);
    return r ? summaryFacts(r.result, this.source.verdictOf) : [];
  }

  getTreeItem(): vscode.TreeItem {
    return treeItem({
      label: this.format,
      description: '',
      state: vscode.TreeItemCollapsibleState.Expanded,
      id: `pi-summary/${this.format}`,
      contextValue: 'auditSummaryFormat',
      icon: 'database',
    });
  }

  getChildren(): AuditNode[] {
    // The facts of a result are fixed except the verdict counts: rows are named by their label, read live.
    return this.facts().map(
      (f) =>
        new FactNode(
          this,
          `pi-summary/${this.format}/${f.label}`,
          () => this.facts().find((x) => x.label === f.label) ?? { label: f.label, value: '0' },
        ),
    );
  }

  tooltip(): vscode.MarkdownString {
    return markdown().appendText(
      this.facts()
        .map((f) => `${f.label}: ${f.value}`)
        .join('\n\n'),
    );
  }
}

export class SummaryNode implements AuditNode {
  readonly parent = undefined;

  constructor(private readonly source: SummarySource) {}

  getTreeItem(): vscode.TreeItem {
    return treeItem({
      label: 'Summary',
      description: `ran ${ranAtText(this.source.ranAt)}`,
      state: vscode.TreeItemCollapsibleState.Expanded,
      id: 'pi-summary',
      contextValue: 'auditSummary',
      icon: 'info',
    });
  }

  getChildren(): AuditNode[] {
    const ran = new FactNode(this, 'pi-summary/ran', () => ({ label: 'Ran', value: ranAtText(this.source.ranAt) }));
    return [ran, ...this.source.results().map((r) => new FormatSummaryNode(this, this.source, r.format))];
  }

  tooltip(): vscode.MarkdownString {
    return markdown().appendText(`The PI audit ran ${this.source.ranAt.toLocaleString()}.`);
  }
}
