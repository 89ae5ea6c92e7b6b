// Opens a benchmark by itself at start (the personaLab.benchmarkPath setting, else a workspace folder holding
// data/*_inference_tasks.jsonl or an OmniBehavior benchmark, else the last one opened here) and reloads it when its
// files change on disk.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { omniRoot } from '../../core/formats';
import type { Benchmarks } from '../benchmarks';
import { WATCH_GLOB, findWorkspaceBenchmark, resolveSettingPath } from './target';

const RELOAD_DELAY_MS = 500;

export function activateWorkspace(context: vscode.ExtensionContext, benchmarks: Benchmarks): void {
  const store = benchmarks.spb;
  const watcher = new ReloadWatcher(benchmarks);
  context.subscriptions.push(
    watcher,
    store.onDidChange(() => watcher.watch(store.root)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('personaLab.benchmarkPath')) {
        const target = settingTarget();
        if (target) void benchmarks.open(target);
      }
      if (e.affectsConfiguration('personaLab.reloadOnChange')) watcher.watch(store.root, true);
    }),
  );
  const target = startTarget(benchmarks);
  if (target) void benchmarks.open(target);
}

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function settingTarget(): string | undefined {
  const value = vscode.workspace.getConfiguration('personaLab').get<string>('benchmarkPath');
  return resolveSettingPath(value, folders(), homedir());
}

function startTarget(benchmarks: Benchmarks): string | undefined {
  const fromSetting = settingTarget();
  if (fromSetting) return fromSetting;
  const config = vscode.workspace.getConfiguration('personaLab');
  if (config.get<boolean>('openWorkspaceBenchmark', true)) {
    const found = findWorkspaceBenchmark(folders(), (dir) => readdirSync(dir)) ?? folders().find((f) => omniRoot(f) !== undefined);
    if (found) return found;
  }
  const last = benchmarks.spb.target;
  return last && existsSync(last) ? last : undefined;
}

/** One FileSystemWatcher on the loaded benchmark's tasks and results files; bursts of changes reload once. */
class ReloadWatcher implements vscode.Disposable {
  private watcher: vscode.FileSystemWatcher | undefined;
  private root: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly benchmarks: Benchmarks) {}

  watch(root: string | undefined, force = false): void {
    if (root === this.root && !force) return;
    this.stop();
    this.root = root;
    if (!root || !vscode.workspace.getConfiguration('personaLab').get<boolean>('reloadOnChange', true)) return;
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), WATCH_GLOB));
    const schedule = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        const target = this.benchmarks.spb.target;
        if (target) void this.benchmarks.open(target, true);
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
