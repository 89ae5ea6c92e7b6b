// The Benchmarks view: the roots of each open benchmark, and the handlers of Reveal Step by User ID… and Copy User ID.
import * as vscode from 'vscode';
import { isRecord } from '../../core/guards';
import type { Benchmarks } from '../benchmarks';
import type { SpbStore, StepRef } from '../benchmarks/spb/store';
import { findUser, parseUserQuery } from './model';
import { UserNode } from '../benchmarks/spb/nodes';
import type { TreeNode } from './node';
import { isTreeNode } from './roots';
import type { TreeApi } from './api';
import { BenchmarkTreeProvider } from './provider';
import { TreeMessage } from './message';
import { sampleMessage } from './sampleCommands';
import { benchmarksViewDescription } from '../benchmarks/viewText';

export const VIEW_ID = 'personaLab.benchmarks';

export type { TreeApi } from './api';

/** Returns the view, for features that reveal nodes or set its message (labels: the filter). */
export function activateTree(context: vscode.ExtensionContext, benchmarks: Benchmarks): TreeApi {
  const store = benchmarks.spb;
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
    sampleMessage(store, message),
    provider,
    view,
    ...benchmarks.all.map((b) => b.onDidChange(update)),
    ...benchmarks.all.map((b) => b.onDidChangeLoading(update)),
  );
  return { view, message };
}

function isStepRef(arg: unknown): arg is StepRef {
  return isRecord(arg) && typeof arg.userId === 'string';
}

/** Asks for a user id (optionally followed by a step number) unless given one, then reveals and selects its node. */
export async function revealUser(view: vscode.TreeView<TreeNode>, store: SpbStore, arg: unknown): Promise<void> {
  const bench = store.bench;
  if (!bench) return;
  let query: { userId: string; stepId?: number } | undefined =
    typeof arg === 'string' ? parseUserQuery(arg) : isStepRef(arg) ? arg : undefined;
  if (!query) {
    const text = await vscode.window.showInputBox({
      title: 'Reveal Step by User ID',
      prompt: 'A user id, optionally followed by a step number (e.g. "we_16d82b9a92 3")',
      placeHolder: 'we_16d82b9a92',
      ignoreFocusOut: true,
      validateInput: (value) => {
        const q = parseUserQuery(value);
        if (!q) return value.trim() ? 'Type a user id, e.g. we_16d82b9a92' : undefined;
        const user = findUser(bench, q.userId);
        if (!user) return `No user "${q.userId}" in this benchmark`;
        if (q.stepId !== undefined && !user.steps.some((s) => s.stepId === q.stepId)) {
          return `${q.userId} has no step ${q.stepId} (steps ${user.steps.map((s) => s.stepId).join(', ')})`;
        }
        return undefined;
      },
    });
    if (!text) return;
    query = parseUserQuery(text);
    if (!query) return;
  }
  const node = store.tree.find(query.userId, query.stepId);
  if (!node) {
    const sample = store.tree.sample.scope();
    const hidden = sample && findUser(bench, query.userId);
    void vscode.window.showWarningMessage(
      hidden
        ? `Persona Lab: ${query.userId} is not in ${sample.label}, which the tree is filtered to: Clear Sample Filter to see it.`
        : `Persona Lab: no user "${query.userId}"${query.stepId ? ` with step ${query.stepId}` : ''}.`,
    );
    return;
  }
  await view.reveal(node, { select: true, focus: true, expand: node instanceof UserNode ? 1 : undefined });
}

export async function copyUserId(view: vscode.TreeView<TreeNode>, arg: unknown): Promise<void> {
  const node = isTreeNode(arg) ? arg : view.selection[0];
  let userId: string | undefined;
  for (let n: TreeNode | undefined = node; n && !userId; n = n.parent)
    if (n instanceof UserNode) userId = n.row.user.userId;
  if (!userId) return;
  await vscode.env.clipboard.writeText(userId);
  vscode.window.setStatusBarMessage(`Copied ${userId}`, 3000);
}
