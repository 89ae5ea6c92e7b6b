// Opening an OmniBehavior finding: in the trace view, or in its raw file when it belongs to no test action.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { findingTraceTarget, type OmniAuditFinding } from '../../../core/pi/omniAudit';

/**
 * Opens an OmniBehavior finding in the trace view, at its test action with its history record revealed; a finding
 * that belongs to no test action opens its file at the line, the text selected when the line holds it.
 */
export async function openTraceFinding(finding: OmniAuditFinding, root: string): Promise<void> {
  const at = findingTraceTarget(finding);
  if (at) {
    const historyIndex = at.target.kind === 'history' ? at.target.historyIndex : undefined;
    await vscode.commands.executeCommand('personaLab.openTrace', { userId: at.userId, index: at.index, historyIndex });
    await vscode.commands.executeCommand('personaLab.revealTestAction', { userId: at.userId, index: at.index });
    return;
  }
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(join(root, finding.file)));
  const line = Math.min(finding.line - 1, doc.lineCount - 1);
  const col = doc.lineAt(line).text.indexOf(finding.text);
  const range =
    col >= 0 ? new vscode.Range(line, col, line, col + finding.text.length) : new vscode.Range(line, 0, line, 0);
  await vscode.window.showTextDocument(doc, { selection: range, preview: true });
}
