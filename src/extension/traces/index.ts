// The OmniBehavior views: the trace view (with its labelling), the OmniBehavior dashboard, and the trace labels'
// badges in the Benchmarks tree. The benchmark itself (store, tree root, commands) is in ../benchmarks/omni/.
import * as vscode from 'vscode';
import type { OmniStore } from '../benchmarks/omni/store';
import type { LabelService } from '../labels/service';
import { traceTreeBadges } from '../labels/traceBadges';
import { TraceLabelController } from '../labels/traceController';
import { OmniDashboardPanel } from './dashboard';
import { TracePanel } from './panel';

export interface TraceViews {
  panel: TracePanel;
  dashboard: OmniDashboardPanel;
}

export function activateTraces(context: vscode.ExtensionContext, store: OmniStore, labels: LabelService): TraceViews {
  const panel = new TracePanel(context.extensionUri, store);
  const labelling = new TraceLabelController(panel, store, labels);
  const dashboard = new OmniDashboardPanel(context.extensionUri, store);
  store.tree.setAugment(traceTreeBadges(labels));
  context.subscriptions.push(panel, labelling, dashboard);
  return { panel, dashboard };
}
