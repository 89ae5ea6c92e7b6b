// Opens a step of a given run in the step view. The argument carries the run and the options a view column, so a
// step view that supports them shows that run in that column (see the open points in the dashboard's report).
import * as vscode from 'vscode';
import type { Ref } from '../../shared/dashboardProtocol';

export interface OpenStepOptions {
  viewColumn?: vscode.ViewColumn;
  preserveFocus?: boolean;
}

export async function openStepOfRun(ref: Ref, run: string, opts: OpenStepOptions = {}): Promise<void> {
  const arg = { platform: ref.platform, userId: ref.userId, stepId: ref.stepId, run };
  await vscode.commands.executeCommand('personaLab.openStep', arg, {
    preserveFocus: opts.preserveFocus ?? false,
    viewColumn: opts.viewColumn ?? vscode.ViewColumn.Beside,
  });
  console.log(`[persona-lab] open step ${ref.platform}/${ref.userId}/${ref.stepId} of run ${run}`);
}
