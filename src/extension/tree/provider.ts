// TreeDataProvider of the Benchmarks view: returns the nodes' own TreeItems; rebuilt whenever the store changes.
import * as vscode from 'vscode';
import type { BenchmarkStore } from '../store';
import type { TreeAugment } from './augment';
import { findUser } from './model';
import { BenchmarkNode, type TreeNode } from './nodes';
import type { RootSource } from './roots';

export class BenchmarkTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private root: BenchmarkNode | undefined;
  private readonly subscription: vscode.Disposable;
  private augment: TreeAugment | undefined;
  private augmentSubscription: vscode.Disposable | undefined;
  private readonly sources: RootSource[] = [];

  constructor(private readonly store: BenchmarkStore) {
    // A full refresh with the same TreeItem ids: VS Code keeps what was expanded and selected.
    this.subscription = store.onDidChange(() => {
      this.root = undefined;
      this.changed.fire(undefined);
    });
  }

  /** Adds another feature's badges and filter; the tree rebuilds whenever it changes. */
  setAugment(augment: TreeAugment): void {
    this.augmentSubscription?.dispose();
    this.augment = augment;
    this.augmentSubscription = augment.onDidChange(() => {
      this.root = undefined;
      this.changed.fire(undefined);
    });
    this.root = undefined;
    this.changed.fire(undefined);
  }

  /** Shows a feature's root nodes after the StreamProfileBench benchmark; the view refreshes when they change. */
  addRootSource(source: RootSource): vscode.Disposable {
    this.sources.push(source);
    const sub = source.onDidChange(() => this.changed.fire(undefined));
    this.changed.fire(undefined);
    return new vscode.Disposable(() => {
      sub.dispose();
      this.sources.splice(this.sources.indexOf(source), 1);
      this.changed.fire(undefined);
    });
  }

  rootNode(): BenchmarkNode | undefined {
    const bench = this.store.bench;
    if (!bench) return undefined;
    this.root ??= new BenchmarkNode({ bench, run: this.store.run, score: this.store.score(), augment: this.augment });
    return this.root;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (node) return node.getChildren();
    const root = this.rootNode();
    return [...(root ? [root] : []), ...this.sources.flatMap((s) => s.roots())];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    item.tooltip ??= node.tooltip();
    return item;
  }

  /** The node of a user (or of one of its steps), built through the same cached children the view shows. */
  find(userId: string, stepId?: number): TreeNode | undefined {
    const root = this.rootNode();
    const user = root && findUser(root.ctx.bench, userId);
    const userNode = user && root.platform(user.platform)?.user(user.userId);
    if (!userNode || stepId === undefined) return userNode;
    return userNode.step(stepId);
  }

  dispose(): void {
    this.subscription.dispose();
    this.augmentSubscription?.dispose();
    this.changed.dispose();
  }
}
