// Entry point: opens the benchmarks, activates each feature (each in its own folder) and registers the command
// table; activate() only wires.
import * as vscode from 'vscode';
import { activateAudit } from './audit';
import { activateBenchmarks } from './benchmarks';
import type { FormatContribution } from './benchmarks/contribution';
import { CONTRIBUTIONS } from './benchmarks/contributions';
import { registerCommands } from './commands/table';
import { activateCompare } from './compare';
import { activateDashboard } from './dashboard';
import { activateDocs } from './docs';
import { activateEndpoint } from './endpoint';
import { activateExperiments } from './experiments';
import { activateLabels } from './labels';
import { setLogChannel } from './log';
import { activateOmniRerun } from './omniRerun';
import { activateRerun } from './rerun';
import { activateFormatReruns } from './rerun/formatParts';
import { activateStepView } from './stepView';
import { activateTemplates } from './templates';
import { activateTraceView } from './traceView';
import { activateTree } from './tree';
import { activateWalkthrough } from './walkthrough';
import { activateWorkspace } from './workspace';

export function activate(context: vscode.ExtensionContext): void {
  activateWith(context, CONTRIBUTIONS);
}

/** The extension serving `contributions` (a test build adds a fixture format here: test/fixtures/tinybench). */
export function activateWith(context: vscode.ExtensionContext, contributions: readonly FormatContribution[]): void {
  const channel = vscode.window.createOutputChannel('Persona Lab', { log: true });
  context.subscriptions.push(channel, { dispose: () => setLogChannel(undefined) });
  setLogChannel(channel);
  const benchmarks = activateBenchmarks(context, contributions);
  const spb = benchmarks.spb;
  const tree = activateTree(context, benchmarks);
  const stepViews = activateStepView(context, spb);
  const stepView = stepViews.main;
  const traceView = activateTraceView(context, benchmarks.omni);
  const views = { steps: stepViews, trace: traceView };
  const labels = activateLabels(context, benchmarks, views, tree);
  activateWalkthrough(context, labels);
  const dashboard = activateDashboard(context, benchmarks, labels.service);
  const compare = activateCompare(context, spb);
  const docs = activateDocs(context);
  const endpoint = activateEndpoint(context);
  const templateDeps = { docs, stepView };
  const templates = activateTemplates(context, spb);
  const rerun = activateRerun(context, spb, { docs, endpoint, stepView, templates });
  const omniRerun = activateOmniRerun(context, benchmarks.omni, traceView, endpoint);
  const batches = activateFormatReruns(context, benchmarks, { endpoint });
  const experiments = activateExperiments(context, rerun, docs);
  const audit = activateAudit(context, benchmarks, views);
  registerCommands(context, {
    benchmarks,
    tree,
    stepViews,
    labels,
    dashboard,
    compare,
    endpoint,
    templates: { library: templates, deps: templateDeps },
    rerun,
    omniRerun,
    batches,
    secrets: context.secrets,
    experiments,
    audit,
    traceView,
  });
  // Last: it may open a benchmark at once, and every feature should be listening by then.
  activateWorkspace(context, benchmarks);
}

export function deactivate(): void {}
