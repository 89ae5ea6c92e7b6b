// Opens a benchmark by itself at start (the personaLab.benchmarkPath setting, else a workspace folder holding the
// first format's data/*_inference_tasks.jsonl or a benchmark another format detects, else the last one opened here),
// and again when the setting changes. Reloading on file changes is each benchmark's watch.ts.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import { restrictedSetting } from '../trustedSettings';
import { findWorkspaceBenchmark, resolveSettingPath } from './target';

export function activateWorkspace(context: vscode.ExtensionContext, benchmarks: Benchmarks): void {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('personaLab.benchmarkPath')) {
        const target = settingTarget();
        if (target) void benchmarks.open(target);
      }
    }),
  );
  // The Benchmarks view says "No benchmark is open" only once this search is over (package.json viewsWelcome).
  const searched = () => void vscode.commands.executeCommand('setContext', 'personaLab.searched', true);
  const target = startTarget(benchmarks);
  if (target) void benchmarks.open(target).finally(searched);
  else searched();
}

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function settingTarget(): string | undefined {
  // A cloned folder's settings must not open a folder outside it by themselves (its files, its checkout).
  const value = restrictedSetting<string>('personaLab.benchmarkPath');
  return resolveSettingPath(value, folders(), homedir());
}

function startTarget(benchmarks: Benchmarks): string | undefined {
  const fromSetting = settingTarget();
  if (fromSetting) return fromSetting;
  const config = vscode.workspace.getConfiguration('personaLab');
  if (config.get<boolean>('openWorkspaceBenchmark', true)) {
    // The first format's folder is the one the workspaceContains activation event matches (data/*_inference_tasks).
    const otherFormats = benchmarks.contributions.slice(1);
    const found =
      findWorkspaceBenchmark(folders(), (dir) => readdirSync(dir)) ??
      folders().find((f) => otherFormats.some((c) => c.format.detect(f) && c.rootOf(f) !== undefined));
    if (found) return found;
  }
  const last = benchmarks.all[0]?.target;
  return last && existsSync(last) ? last : undefined;
}
