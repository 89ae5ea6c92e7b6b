// Entry point: creates the store and wires the features; each feature lives in its own folder.
import * as vscode from 'vscode';
import { activateAudit } from './audit';
import { activateCommands } from './commands';
import { activateCompare } from './compare';
import { activateDashboard } from './dashboard';
import { activateDocs } from './docs';
import { activateEndpoint } from './endpoint';
import { activateLabels } from './labels';
import { setLogChannel } from './log';
import { activateProblems } from './problems';
import { activateRerun } from './rerun';
import { activateStepView } from './stepView';
import { BenchmarkStore } from './store';
import { activateTemplates } from './templates';
import { activateTraces } from './traces';
import { activateTree } from './tree';
import { activateWorkspace } from './workspace';

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('Persona Lab', { log: true });
  context.subscriptions.push(channel, { dispose: () => setLogChannel(undefined) });
  setLogChannel(channel);
  const store = new BenchmarkStore(context.workspaceState);
  context.subscriptions.push(store);
  const tree = activateTree(context, store);
  activateProblems(context, store);
  activateCommands(context, store);
  const stepViews = activateStepView(context, store);
  const stepView = stepViews.main;
  const labels = activateLabels(context, store, stepViews, tree);
  activateDashboard(context, store);
  activateCompare(context, store);
  const docs = activateDocs(context);
  const endpoint = activateEndpoint(context);
  const templates = activateTemplates(context, store, { docs, stepView });
  activateRerun(context, store, { docs, endpoint, stepView, templates });
  const omni = activateTraces(context, tree, labels);
  activateAudit(context, store, omni);
  // Last: it may open a benchmark at once, and every feature should be listening by then.
  activateWorkspace(context, store);
}

export function deactivate(): void {}
