// Reloads the PersonaMem benchmark when its questions, contexts or results CSVs change on disk.
import type * as vscode from 'vscode';
import { ReloadWatcher } from '../watch';
import type { PersonaMemStore } from './store';

const GLOB = '{questions_*.csv,shared_contexts_*.jsonl,results/*.csv}';

export function watchPersonaMem(store: PersonaMemStore): vscode.Disposable {
  const watcher = new ReloadWatcher(GLOB, (root) => void store.open(root).catch(() => undefined));
  const sub = store.onDidChange(() => watcher.watch(store.bench?.root));
  return {
    dispose: () => {
      sub.dispose();
      watcher.dispose();
    },
  };
}
