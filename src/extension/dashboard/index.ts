// Dashboard host: one panel per format whose contribution offers a dashboard (part.ts), each in its format's folder.
// Each comes back after a reload of the window (what it shows is kept in the workspace state or the page's state).
// Open Dashboard serves them all: from a benchmark row's menu it opens that benchmark's; package.json's `when` reads
// the context key ROWS_KEY, the context values of the open benchmarks' rows whose format offers one.
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import type { OpenBenchmark } from '../benchmarks/types';
import type { LabelService } from '../labels/service';
import { ownerOf } from '../tree/roots';
import type { DashboardPart } from './part';

/** The context values of the open benchmarks' root rows that have a dashboard (`viewItem in …`). */
const ROWS_KEY = 'personaLab.dashboardRows';
/** Whether an open benchmark has a dashboard (Open Dashboard in the Command Palette). */
const ANY_KEY = 'personaLab.hasDashboard';

export interface Dashboards {
  /** The dashboard of a format id; undefined when its contribution offers none. */
  of(formatId: string): DashboardPart | undefined;
  /** Open Dashboard: the dashboard of the benchmark whose row `arg` is, else of the open one (a pick when several). */
  open(arg: unknown): Promise<void>;
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
  const served = () => benchmarks.all.filter((b) => b.bench && parts.has(b.format.id));
  const publish = () => {
    const open = served();
    const rows = open.flatMap((b) => b.tree.roots().map((r) => r.getTreeItem().contextValue ?? []));
    void vscode.commands.executeCommand('setContext', ROWS_KEY, [...new Set(rows)]);
    void vscode.commands.executeCommand('setContext', ANY_KEY, open.length > 0);
  };
  for (const b of benchmarks.all) context.subscriptions.push(b.onDidChange(publish));
  publish();
  return {
    of: (id) => parts.get(id),
    open: async (arg) => {
      const chosen = ownerOf(served(), arg) ?? (await pick(served()));
      if (chosen) parts.get(chosen.format.id)?.show();
    },
  };
}

/** The one benchmark open with a dashboard, or the one picked among several. */
async function pick(open: readonly OpenBenchmark[]): Promise<OpenBenchmark | undefined> {
  if (open.length <= 1) return open[0];
  const picked = await vscode.window.showQuickPick(
    open.map((b) => ({ label: b.format.label, description: b.root, benchmark: b })),
    { title: 'Open Dashboard', placeHolder: 'The benchmark whose dashboard to open' },
  );
  return picked?.benchmark;
}
