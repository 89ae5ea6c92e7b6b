// The Benchmarks view: benchmark → platform → user → step, plus Reveal Step by User ID… and Copy User ID.
import * as vscode from 'vscode';
import type { BenchmarkStore, StepRef } from '../store';
import { findUser, parseUserQuery } from './model';
import { UserNode, type TreeNode } from './nodes';
import { BenchmarkTreeProvider } from './provider';

export const VIEW_ID = 'personaLab.benchmarks';

export interface TreeApi {
  view: vscode.TreeView<TreeNode>;
  provider: BenchmarkTreeProvider;
}

/** Returns the view and its provider, for features that add to the tree (labels: badges, filter, message). */
export function activateTree(context: vscode.ExtensionContext, store: BenchmarkStore): TreeApi {
  const provider = new BenchmarkTreeProvider(store);
  const view = vscode.window.createTreeView<TreeNode>(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  const update = () => {
    view.description = store.runName;
    void vscode.commands.executeCommand('setContext', 'personaLab.loaded', store.bench !== undefined);
  };
  update();
  context.subscriptions.push(
    provider,
    view,
    store.onDidChange(update),
    store.onDidChangeLoading((loading) => void vscode.commands.executeCommand('setContext', 'personaLab.loading', loading)),
    vscode.commands.registerCommand('personaLab.revealUser', (arg?: string | StepRef) => revealUser(view, provider, store, arg)),
    vscode.commands.registerCommand('personaLab.copyUserId', (node?: TreeNode) => copyUserId(node ?? view.selection[0])),
  );
  return { view, provider };
}

/** Asks for a user id (optionally followed by a step number) unless given one, then reveals and selects its node. */
async function revealUser(
  view: vscode.TreeView<TreeNode>,
  provider: BenchmarkTreeProvider,
  store: BenchmarkStore,
  arg: string | StepRef | undefined,
): Promise<void> {
  await store.ready();
  const bench = store.bench;
  if (!bench) {
    void vscode.window.showInformationMessage('Persona Lab: open a benchmark folder first.');
    return;
  }
  let query = typeof arg === 'string' ? parseUserQuery(arg) : arg;
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
  const node = provider.find(query.userId, query.stepId);
  if (!node) {
    void vscode.window.showWarningMessage(`Persona Lab: no user "${query.userId}"${query.stepId ? ` with step ${query.stepId}` : ''}.`);
    return;
  }
  await view.reveal(node, { select: true, focus: true, expand: node instanceof UserNode ? 1 : undefined });
}

async function copyUserId(node: TreeNode | undefined): Promise<void> {
  let userId: string | undefined;
  for (let n: TreeNode | undefined = node; n && !userId; n = n.parent) if (n instanceof UserNode) userId = n.row.user.userId;
  if (!userId) return;
  await vscode.env.clipboard.writeText(userId);
  vscode.window.setStatusBarMessage(`Copied ${userId}`, 3000);
}
