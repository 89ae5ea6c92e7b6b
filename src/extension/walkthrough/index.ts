// The Get Started walkthrough (package.json contributes.walkthroughs, media/walkthrough/): its command, and the
// context key that ticks the labelling step, which no command of ours marks (labels are made by keys in the page).
import * as vscode from 'vscode';
import type { LabelService } from '../labels/service';
import { LABELLED_CONTEXT, WALKTHROUGH } from './ids';

export function openWalkthrough(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
}

export function activateWalkthrough(context: vscode.ExtensionContext, labels: LabelService): void {
  let labelled: boolean | undefined;
  const update = () => {
    const now = labels.index().labelledSteps > 0;
    if (now === labelled) return;
    labelled = now;
    void vscode.commands.executeCommand('setContext', LABELLED_CONTEXT, now);
  };
  update();
  context.subscriptions.push(labels.onDidChange(update));
}
