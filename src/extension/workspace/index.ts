// Opens a benchmark by itself at start (the personaLab.benchmarkPath setting, else a workspace folder holding
// data/*_inference_tasks.jsonl or an OmniBehavior benchmark, else the last one opened here) and reloads it when its
// files change on disk.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { omniRoot } from '../../core/formats';
import { openTarget } from '../commands/open';
import type { BenchmarkStore } from '../store';
import { WATCH_GLOB, findWorkspaceBenchmark, resolveSettingPath } from './target';

const RELOAD_DELAY_MS = 500;

export function activateWorkspace(context: vscode.ExtensionContext, store: BenchmarkStore): void {
  const watcher = new ReloadWatcher(store);
  context.subscriptions.push(
    watcher,
    store.onDidChange(() => watcher.watch(store.root)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('personaLab.benchmarkPath')) {
        const target = settingTarget();
        if (target) void openTarget(store, target);
      }
      if (e.affectsConfiguration('personaLab.reloadOnChange')) watcher.watch(store.root, true);
    }),
  );
  const target = startTarget(store);
  if (target) void openTarget(store, target);
}

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function settingTarget(): string | undefined {
  const value = vscode.workspace.getConfiguration('personaLab').get<string>('benchmarkPath');
  return resolveSettingPath(value, folders(), homedir());
}

function startTarget(store: BenchmarkStore): string | undefined {
  const fromSetting = settingTarget();
  if (fromSetting) return fromSetting;
  const config = vscode.workspace.getConfiguration('personaLab');
  if (config.get<boolean>('openWorkspaceBenchmark', true)) {
    const found = findWorkspaceBenchmark(folders(), (dir) => readdirSync(dir)) ?? folders().find((f) => omniRoot(f) !== undefined);
    if (found) return found;
  }
  const last = store.target;
  return last && existsSync(last) ? last : undefined;
}

/** One FileSystemWatcher on the loaded benchmark's tasks and results files; bursts of changes reload once. */
class ReloadWatcher implements vscode.Disposable {
  private watcher: vscode.FileSystemWatcher | undefined;
  private root: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly store: BenchmarkStore) {}

  watch(root: string | undefined, force = false): void {
    if (root === this.root && !force) return;
    this.stop();
    this.root = root;
    if (!root || !vscode.workspace.getConfiguration('personaLab').get<boolean>('reloadOnChange', true)) return;
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), WATCH_GLOB));
    const schedule = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        const target = this.store.target;
        if (target) void openTarget(this.store, target, true);
      }, RELOAD_DELAY_MS);
    };
    this.watcher.onDidCreate(schedule);
    this.watcher.onDidChange(schedule);
    this.watcher.onDidDelete(schedule);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.watcher?.dispose();
    this.watcher = undefined;
  }

  dispose(): void {
    this.stop();
  }
}
