// An open benchmark's loading diagnostics in the Problems panel: one DiagnosticCollection per benchmark, on its
// source files.
import * as vscode from 'vscode';
import { lineDiagnostic } from '../diagnostics';
import { locateDiagnostics } from './locate';
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
