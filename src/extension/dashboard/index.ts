// Run dashboard feature: the paper's tables and figures for the benchmark's runs (personaLab.openDashboard).
import type * as vscode from 'vscode';
import type { SpbStore } from '../benchmarks/spb/store';
import { DashboardPanel } from './panel';

export function activateDashboard(context: vscode.ExtensionContext, store: SpbStore): DashboardPanel {
  const panel = new DashboardPanel(context.extensionUri, store, context.workspaceState);
  context.subscriptions.push(panel);
  return panel;
}
