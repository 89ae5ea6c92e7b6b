// Reloads the StreamProfileBench benchmark when its tasks or results files change on disk, quietly (no problems
// warning), and watches again when personaLab.reloadOnChange changes.
import * as vscode from 'vscode';
import { ReloadWatcher } from '../watch';
import type { SpbStore } from './store';

/** Relative to the benchmark root. */
const GLOB = '{*_inference_tasks.jsonl,data/*_inference_tasks.jsonl,results/**/inference_results_*.jsonl}';

/** What the watcher uses of the open benchmarks (Benchmarks): the store, and the open that reloads it, quietly. */
export interface SpbWatchHost {
  readonly spb: SpbStore;
  open(target: string, quiet: boolean): Promise<boolean>;
}

export function watchSpb(benchmarks: SpbWatchHost): vscode.Disposable {
  const store = benchmarks.spb;
  const watcher = new ReloadWatcher(GLOB, () => {
    const target = store.target;
    if (target) void benchmarks.open(target, true);
  });
  return vscode.Disposable.from(
    watcher,
    store.onDidChange(() => watcher.watch(store.root)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('personaLab.reloadOnChange')) watcher.watch(store.root, true);
    }),
  );
}
