// Loading diagnostics in the Problems panel: one DiagnosticCollection on the benchmark's source files.
import * as vscode from 'vscode';
import type { Severity } from '../../core/io/diagnostics';
import type { BenchmarkStore } from '../store';
import { locateDiagnostics } from './locate';

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

// The loader knows lines, not columns: underline the whole line (VS Code clamps the end to the line's length).
const LINE_END = 2 ** 31 - 1;

export function activateProblems(context: vscode.ExtensionContext, store: BenchmarkStore): void {
  const collection = vscode.languages.createDiagnosticCollection('personaLab');
  const update = () => {
    collection.clear();
    const bench = store.bench;
    if (!bench) return;
    const entries: [vscode.Uri, vscode.Diagnostic[]][] = [];
    for (const [file, problems] of locateDiagnostics(bench.root, bench.diagnostics)) {
      entries.push([
        vscode.Uri.file(file),
        problems.map((p) => {
          const d = new vscode.Diagnostic(new vscode.Range(p.line, 0, p.line, LINE_END), p.message, SEVERITY[p.severity]);
          d.source = 'Persona Lab';
          if (p.code) d.code = p.code;
          return d;
        }),
      ]);
    }
    collection.set(entries);
  };
  update();
  context.subscriptions.push(collection, store.onDidChange(update));
}
