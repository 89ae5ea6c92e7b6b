// The benchmark commands' handlers: Open Benchmark Folder… and Refresh. The command table (table.ts) registers them.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import { resolveSettingPath } from '../workspace/target';

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
