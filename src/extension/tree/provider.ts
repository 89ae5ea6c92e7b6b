// TreeDataProvider of the Benchmarks view: the roots of each open benchmark, in order; a source's change refreshes
// the whole view (the nodes keep their TreeItem ids, so VS Code keeps what was expanded and selected). Not only the
// changed root: VS Code keeps the instance of a row it refreshes, and a root rebuilt on a reload holds the benchmark it
// was built over, so the old benchmark would stay in memory. While a refresh runs, a command from a row gets no row.
import * as vscode from 'vscode';
import type { TreeNode } from './node';
import type { RootSource } from './roots';

export class BenchmarkTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly sources: readonly RootSource[]) {
    this.subscriptions = sources.map((s) => s.onDidChange(() => this.changed.fire(undefined)));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (node) return node.getChildren();
    return this.sources.flatMap((s) => s.roots());
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    item.tooltip ??= node.tooltip();
    return item;
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.changed.dispose();
  }
}
