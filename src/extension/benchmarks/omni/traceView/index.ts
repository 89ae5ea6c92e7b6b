// The trace view: an OmniBehavior test action with its history and timeline (its labelling is OmniBehavior's part
// of the labels, ../labels/). The benchmark itself (store, tree root, commands) is the folder above.
import type * as vscode from 'vscode';
import type { OmniStore } from '../store';
import { TracePanel } from './panel';
import { registerTraceViewSerializer } from './restore';

const made = new WeakMap<OmniStore, TracePanel>();

/** The trace view of `store` (the generic features' parts show their bars in it); undefined before it is made. */
export function tracePanelOf(store: OmniStore): TracePanel | undefined {
  return made.get(store);
}

export function activateTraceView(context: vscode.ExtensionContext, store: OmniStore): TracePanel {
  const panel = new TracePanel(context.extensionUri, store);
  made.set(store, panel);
  context.subscriptions.push(panel, registerTraceViewSerializer(panel, store));
  return panel;
}
