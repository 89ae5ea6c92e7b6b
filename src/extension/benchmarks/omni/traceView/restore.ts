// Trace views come back after Reload Window or a restart: the page saves its test action (and the history record it
// showed) in its webview state, and this serializer reopens the test action, once the benchmark has loaded, in the
// panel VS Code restored; the page then shows the saved record again itself (webview/omni/trace/main.ts), as it does when
// it loads again after being hidden. A test action that is not in the benchmark any more says so in the view.
import * as vscode from 'vscode';
import { TRACE_VIEW_TYPE, savedRestore } from '../../../../shared/omni/traceProtocol';
import type { OmniStore } from '../store';
import { log } from '../../../log';
import type { TracePanel } from './panel';

export function registerTraceViewSerializer(panel: TracePanel, store: OmniStore): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(TRACE_VIEW_TYPE, {
    async deserializeWebviewPanel(restored: vscode.WebviewPanel, state: unknown): Promise<void> {
      const saved = savedRestore(state);
      if (!saved) {
        restored.dispose();
        return;
      }
      await store.ready();
      panel.adopt(restored, saved.ref);
      const record = saved.record ? ` (history record #${saved.record.index})` : '';
      log.info(`trace view: restored ${saved.ref.userId} #${saved.ref.index}${record}`);
    },
  });
}
