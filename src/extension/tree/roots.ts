// What an open benchmark shows in the Benchmarks view: its root nodes. A source keeps its nodes until it fires
// onDidChange, so TreeView.reveal finds the instances the view shows.
import type * as vscode from 'vscode';
import type { TreeNode } from './node';

export interface RootSource {
  readonly onDidChange: vscode.Event<void>;
  roots(): TreeNode[];
}
