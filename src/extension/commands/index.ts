// Palette commands: Open Benchmark Folder…, Refresh, Show Diagnostics, Choose Run….
import * as vscode from 'vscode';
import { summarize } from '../problems/locate';
import type { BenchmarkStore } from '../store';
import { openTarget, refreshTarget } from './open';
import { runPickRows } from './runPick';

export function activateCommands(context: vscode.ExtensionContext, store: BenchmarkStore): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('personaLab.openBenchmark', (arg?: vscode.Uri | string) => openBenchmark(store, arg)),
    vscode.commands.registerCommand('personaLab.refresh', () => refresh(store)),
    vscode.commands.registerCommand('personaLab.showDiagnostics', () => showDiagnostics(store)),
    vscode.commands.registerCommand('personaLab.chooseRun', (arg?: unknown) => chooseRun(store, arg)),
  );
}

/** Accepts a Uri (explorer, API), a path string (tests, other commands), or asks with an open dialog. */
async function openBenchmark(store: BenchmarkStore, arg: vscode.Uri | string | undefined): Promise<void> {
  let target = typeof arg === 'string' ? arg : arg instanceof vscode.Uri ? arg.fsPath : undefined;
  if (!target) {
    const picked = await vscode.window.showOpenDialog({
      title: 'Open Benchmark Folder',
      openLabel: 'Open Benchmark',
      canSelectFolders: true,
      canSelectFiles: true,
      canSelectMany: false,
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      filters: { 'Tasks file': ['jsonl'] },
    });
    target = picked?.[0]?.fsPath;
  }
  if (target) await openTarget(store, target);
}

async function refresh(store: BenchmarkStore): Promise<void> {
  await store.ready();
  const target = refreshTarget(store);
  if (target) await openTarget(store, target);
  else await vscode.commands.executeCommand('personaLab.openBenchmark');
}

async function showDiagnostics(store: BenchmarkStore): Promise<void> {
  await store.ready();
  const bench = store.bench;
  if (!bench) {
    void vscode.window.showInformationMessage('Persona Lab: no benchmark is open.');
    return;
  }
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  const summary = summarize(bench.diagnostics);
  void vscode.window.showInformationMessage(
    summary ? `Persona Lab: ${summary} in ${bench.root} (see the Problems panel).` : `Persona Lab: no problems found in ${bench.root}.`,
  );
}

/** Quick pick of the results folders with their Avg. Recall; a run name as argument selects it directly. */
async function chooseRun(store: BenchmarkStore, arg: unknown): Promise<void> {
  await store.ready();
  const bench = store.bench;
  if (!bench) {
    void vscode.window.showInformationMessage('Persona Lab: open a benchmark folder first.');
    return;
  }
  if (typeof arg === 'string' && bench.runs.has(arg)) {
    await store.selectRun(arg);
    return;
  }
  if (bench.runs.size === 0) {
    void vscode.window.showInformationMessage(`Persona Lab: no runs under ${bench.root}/results/.`);
    return;
  }
  const scores = [...bench.runs.keys()].flatMap((name) => store.score(name) ?? []);
  const items = runPickRows(scores, store.runName).map((row) => ({ ...row, iconPath: row.current ? new vscode.ThemeIcon('check') : undefined }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Choose Run',
    placeHolder: 'The run whose results the tree and the step view show',
    matchOnDescription: true,
  });
  if (picked && picked.name !== store.runName) await store.selectRun(picked.name);
}
