// What a feature that serves the open benchmarks whose format offers its part needs from the workbench: two context
// keys for package.json's `when` clauses (the context values of those benchmarks' root rows, and whether there is
// any), and the benchmark a command acts on (the row's, else the one open, else a pick). Open Dashboard and Batch
// Run… use it.
import * as vscode from 'vscode';
import { ownerOf } from '../tree/roots';
import type { Benchmarks } from './index';
import type { OpenBenchmark } from './types';

/** Keeps `rowsKey` and `anyKey` up to date as benchmarks open, reload and close. */
export function publishServed(
  context: vscode.ExtensionContext,
  benchmarks: Benchmarks,
  served: () => readonly OpenBenchmark[],
  keys: { rows: string; any: string },
): void {
  const publish = () => {
    const open = served();
    const rows = open.flatMap((b) => b.tree.roots().map((r) => r.getTreeItem().contextValue ?? []));
    void vscode.commands.executeCommand('setContext', keys.rows, [...new Set(rows)]);
    void vscode.commands.executeCommand('setContext', keys.any, open.length > 0);
  };
  for (const b of benchmarks.all) context.subscriptions.push(b.onDidChange(publish));
  publish();
}

/** The benchmark of the row `arg`, else the one open, else the one picked among several (undefined: none). */
export async function servedBenchmark(
  open: readonly OpenBenchmark[],
  arg: unknown,
  pick: { title: string; placeHolder: string },
): Promise<OpenBenchmark | undefined> {
  const owner = ownerOf(open, arg);
  if (owner || open.length <= 1) return owner ?? open[0];
  const picked = await vscode.window.showQuickPick(
    open.map((b) => ({ label: b.format.label, description: b.root, benchmark: b })),
    pick,
  );
  return picked?.benchmark;
}
