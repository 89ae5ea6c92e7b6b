// Reloads the OmniBehavior benchmark when its test actions, raw files or predictions change on disk.
import type * as vscode from 'vscode';
import { ReloadWatcher } from '../watch';
import type { OmniStore } from './store';

const GLOB = '{test_actions.jsonl,raw/*.json,results/*/predictions.jsonl}';

export function watchOmni(store: OmniStore): vscode.Disposable {
  const watcher = new ReloadWatcher(GLOB, (root) => void store.open(root).catch(() => undefined));
  const sub = store.onDidChange(() => watcher.watch(store.bench?.root));
  return {
    dispose: () => {
      sub.dispose();
      watcher.dispose();
    },
  };
}
