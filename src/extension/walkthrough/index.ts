// The Get Started walkthrough (package.json contributes.walkthroughs, media/walkthrough/): its command, and the
// context key that ticks the labelling step, which no command marks (labels are made by keys in the page).
import * as vscode from 'vscode';
import type { LabelsApi } from '../labels';
import { LABELLED_CONTEXT, WALKTHROUGH } from './ids';

export function openWalkthrough(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
}

/**
 * The key is raised and lowered at once after each change of the labels while the database has any: an event, not a
 * state. VS Code (1.139) registers walkthroughs lazily, and a completion context that is already true then counts
 * as seen and never ticks its step for the rest of the session.
 */
export function activateWalkthrough(context: vscode.ExtensionContext, labels: LabelsApi): void {
  const set = (value: boolean) => vscode.commands.executeCommand('setContext', LABELLED_CONTEXT, value);
  context.subscriptions.push(
    labels.service.onDidChange(async () => {
      if (!labels.service.store(false)?.count()) return;
      await set(true);
      await set(false);
    }),
  );
}
