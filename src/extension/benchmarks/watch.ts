// Reloads an open benchmark when its files change on disk (personaLab.reloadOnChange): one FileSystemWatcher on the
// loaded root, and a burst of changes reloads once.
import * as vscode from 'vscode';

const RELOAD_DELAY_MS = 500;

export class ReloadWatcher implements vscode.Disposable {
  private watcher: vscode.FileSystemWatcher | undefined;
  private root: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `glob`: the files under the root that matter; `reload`: called with the root after a burst of changes. */
  constructor(
    private readonly glob: string,
    private readonly reload: (root: string) => void,
  ) {}

  /** Watches `root` (nothing when undefined); `force`: again even if it is the same root (the setting changed). */
  watch(root: string | undefined, force = false): void {
    if (root === this.root && !force) return;
    this.stop();
    this.root = root;
    if (!root || !vscode.workspace.getConfiguration('personaLab').get<boolean>('reloadOnChange', true)) return;
    this.watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(root), this.glob),
    );
    const schedule = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.reload(root), RELOAD_DELAY_MS);
    };
    this.watcher.onDidCreate(schedule);
    this.watcher.onDidChange(schedule);
    this.watcher.onDidDelete(schedule);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.watcher?.dispose();
    this.watcher = undefined;
  }

  dispose(): void {
    this.stop();
  }
}
