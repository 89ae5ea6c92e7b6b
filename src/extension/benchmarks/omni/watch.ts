// Reloads the OmniBehavior benchmark when its test actions, raw files or predictions change on disk.
import * as vscode from 'vscode';
import type { OmniStore } from './store';

const RELOAD_DELAY_MS = 500;

export function watchOmni(store: OmniStore): vscode.Disposable {
  let watcher: vscode.FileSystemWatcher | undefined;
  let root: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const rewatch = () => {
    const next = store.bench?.root;
    if (next === root) return;
    watcher?.dispose();
    watcher = undefined;
    root = next;
    if (!root || !vscode.workspace.getConfiguration('personaLab').get<boolean>('reloadOnChange', true)) return;
    const glob = '{test_actions.jsonl,raw/*.json,results/*/predictions.jsonl}';
    watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(root), glob));
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => root && void store.open(root).catch(() => undefined), RELOAD_DELAY_MS);
    };
    watcher.onDidCreate(schedule);
    watcher.onDidChange(schedule);
    watcher.onDidDelete(schedule);
  };
  const sub = store.onDidChange(rewatch);
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    sub.dispose();
    watcher?.dispose();
  });
}
