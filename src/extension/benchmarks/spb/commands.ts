// StreamProfileBench's own commands on its benchmark and tree: Show Diagnostics, Choose Run…, Reveal Step by User
// ID… and Copy User ID. Its command table (commandTable.ts) registers them.
import * as vscode from 'vscode';
import { isRecord } from '../../../core/guards';
import { readRunOrigin } from '../../../core/spb/prompt/runOrigin';
import { summarize } from '../locate';
import type { TreeNode } from '../../tree/node';
import { isTreeNode } from '../../tree/roots';
import { UserNode } from './nodes';
import { runPickRows } from './runPick';
import type { SpbStore, StepRef } from './store';
import { findUser, parseUserQuery } from './treeModel';

/** Needs an open StreamProfileBench benchmark. */
export async function showDiagnostics(store: SpbStore): Promise<void> {
  const bench = store.bench;
  if (!bench) return;
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  const summary = summarize(bench.diagnostics);
  void vscode.window.showInformationMessage(
    summary
      ? `Persona Lab: ${summary} in ${bench.root} (see the Problems panel).`
      : `Persona Lab: no problems found in ${bench.root}.`,
  );
}

/** Quick pick of the results folders with their Avg. Recall; a run name as argument selects it directly. */
export async function chooseRun(store: SpbStore, arg: unknown): Promise<void> {
  const bench = store.bench;
  if (!bench) return;
  if (typeof arg === 'string' && bench.runs.has(arg)) {
    await store.selectRun(arg);
    return;
  }
  if (bench.runs.size === 0) {
    void vscode.window.showInformationMessage(`Persona Lab: no runs under ${bench.root}/results/.`);
    return;
  }
  const scores = [...bench.runs.keys()].flatMap((name) => store.score(name) ?? []);
  const mark = (run: string) => readRunOrigin(bench.root, run)?.mark;
  const items = runPickRows(scores, store.runName, mark).map((row) => ({
    ...row,
    iconPath: row.current ? new vscode.ThemeIcon('check') : undefined,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Choose Run',
    placeHolder: 'The run whose results the tree and the step view show',
    matchOnDescription: true,
  });
  if (picked && picked.name !== store.runName) await store.selectRun(picked.name);
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
