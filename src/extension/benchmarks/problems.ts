// An open benchmark's loading diagnostics in the Problems panel: one DiagnosticCollection per benchmark, on its
// source files.
import * as vscode from 'vscode';
import type { Severity } from '../../core/io/diagnostics';
import { locateDiagnostics } from './locate';
import type { OpenBenchmark } from './types';

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

// The loader knows lines, not columns: underline the whole line (VS Code clamps the end to the line's length).
const LINE_END = 2 ** 31 - 1;

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
          const d = new vscode.Diagnostic(
            new vscode.Range(p.line, 0, p.line, LINE_END),
            p.message,
            SEVERITY[p.severity],
          );
          d.source = source;
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
