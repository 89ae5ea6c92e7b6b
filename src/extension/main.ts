// Entry point: opens the benchmarks, activates each generic feature (each in its own folder) and each format's own
// features (its contribution's `views`), and registers the command table; activate() only wires.
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
import { activateExperimentsView } from './experiments';
import { activateLabels } from './labels';
import { log, setLogChannel } from './log';
import { heapLine, readHeap } from './heapLine';
import { activateFormatReruns } from './rerun/formatParts';
import { activateTree } from './tree';
import { activateWalkthrough } from './walkthrough';
import { activateWorkspace } from './workspace';

export function activate(context: vscode.ExtensionContext): void {
  activateWith(context, CONTRIBUTIONS);
}

/** The extension serving `contributions` (a test build adds its fixture format here). */
export function activateWith(context: vscode.ExtensionContext, contributions: readonly FormatContribution[]): void {
  const channel = vscode.window.createOutputChannel('Persona Lab', { log: true });
  context.subscriptions.push(channel, { dispose: () => setLogChannel(undefined) });
  setLogChannel(channel);
  // What the extension host holds before any of ours: the base the heap after an open is read against.
  log.info(heapLine('at activation', readHeap()));
  const benchmarks = activateBenchmarks(context, contributions);
  const tree = activateTree(context, benchmarks);
  const docs = activateDocs(context);
  const endpoint = activateEndpoint(context);
  // Before the generic features' parts, which find a format's item view by its store.
  const formats = benchmarks.contributions.map((contribution) => {
    const own = contribution.views?.(benchmarks.of(contribution), context, { tree, docs, endpoint });
    if (own) context.subscriptions.push(own);
    return { contribution, commands: own?.commands };
  });
  const labels = activateLabels(context, benchmarks, tree);
  activateWalkthrough(context, labels);
  const dashboard = activateDashboard(context, benchmarks, labels.service);
  const compare = activateCompare(context, benchmarks);
  const batches = activateFormatReruns(context, benchmarks, { endpoint });
  const audit = activateAudit(context, benchmarks);
  activateExperimentsView(context, benchmarks);
  registerCommands(
    context,
    { benchmarks, tree, labels, dashboard, compare, endpoint, secrets: context.secrets, audit, batches },
    formats,
  );
  // Last: it may open a benchmark at once, and every feature should be listening by then.
  activateWorkspace(context, benchmarks);
}

export function deactivate(): void {}
