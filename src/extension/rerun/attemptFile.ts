// The attempt file of the open benchmark (.personalab/ inside its folder), opened on first use and again when
// another folder is opened. Each format's re-run keeps its attempts in one.
import { join } from 'node:path';
import { mkdirInside } from '../../core/io/safeFs';

export class AttemptFile<S extends { close(): void }> {
  private opened: { root: string; store: S } | undefined;

  constructor(
    private readonly root: () => string | undefined,
    private readonly file: string,
    private readonly open: (path: string) => S,
  ) {}

  get(): S | undefined {
    const root = this.root();
    if (!root) return undefined;
    if (this.opened?.root !== root) {
      this.opened?.store.close();
      const dir = join(root, '.personalab');
      mkdirInside(root, dir);
      this.opened = { root, store: this.open(join(dir, this.file)) };
    }
    return this.opened.store;
  }

  dispose(): void {
    this.opened?.store.close();
    this.opened = undefined;
  }
}
