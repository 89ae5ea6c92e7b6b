// Dashboard feature, one panel per benchmark format: StreamProfileBench's tables and figures of its runs
// (personaLab.openDashboard, spb/) and OmniBehavior's scores and bias diagnostics (personaLab.openOmniDashboard, omni/).
// Both come back after a reload of the window (the ticked runs and the run are in the workspace state, the platform
// in the page's state).
import type * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import { OmniDashboardPanel } from './omni/panel';
import { DashboardPanel } from './spb/panel';
import { DASHBOARD_VIEW_TYPE } from '../../shared/dashboardProtocol';
import { OMNI_DASHBOARD_VIEW_TYPE } from '../../shared/omniDashboardProtocol';
import { restoreReusedPanel } from '../webviewPanel';
import type { LabelService } from '../labels/service';

export interface Dashboards {
  spb: DashboardPanel;
  omni: OmniDashboardPanel;
}

export function activateDashboard(
  context: vscode.ExtensionContext,
  benchmarks: Benchmarks,
  labels: LabelService,
): Dashboards {
  const spb = new DashboardPanel(context.extensionUri, benchmarks.spb, context.workspaceState);
  const omni = new OmniDashboardPanel(context.extensionUri, benchmarks.omni, labels);
  context.subscriptions.push(
    spb,
    omni,
    restoreReusedPanel(DASHBOARD_VIEW_TYPE, spb, () => benchmarks.spb.ready()),
    restoreReusedPanel(OMNI_DASHBOARD_VIEW_TYPE, omni, () => benchmarks.omni.ready()),
  );
  return { spb, omni };
}
