// What an open benchmark shows in the Benchmarks view: its root nodes. A source keeps its nodes until it fires
// onDidChange, so TreeView.reveal finds the instances the view shows.
import type * as vscode from 'vscode';
import type { TreeNode } from './node';
import type { OrderSetting } from './orderSetting';

export interface RootSource {
  readonly onDidChange: vscode.Event<void>;
  roots(): TreeNode[];
  /** The order its users are listed in (Sort Users By…). */
  readonly order: OrderSetting<string>;
}

/** The top of the branch `node` is in. */
export function topOf(node: TreeNode): TreeNode {
  let top = node;
  while (top.parent) top = top.parent;
  return top;
}

export function isTreeNode(arg: unknown): arg is TreeNode {
  return typeof arg === 'object' && arg !== null && 'getTreeItem' in arg && 'parent' in arg;
}

/** The benchmark whose roots hold `arg` when it is a tree row (a command run from a row's menu), else undefined. */
export function ownerOf<B extends { readonly tree: RootSource }>(
  benchmarks: readonly B[],
  arg: unknown,
): B | undefined {
  if (!isTreeNode(arg)) return undefined;
  const top = topOf(arg);
  return benchmarks.find((b) => b.tree.roots().includes(top));
}
