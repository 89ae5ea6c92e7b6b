// The OmniBehavior loader's diagnostics in the Problems panel: a collection of its own beside the
// StreamProfileBench one, located with the same mapping (src/extension/problems/locate.ts).
import * as vscode from 'vscode';
import type { Severity } from '../../core/io/diagnostics';
import { locateDiagnostics } from '../problems/locate';
import type { OmniStore } from './store';

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};
const LINE_END = 2 ** 31 - 1;

export function omniProblems(store: OmniStore): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('personaLab.omni');
  const update = () => {
    collection.clear();
    const bench = store.bench;
    if (!bench) return;
    collection.set(
      [...locateDiagnostics(bench.root, bench.diagnostics)].map(([file, problems]): [vscode.Uri, vscode.Diagnostic[]] => [
        vscode.Uri.file(file),
        problems.map((p) => {
          const d = new vscode.Diagnostic(new vscode.Range(p.line, 0, p.line, LINE_END), p.message, SEVERITY[p.severity]);
          d.source = 'Persona Lab (OmniBehavior)';
          if (p.code) d.code = p.code;
          return d;
        }),
      ]),
    );
  };
  return vscode.Disposable.from(collection, store.onDidChange(update));
}
