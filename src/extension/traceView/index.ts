// The trace view (an OmniBehavior test action with its history, timeline and labelling) and the trace labels'
// badges in the Benchmarks tree. The benchmark itself (store, tree root, commands) is in ../benchmarks/omni/.
import type * as vscode from 'vscode';
import type { OmniStore } from '../benchmarks/omni/store';
import type { LabelService } from '../labels/service';
import { traceTreeBadges } from '../labels/omni/badges';
import { TraceLabelController } from '../labels/omni/controller';
import { TracePanel } from './panel';
import { registerTraceViewSerializer } from './restore';

export function activateTraceView(
  context: vscode.ExtensionContext,
  store: OmniStore,
  labels: LabelService,
): TracePanel {
  const panel = new TracePanel(context.extensionUri, store);
  const labelling = new TraceLabelController(panel, store, labels);
  store.tree.setAugment(traceTreeBadges(labels));
  context.subscriptions.push(panel, labelling, registerTraceViewSerializer(panel, store));
  return panel;
}
