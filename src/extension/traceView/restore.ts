// Trace views come back after Reload Window or a restart: the page saves its test action in its webview state, and
// this serializer reopens it, once the benchmark has loaded, in the panel VS Code restored. A test action that is
// not in the benchmark any more says so in the view.
import * as vscode from 'vscode';
import { TRACE_VIEW_TYPE, type TraceRef } from '../../shared/traceProtocol';
import type { OmniStore } from '../benchmarks/omni/store';
import { log } from '../log';
import type { TracePanel } from './panel';

/** The `restore` key the trace page saves (webview/trace/main.ts). */
export function savedTrace(state: unknown): TraceRef | undefined {
  const r = typeof state === 'object' && state !== null ? (state as { restore?: unknown }).restore : undefined;
  if (typeof r !== 'object' || r === null) return undefined;
  const o = r as Record<string, unknown>;
  return typeof o.userId === 'string' && Number.isInteger(o.index)
    ? { userId: o.userId, index: o.index as number }
    : undefined;
}

export function registerTraceViewSerializer(panel: TracePanel, store: OmniStore): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(TRACE_VIEW_TYPE, {
    async deserializeWebviewPanel(restored: vscode.WebviewPanel, state: unknown): Promise<void> {
      const ref = savedTrace(state);
      if (!ref) {
        restored.dispose();
        return;
      }
      await store.ready();
      panel.adopt(restored, ref);
      log.info(`trace view: restored ${ref.userId} #${ref.index}`);
    },
  });
}
