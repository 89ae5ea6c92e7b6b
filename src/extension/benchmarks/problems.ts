// An open benchmark's loading diagnostics in the Problems panel: one DiagnosticCollection per benchmark, on its
// source files; and their count in the status bar, which opens the Problems panel. A load never raises a toast.
import * as vscode from 'vscode';
import { lineDiagnostic } from '../diagnostics';
import { locateDiagnostics, summarize } from './locate';
import type { OpenBenchmark } from './types';

/** `name`: the collection's; `source`: what each diagnostic shows as its origin. */
export function benchmarkProblems(open: OpenBenchmark, name: string, source: string): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection(name);
  const update = () => {
    collection.clear();
    const root = open.root;
    if (!root) return;
    const entries: [vscode.Uri, vscode.Diagnostic[]][] = [];
    for (const [file, problems] of locateDiagnostics(root, open.diagnostics)) {
      entries.push([
        vscode.Uri.file(file),
        problems.map((p) => {
          const d = lineDiagnostic(p.line, p.message, p.severity, source);
          if (p.code) d.code = p.code;
          return d;
        }),
      ]);
    }
    collection.set(entries);
  };
  update();
  return vscode.Disposable.from(collection, open.onDidChange(update));
}

/** The status bar item: how many loading problems the open benchmarks have; hidden when none. */
export function problemsStatus(open: readonly OpenBenchmark[]): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('personaLab.problems', vscode.StatusBarAlignment.Left, 49);
  item.name = 'Persona Lab loading problems';
  item.command = { title: 'Show Problems', command: 'workbench.actions.view.problems' };
  const update = () => {
    const loaded = open.filter((b) => b.root !== undefined && b.diagnostics.length > 0);
    const count = loaded.reduce((n, b) => n + b.diagnostics.length, 0);
    if (count === 0) {
      item.hide();
      return;
    }
    const text = `${count} loading problem${count === 1 ? '' : 's'}`;
    item.text = `$(warning) ${text}`;
    const each = loaded.map((b) => `${b.format.label}: ${summarize(b.diagnostics)}`).join('; ');
    item.tooltip = `Persona Lab: ${each} in the benchmark files. Click to open the Problems panel.`;
    item.accessibilityInformation = { label: `Persona Lab: ${text}; ${each}`, role: 'button' };
    item.show();
  };
  update();
  return vscode.Disposable.from(item, ...open.map((b) => b.onDidChange(update)));
}
