// Opening a benchmark with user-facing error handling, shared by the commands and the start-up logic.
import * as vscode from 'vscode';
import { summarize } from '../problems/locate';
import type { BenchmarkStore } from '../store';

/**
 * Opens `target`; a target that cannot be read at all becomes an error message, problems inside the files a
 * warning that leads to the Problems panel. `quiet` skips that warning (reloads after a file change).
 */
export async function openTarget(store: BenchmarkStore, target: string, quiet = false): Promise<boolean> {
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
