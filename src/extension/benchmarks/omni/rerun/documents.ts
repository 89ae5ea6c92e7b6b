// An attempt's prompt or raw reply for one question, opened read-only beside the trace view.
import * as vscode from 'vscode';
import type { TraceRef } from '../../../../shared/omni/traceProtocol';
import type { OmniRerunDeps } from './actions';

export async function openAttemptDocument(
  deps: OmniRerunDeps,
  ref: TraceRef,
  id: number,
  field: string,
  which: 'prompt' | 'raw',
): Promise<void> {
  const a = deps.attempts
    .get()
    ?.list(ref.userId, ref.index)
    .find((x) => x.id === id);
  const answer = a?.answers.find((x) => x.field === field);
  if (!answer) {
    void vscode.window.showWarningMessage(`Persona Lab: attempt #${id} has no answer for ${field}.`);
    return;
  }
  const doc = await vscode.workspace.openTextDocument({
    content: which === 'prompt' ? answer.prompt : answer.raw_output,
    language: 'plaintext',
  });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}
