// The Experiments view: the rows of the experiment log of every open benchmark whose format offers them (its
// contribution's `experiments` part, part.ts), each part's rows in the contributions' order. Each row is the part's
// node, so that its commands (package.json's `viewItem`) receive what the part made.
import * as vscode from 'vscode';
import type { Benchmarks } from '../benchmarks';
import type { ExperimentsPart } from './part';

export const EXPERIMENTS_VIEW = 'personaLab.experiments';
/** Whether an open benchmark's format offers experiments (package.json shows the view on it). */
const OFFERED_KEY = 'personaLab.experimentsOffered';

class ExperimentsTree implements vscode.TreeDataProvider<object>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly owner = new WeakMap<object, ExperimentsPart>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly parts: readonly ExperimentsPart[]) {
    this.subscriptions = parts.map((p) => p.onDidChange(() => this.changed.fire(undefined)));
  }

  getTreeItem(node: object): vscode.TreeItem {
    const part = this.owner.get(node);
    return part ? part.item(node) : new vscode.TreeItem('');
  }

  getChildren(node?: object): object[] {
    if (node) return [];
    return this.parts.flatMap((part) =>
      part.nodes().map((n) => {
        this.owner.set(n, part);
        return n;
      }),
    );
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

export function activateExperimentsView(context: vscode.ExtensionContext, benchmarks: Benchmarks): void {
  const offering = benchmarks.contributions.flatMap((c) => {
    const part = c.experiments?.(benchmarks.of(c));
    return part ? [{ id: c.format.id, part }] : [];
  });
  const parts = offering.map((o) => o.part);
  const tree = new ExperimentsTree(parts);
  const view = vscode.window.createTreeView(EXPERIMENTS_VIEW, { treeDataProvider: tree, canSelectMany: true });
  context.subscriptions.push(...parts, tree, view);
  const publish = () => {
    const open = benchmarks.all.some((b) => b.bench && offering.some((o) => o.id === b.format.id));
    void vscode.commands.executeCommand('setContext', OFFERED_KEY, open);
  };
  for (const b of benchmarks.all) context.subscriptions.push(b.onDidChange(publish));
  publish();
}
