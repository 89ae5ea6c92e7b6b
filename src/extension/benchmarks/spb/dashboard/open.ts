// Opens a step of a given run in that run's pinned step view (see src/extension/benchmarks/spb/stepView/views.ts), in a view column.
import * as vscode from 'vscode';
import type { Ref } from '../../../../shared/spb/dashboardProtocol';
import { log } from '../../../log';

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
  log.info(`open step ${ref.platform}/${ref.userId}/${ref.stepId} of run ${run}`);
}
