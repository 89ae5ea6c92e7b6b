// TreeDataProvider of the PI Audit view: rebuilds the nodes when a new result arrives and only refreshes them
// (same ids, same instances) when a verdict changes, so expanded nodes and the selection stay.
import * as vscode from 'vscode';
import type { AuditResult } from '../../core/pi/audit';
import { groupAudit } from './spb/model';
import { CategoryNode, type AuditNode } from './nodes';
import { groupOmni } from './omni/model';
import type { OmniAuditResult } from '../../core/pi/omniAudit';
import type { AuditSession } from './session';
import { SummaryNode } from './summaryNodes';
import { streamProfileBench } from '../../core/spb/format/format';
import { omniBehavior } from '../../core/omni/format';

export class AuditTreeProvider implements vscode.TreeDataProvider<AuditNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AuditNode | AuditNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: CategoryNode[] = [];
  private summary: SummaryNode | undefined;
  private builtFrom: [AuditResult | undefined, OmniAuditResult | undefined] = [undefined, undefined];
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly session: AuditSession) {
    this.subscriptions = [
      session.onDidChange(() => this.changed.fire(undefined)),
      // A verdict changes counts up to the category only: refreshing just those categories keeps the rest as it is
      // (a full refresh would fold the expanded nodes inside collapsed categories back to their defaults).
      session.onDidRecord((findings) => {
        const cats = new Set(findings.map((f) => f.category));
        const nodes = this.roots.filter((r) => cats.has(r.group.category));
        // An OmniBehavior verdict also changes the OmniBehavior node's and its user's counts: those live below.
        if (nodes.length) this.changed.fire(this.summary ? [this.summary, ...nodes] : nodes);
      }),
    ];
  }

  private rootNodes(): (SummaryNode | CategoryNode)[] {
    const result = this.session.result;
    const omni = this.session.omniResult;
    if (result !== this.builtFrom[0] || omni !== this.builtFrom[1]) {
      this.builtFrom = [result, omni];
      const verdictTrail = (key: string) => this.session.verdictRow(key);
      const ctx = {
        result,
        omni: omni && { result: omni, verdictOf: this.session.verdictOf, verdictTrail },
        bench: this.session.benchmark,
        verdictOf: this.session.verdictOf,
        verdictTrail,
      };
      const groups = groupAudit(result ?? { findings: [], counts: [] });
      this.roots =
        result || omni ? groups.map((g) => new CategoryNode(ctx, g, omni && groupOmni(omni, g.category))) : [];
      const session = this.session;
      this.summary = new SummaryNode({
        results: () =>
          (
            [
              [streamProfileBench.label, session.result],
              [omniBehavior.label, session.omniResult],
            ] as const
          ).flatMap(([format, r]) => (r ? [{ format, result: r }] : [])),
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
