// The Benchmarks view: the roots of each open benchmark, its description and the formats' context keys.
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import type { TreeNode } from './node';
import type { TreeApi } from './api';
import { BenchmarkTreeProvider } from './provider';
import { TreeMessage } from './message';
import { benchmarksViewDescription } from '../benchmarks/viewText';

export const VIEW_ID = 'personaLab.benchmarks';

export type { TreeApi } from './api';

/** Returns the view, for features that reveal nodes or set its message (labels: the filter). */
export function activateTree(context: vscode.ExtensionContext, benchmarks: Benchmarks): TreeApi {
  const provider = new BenchmarkTreeProvider(benchmarks.all.map((b) => b.tree));
  const view = vscode.window.createTreeView<TreeNode>(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  // The benchmark rows name their run with its figure; the view's description names the runs too (short: beside the
  // title icons a long one is cut), or what is loading.
  const update = () => {
    for (const c of benchmarks.contributions) {
      void vscode.commands.executeCommand('setContext', c.contextKey, benchmarks.of(c).bench !== undefined);
    }
    const loading = benchmarks.all.some((b) => b.isLoading);
    void vscode.commands.executeCommand('setContext', 'personaLab.loading', loading);
    view.description = benchmarksViewDescription(
      benchmarks.all.map((b) => ({
        label: b.format.label,
        loaded: b.bench !== undefined,
        loading: b.isLoading,
        run: b.run?.name,
      })),
    );
  };
  update();
  const message = new TreeMessage(view);
  context.subscriptions.push(
    provider,
    view,
    ...benchmarks.all.map((b) => b.onDidChange(update)),
    ...benchmarks.all.map((b) => b.onDidChangeLoading(update)),
  );
  return { view, message };
}
