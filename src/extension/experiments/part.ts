// What a format gives the Experiments view (its contribution's `experiments`): its rows of the benchmark's experiment
// log as tree items, and when they may have changed. What a row shows and what its commands do are the format's; the
// host (index.ts) keeps the view and lists every open benchmark's rows.
import type * as vscode from 'vscode';

export interface ExperimentsPart<N extends object = object> extends vscode.Disposable {
  /** Its rows, newest first, as the nodes its commands receive (empty when its benchmark is not open). */
  nodes(): readonly N[];
  item(node: N): vscode.TreeItem;
  /** Fires when its rows may have changed (its benchmark reloaded, an experiment logged). */
  readonly onDidChange: vscode.Event<unknown>;
}
