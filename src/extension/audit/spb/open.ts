// Opening a StreamProfileBench finding: its JSONL file at the span, or its step in the step view.
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AuditFinding } from '../../../core/pi/audit';
import type { SpbStore, StepRef } from '../../benchmarks/spb/store';
import { log } from '../../log';
import { locateSpan } from '../locate';

/** Opens the finding's JSONL file at its line with the span selected (the line only, when the file changed). */
export async function openSource(finding: AuditFinding, root: string): Promise<void> {
  const uri = vscode.Uri.file(join(root, finding.file));
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(uri);
  } catch (err) {
    void vscode.window.showErrorMessage(`Persona Lab: cannot open ${finding.file}: ${(err as Error).message}`);
    return;
  }
  const line = Math.min(finding.line - 1, doc.lineCount - 1);
  const span =
    line === finding.line - 1
      ? locateSpan(doc.lineAt(line).text, finding.field, finding.start, finding.end)
      : undefined;
  const exact = span !== undefined && span.text === finding.text;
  const range = exact ? new vscode.Range(line, span.start, line, span.end) : new vscode.Range(line, 0, line, 0);
  const editor = await vscode.window.showTextDocument(doc, { selection: range, preview: true });
  // JSONL lines are long: reveal some text after the span too, so that it does not sit at the right edge.
  const margin = new vscode.Range(
    line,
    range.start.character,
    line,
    Math.min(doc.lineAt(line).text.length, range.end.character + 40),
  );
  editor.revealRange(margin, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  log.info(`audit: opened ${finding.file}:${finding.line}:${range.start.character + 1}-${range.end.character + 1}`);
  if (!exact) {
    void vscode.window.showWarningMessage(
      `Persona Lab: ${finding.file}:${finding.line} no longer holds this finding at ${finding.field} (the file changed since the audit). Run the PI audit again.`,
    );
  }
}

/** Opens the finding's step in the step view, switching to the finding's run for personas and reasoning. */
export async function openStep(finding: AuditFinding, ref: StepRef | undefined, store: SpbStore): Promise<void> {
  if (!ref) {
    void vscode.window.showWarningMessage(`Persona Lab: ${finding.userId} is not in the loaded benchmark.`);
    return;
  }
  const run = finding.run;
  if (run !== null && run !== store.runName && store.bench?.runs.has(run)) {
    await vscode.commands.executeCommand('personaLab.chooseRun', run);
    vscode.window.setStatusBarMessage(`Persona Lab: showing run ${run}, where the finding is`, 5000);
  }
  await vscode.commands.executeCommand('personaLab.openStep', ref);
}
