// Opening a benchmark with user-facing error handling, shared by the commands and the start-up logic.
import * as vscode from 'vscode';
import { streamProfileBench } from '../../core/formats';
import { summarize } from '../problems/locate';
import type { BenchmarkStore } from '../store';

/**
 * Another format's opener (OmniBehavior traces): opens what it finds in or under `target` and says whether there
 * was one. `quiet`: a reload of the StreamProfileBench benchmark after a file change.
 */
export type FormatOpener = (target: string, quiet: boolean) => Promise<boolean>;
const openers = new Set<FormatOpener>();

/** The last target only another format's opener took (the StreamProfileBench store remembers its own). */
let lastOtherTarget: string | undefined;

/** What Refresh opens again: the StreamProfileBench target, else the last target another format took. */
export function refreshTarget(store: BenchmarkStore): string | undefined {
  return store.target ?? lastOtherTarget;
}

export function registerOpener(opener: FormatOpener): vscode.Disposable {
  openers.add(opener);
  return new vscode.Disposable(() => openers.delete(opener));
}

function isStreamProfileBench(target: string): boolean {
  try {
    return streamProfileBench.detect(target);
  } catch {
    return false;
  }
}

/**
 * Opens `target`; a target that cannot be read at all becomes an error message, problems inside the files a
 * warning that leads to the Problems panel. `quiet` skips that warning (reloads after a file change).
 */
export async function openTarget(store: BenchmarkStore, target: string, quiet = false): Promise<boolean> {
  const others = await Promise.all([...openers].map((open) => open(target, quiet)));
  if (others.some(Boolean) && !isStreamProfileBench(target)) {
    lastOtherTarget = target;
    return true;
  }
  try {
    await store.open(target);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(`Persona Lab: cannot open ${target}: ${message}`);
    return false;
  }
  const problems = store.bench && summarize(store.bench.diagnostics);
  if (problems && !quiet) {
    void vscode.window
      .showWarningMessage(`Persona Lab: the benchmark loaded with ${problems}.`, 'Show Diagnostics')
      .then((choice) => choice && vscode.commands.executeCommand('personaLab.showDiagnostics'));
  }
  return true;
}
