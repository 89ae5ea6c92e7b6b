// What the Benchmarks view offers other features (apart from tree/index.ts, so that a format's parts import it
// without importing the open benchmarks).
import type * as vscode from 'vscode';
import type { TreeMessage } from './message';
import type { TreeNode } from './node';

export interface TreeApi {
  view: vscode.TreeView<TreeNode>;
  /** The view's message: each filter sets its part (message.ts). */
  message: TreeMessage;
}
