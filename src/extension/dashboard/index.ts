// Dashboard host: one panel per format whose contribution offers a dashboard (part.ts), each in its format's folder.
// Each comes back after a reload of the window (what it shows is kept in the workspace state or the page's state).
// Open Dashboard serves them all: from a benchmark row's menu it opens that benchmark's; package.json's `when` reads
// the context key ROWS_KEY, the context values of the open benchmarks' rows whose format offers one.
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import type { LabelService } from '../labels/service';
import { publishServed, servedBenchmark } from '../benchmarks/served';
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
  publishServed(context, benchmarks, served, { rows: ROWS_KEY, any: ANY_KEY });
  return {
    of: (id) => parts.get(id),
    open: async (arg) => {
      const chosen = await servedBenchmark(served(), arg, {
        title: 'Open Dashboard',
        placeHolder: 'The benchmark whose dashboard to open',
      });
      if (chosen) parts.get(chosen.format.id)?.show();
    },
  };
}
