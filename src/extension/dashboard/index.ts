// Dashboard feature, one panel per benchmark format: StreamProfileBench's tables and figures of its runs
// (personaLab.openDashboard, spb/) and OmniBehavior's scores and bias diagnostics (personaLab.openOmniDashboard, omni/).
import type * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import { OmniDashboardPanel } from './omni/panel';
import { DashboardPanel } from './spb/panel';

export interface Dashboards {
  spb: DashboardPanel;
  omni: OmniDashboardPanel;
}

export function activateDashboard(context: vscode.ExtensionContext, benchmarks: Benchmarks): Dashboards {
  const spb = new DashboardPanel(context.extensionUri, benchmarks.spb, context.workspaceState);
  const omni = new OmniDashboardPanel(context.extensionUri, benchmarks.omni);
  context.subscriptions.push(spb, omni);
  return { spb, omni };
}
