// Maps the loader's diagnostics (paths relative to the benchmark, 1-based lines, 0 = whole file) to what a
// vscode.Diagnostic needs. Pure, so it is unit-tested.
import { join } from 'node:path';
import type { Diagnostic, Severity } from '../../core/io/diagnostics';

export interface LocatedProblem {
  /** 0-based line for vscode; a whole-file problem sits on line 0 */
  line: number;
  severity: Severity;
  message: string;
  code: string | undefined;
}

/** Groups diagnostics by absolute file path, in the order they were reported. */
export function locateDiagnostics(root: string, diagnostics: readonly Diagnostic[]): Map<string, LocatedProblem[]> {
  const byFile = new Map<string, LocatedProblem[]>();
  for (const d of diagnostics) {
    const file = join(root, d.file);
    let list = byFile.get(file);
    if (!list) byFile.set(file, (list = []));
    list.push({
      line: Math.max(0, Math.floor(d.line) - 1),
      severity: d.severity,
      message: d.field ? `${d.field}: ${d.message}` : d.message,
      code: d.field || undefined,
    });
  }
  return byFile;
}

/** "2 errors, 1 warning" style summary, or undefined when there is nothing. */
export function summarize(diagnostics: readonly Diagnostic[]): string | undefined {
  if (diagnostics.length === 0) return undefined;
  const n = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) n[d.severity]++;
  const parts: string[] = [];
  if (n.error) parts.push(`${n.error} error${n.error === 1 ? '' : 's'}`);
  if (n.warning) parts.push(`${n.warning} warning${n.warning === 1 ? '' : 's'}`);
  if (n.info) parts.push(`${n.info} note${n.info === 1 ? '' : 's'}`);
  return parts.join(', ');
}
