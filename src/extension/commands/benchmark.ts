// The benchmark commands' handlers: Open Benchmark Folder…, Refresh, Show Diagnostics, Choose Run…. The command
// table (table.ts) registers them and checks that a benchmark is open where one is needed.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import { resolveSettingPath } from '../workspace/target';
import { summarize } from '../benchmarks/locate';
import type { SpbStore } from '../benchmarks/spb/store';
import { readRunOrigin } from '../../core/spb/prompt/runOrigin';
import { runPickRows } from './runPick';

/**
 * Accepts a Uri (explorer, API), a path string (tests, other commands, the walkthrough's links: a relative one is
 * taken from the first workspace folder), or asks with an open dialog.
 */
export async function openBenchmark(benchmarks: Benchmarks, arg: unknown): Promise<void> {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  let target =
    typeof arg === 'string'
      ? resolveSettingPath(arg, folders, homedir())
      : arg instanceof vscode.Uri
        ? arg.fsPath
        : undefined;
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
  if (target) await benchmarks.open(target);
}

export async function refresh(benchmarks: Benchmarks): Promise<void> {
  const target = benchmarks.refreshTarget;
  if (target) await benchmarks.open(target);
  else await vscode.commands.executeCommand('personaLab.openBenchmark');
}

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
