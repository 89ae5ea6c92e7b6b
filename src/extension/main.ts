// Entry point: creates the store and wires the features; each feature lives in its own folder.
import * as vscode from 'vscode';
import { activateCommands } from './commands';
import { activateDocs } from './docs';
import { activateEndpoint } from './endpoint';
import { activateProblems } from './problems';
import { activateRerun } from './rerun';
import { activateStepView } from './stepView';
import { BenchmarkStore } from './store';
import { activateTemplates } from './templates';
import { activateTree } from './tree';
import { activateWorkspace } from './workspace';

export function activate(context: vscode.ExtensionContext): void {
  const store = new BenchmarkStore(context.workspaceState);
  context.subscriptions.push(store);
  activateTree(context, store);
  activateProblems(context, store);
  activateCommands(context, store);
  const stepView = activateStepView(context, store);
  const docs = activateDocs(context);
  const endpoint = activateEndpoint(context);
  const templates = activateTemplates(context, store, { docs, stepView });
  activateRerun(context, store, { docs, endpoint, stepView, templates });
  // Last: it may open a benchmark at once, and every feature should be listening by then.
  activateWorkspace(context, store);
}

export function deactivate(): void {}
