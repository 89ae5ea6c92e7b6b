// What every batch run from the editor shares: the run folder's name asked with the runner's rules, and the
// notification it shows while it runs: cancellable (Cancel aborts the run's signal, which the core runners take to
// stop sending and to keep what they have, so that the same name resumes), with the run's own counts as its message
// and its share done as the bar. Every format's batch commands, and the batch part a format offers (part.ts), run
// on it.
import * as vscode from 'vscode';
import { runNameProblem } from '../../core/runner/runFolder';

export interface BatchCounts {
  done: number;
  total: number;
  /** what the notification says, e.g. "3/10 questions answered, 0 failed requests" */
  message: string;
}

export function withBatchProgress<T>(
  title: string,
  run: (signal: AbortSignal, report: (counts: BatchCounts) => void) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      let shown = 0;
      return run(abort.signal, ({ done, total, message }) => {
        const pct = total ? Math.floor((100 * done) / total) : 100;
        progress.report({ message, increment: Math.max(0, pct - shown) });
        shown = Math.max(shown, pct);
      });
    },
  );
}

/**
 * The run's name, asked: `folderProblem` says why an existing run of that name cannot take this one (other
 * settings), so that the user learns it as they type and a run of the same settings resumes.
 */
export function askRunFolder(
  title: string,
  value: string,
  folderProblem: (name: string) => string | null | undefined,
  prompt = 'The run under results/ (an existing run of the same settings resumes)',
): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt,
    value,
    validateInput: (v) => runNameProblem(v) ?? folderProblem(v) ?? undefined,
    ignoreFocusOut: true,
  });
}
