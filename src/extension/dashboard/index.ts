// Dashboard host: one panel per format whose contribution offers a dashboard (part.ts), each in its format's folder.
// Each comes back after a reload of the window (what it shows is kept in the workspace state or the page's state).
import type * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import type { LabelService } from '../labels/service';
import type { DashboardPart } from './part';

export interface Dashboards {
  /** The dashboard of a format id; undefined when its contribution offers none. */
  of(formatId: string): DashboardPart | undefined;
}

export function activateDashboard(
  context: vscode.ExtensionContext,
  benchmarks: Benchmarks,
  labels: LabelService,
): Dashboards {
  const host = { extensionUri: context.extensionUri, state: context.workspaceState, labels };
  const parts = new Map<string, DashboardPart>();
  for (const c of benchmarks.contributions) {
    const part = c.dashboard?.(benchmarks.of(c), host);
    if (!part) continue;
    parts.set(c.format.id, part);
    context.subscriptions.push(part);
  }
  return { of: (id) => parts.get(id) };
}
