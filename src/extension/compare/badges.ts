// Compare mode in the Benchmarks tree: a FileDecorationProvider badges the items where run B is worse than run A
// ("↓", the part's tooltip) and each row above them that carries a badge uri (the count). A format's rows opt in by
// carrying a resourceUri made by compareBadgeUri (its format id, then the item's path: "platform/user/step",
// "split/persona/question"); nothing else of the tree is touched.
import * as vscode from 'vscode';
import type { CompareBadges } from './part';

const SCHEME = 'persona-lab-item';

/** The resourceUri of a tree row that compare mode may badge: an item, or a row above items (a prefix of their path). */
export function compareBadgeUri(formatId: string, path: readonly string[]): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/${[formatId, ...path].join('/')}` });
}

export class CompareBadgeDecorations implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;
  private items = new Map<string, string>();
  private above = new Map<string, number>();
  private label = '';
  private unit = '';

  /** The badges of one format's rows, or undefined to clear them. */
  set(formatId: string, badges: CompareBadges | undefined): void {
    this.items = new Map();
    this.above = new Map();
    for (const [path, tip] of badges?.items ?? []) {
      const key = `${formatId}/${path}`;
      this.items.set(key, tip);
      for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) {
        const prefix = key.slice(0, i);
        this.above.set(prefix, (this.above.get(prefix) ?? 0) + 1);
      }
    }
    this.label = badges ? `${badges.pair.a} vs ${badges.pair.b}` : '';
    this.unit = badges?.unit ?? '';
    this.changed.fire(undefined);
  }

  get count(): number {
    return this.items.size;
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== SCHEME) return undefined;
    const key = uri.path.replace(/^\//, '');
    const tip = this.items.get(key);
    if (tip !== undefined)
      return new vscode.FileDecoration('↓', `${this.label}: ${tip}`, new vscode.ThemeColor('charts.red'));
    const n = this.above.get(key);
    if (n === undefined) return undefined;
    return new vscode.FileDecoration(
      n > 99 ? '99' : String(n),
      `${this.label}: ${n} ${this.unit}(s) regressed`,
      new vscode.ThemeColor('charts.red'),
    );
  }

  dispose(): void {
    this.changed.dispose();
  }
}
