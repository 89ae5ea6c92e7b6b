// Run dashboard feature: personaLab.openDashboard opens the paper's tables and figures for the benchmark's runs.
import * as vscode from 'vscode';
import type { BenchmarkStore } from '../store';
import { DashboardPanel } from './panel';

export function activateDashboard(context: vscode.ExtensionContext, store: BenchmarkStore): void {
  const panel = new DashboardPanel(context.extensionUri, store, context.workspaceState);
  context.subscriptions.push(
    panel,
    vscode.commands.registerCommand('personaLab.openDashboard', async () => {
      await store.ready();
      if (!store.bench) {
        void vscode.window.showWarningMessage('Persona Lab: no benchmark is open. Open a benchmark folder first.');
        return;
      }
      panel.show();
    }),
  );
}
