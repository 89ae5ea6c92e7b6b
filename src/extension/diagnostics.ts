// Core diagnostics (file:line, field, reason) as VS Code diagnostics, for the Problems panel. The core knows lines,
// not columns: a diagnostic underlines its whole line (VS Code clamps the end to the line's length).
import * as vscode from 'vscode';
import type { Diagnostic, Severity } from '../core/io/diagnostics';

export const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

const LINE_END = 2 ** 31 - 1;

/** A diagnostic on the whole of `line` (0-based). */
export function lineDiagnostic(line: number, message: string, severity: Severity, source: string): vscode.Diagnostic {
  const d = new vscode.Diagnostic(new vscode.Range(line, 0, line, LINE_END), message, SEVERITY[severity]);
  d.source = source;
  return d;
}

/** One file's core diagnostics (1-based lines; 0 = the file as a whole, shown on its first line), field first. */
export function fileDiagnostics(diags: readonly Diagnostic[], source: string): vscode.Diagnostic[] {
  return diags.map((d) =>
    lineDiagnostic(Math.max(0, d.line - 1), d.field ? `${d.field}: ${d.message}` : d.message, d.severity, source),
  );
}
