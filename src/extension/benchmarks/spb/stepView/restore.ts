// Step views come back after Reload Window or a restart: each page saves the step it shows (and its pinned run) in
// its webview state, and this serializer reopens that step, once the benchmark has loaded, in the panel VS Code
// restored. A step that is not in the benchmark any more says so in the view (StepPanel's empty message).
import * as vscode from 'vscode';
import { anything, int, isRecord, object, optional, str } from '../../../../core/guards';
import { isPlatform } from '../../../../core/spb/types';
import { STEP_VIEW_TYPE } from '../../../../shared/spb/stepViewProtocol';
import type { SpbStore, StepRef } from '../store';
import { log } from '../../../log';
import type { StepViews } from './views';

const savedRestore = object({ platform: isPlatform, userId: str, stepId: int, pinnedRun: optional(anything) });

/** The `restore` key the step page saves: its step and pinned run (webview/spb/step/main.ts). */
export function savedStep(state: unknown): { ref: StepRef; pinnedRun: string | null } | undefined {
  const o = isRecord(state) ? state.restore : undefined;
  if (!savedRestore(o)) return undefined;
  const pinnedRun = typeof o.pinnedRun === 'string' ? o.pinnedRun : null;
  return { ref: { platform: o.platform, userId: o.userId, stepId: o.stepId }, pinnedRun };
}

export function registerStepViewSerializer(views: StepViews, store: SpbStore): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(STEP_VIEW_TYPE, {
    async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
      const saved = savedStep(state);
      if (!saved) {
        panel.dispose(); // a page from before the views saved their step: nothing to show in it
        return;
      }
      await store.ready();
      const { ref, pinnedRun } = saved;
      (pinnedRun === null ? views.main : views.forRun(pinnedRun)).adopt(panel, ref);
      log.info(
        `step view: restored ${ref.platform}/${ref.userId} step ${ref.stepId}${pinnedRun ? ` (${pinnedRun})` : ''}`,
      );
    },
  });
}
