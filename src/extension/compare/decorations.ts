// Compare mode in the Benchmarks tree: a FileDecorationProvider badges the steps where run B's Recall is below run
// A's ("↓"), and each user with such steps (the count). The tree's items opt in by carrying a resourceUri made by
// stepDecorationUri / userDecorationUri (tree/decorationUris.ts); nothing else of the tree is touched.
import * as vscode from 'vscode';
import { DECORATION_SCHEME } from '../benchmarks/spb/decorationUris';

export class RegressionDecorations implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;
  private steps = new Map<string, number>();
  private users = new Map<string, number>();
  private label = '';

  /** Regressed steps ("platform/userId/stepId" → ΔRecall), or an empty map to clear the badges. */
  set(regressed: ReadonlyMap<string, number>, label: string): void {
    this.steps = new Map(regressed);
    this.users = new Map();
    for (const key of regressed.keys()) {
      const user = key.slice(0, key.lastIndexOf('/'));
      this.users.set(user, (this.users.get(user) ?? 0) + 1);
    }
    this.label = label;
    this.changed.fire(undefined);
  }

  get count(): number {
    return this.steps.size;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== DECORATION_SCHEME) return undefined;
    const key = uri.path.replace(/^\//, '');
    const delta = this.steps.get(key);
    if (delta !== undefined) {
      return new vscode.FileDecoration(
        '↓',
        `${this.label}: Recall ${(100 * delta).toFixed(1)} pp`,
        new vscode.ThemeColor('charts.red'),
      );
    }
    const n = this.users.get(key);
    if (n !== undefined) {
      return new vscode.FileDecoration(
        n > 99 ? '99' : String(n),
        `${this.label}: ${n} step(s) regressed`,
        new vscode.ThemeColor('charts.red'),
      );
    }
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
