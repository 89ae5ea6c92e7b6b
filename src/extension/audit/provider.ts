// TreeDataProvider of the PI Audit view: rebuilds the nodes when a new result arrives and only refreshes them
// (same ids, same instances) when a verdict changes, so expanded nodes and the selection stay.
import * as vscode from 'vscode';
import { PI_CATEGORIES } from '../../core/pi/placeholders';
import { CategoryNode, type AuditNode } from './nodes';
import type { Audited, AuditSession } from './session';
import { SummaryNode } from './summaryNodes';

export class AuditTreeProvider implements vscode.TreeDataProvider<AuditNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AuditNode | AuditNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: CategoryNode[] = [];
  private summary: SummaryNode | undefined;
  private builtFrom: readonly Audited[] | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly session: AuditSession) {
    this.subscriptions = [
      session.onDidChange(() => this.changed.fire(undefined)),
      // A verdict changes counts up to the category only: refreshing just those categories keeps the rest as it is
      // (a full refresh would fold the expanded nodes inside collapsed categories back to their defaults).
      session.onDidRecord((findings) => {
        const cats = new Set(findings.map((f) => f.category));
        const nodes = this.roots.filter((r) => cats.has(r.group.category));
        // A verdict also changes the counts of the rows below the category (a platform, a user): those live below.
        if (nodes.length) this.changed.fire(this.summary ? [this.summary, ...nodes] : nodes);
      }),
    ];
  }

  private rootNodes(): (SummaryNode | CategoryNode)[] {
    const audits = this.session.results;
    if (audits !== this.builtFrom) {
      this.builtFrom = audits;
      const session = this.session;
      const ctx = { verdictOf: session.verdictOf, verdictTrail: (key: string) => session.verdictRow(key) };
      this.roots = audits.length
        ? PI_CATEGORIES.map(
            (category) =>
              new CategoryNode(
                ctx,
                { category },
                audits.flatMap((a) => a.target.part.category(a.result, category, ctx) ?? []),
              ),
          )
        : [];
      this.summary = new SummaryNode({
        results: () => session.results.map((a) => ({ format: a.target.label, result: a.result })),
        verdictOf: session.verdictOf,
        ranAt: session.ranAt,
      });
    }
    return this.summary && this.roots.length ? [this.summary, ...this.roots] : this.roots;
  }

  getTreeItem(node: AuditNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  getChildren(node?: AuditNode): AuditNode[] {
    if (node) return node.getChildren();
    const roots = this.rootNodes();
    // Nothing found and nothing redacted: the welcome content says so instead of ten empty categories.
    return roots.some((r) => r instanceof CategoryNode && r.hasChildren) ? roots : [];
  }

  getParent(node: AuditNode): AuditNode | undefined {
    return node.parent;
  }

  resolveTreeItem(item: vscode.TreeItem, node: AuditNode): vscode.TreeItem {
    item.tooltip ??= node.tooltip();
    return item;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
