// Reloads the StreamProfileBench benchmark when its tasks or results files change on disk, quietly (no problems
// warning), and watches again when personaLab.reloadOnChange changes.
import * as vscode from 'vscode';
import type { Benchmarks } from '../index';
import { ReloadWatcher } from '../watch';

/** Relative to the benchmark root. */
const GLOB = '{*_inference_tasks.jsonl,data/*_inference_tasks.jsonl,results/**/inference_results_*.jsonl}';

export function watchSpb(benchmarks: Benchmarks): vscode.Disposable {
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
