// A row of the Benchmarks tree, whatever benchmark it belongs to.
import type * as vscode from 'vscode';

export interface TreeNode {
  readonly parent: TreeNode | undefined;
  getTreeItem(): vscode.TreeItem;
  getChildren(): TreeNode[];
  /** Built only when the user hovers (TreeDataProvider.resolveTreeItem), not for every row. */
  tooltip(): vscode.MarkdownString;
}
