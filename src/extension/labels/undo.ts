// A labels bar's undo stack (LabelBar): the inverse of each labelling action, newest last. No `vscode` import.
import { isNoOp, type LabelAction } from '../../core/labels/model';

export interface UndoEntry<R> {
  /** Applying it undoes the action. */
  inverse: LabelAction;
  /** The step (or test action) the action was made on (undo shows it again). */
  ref: R;
  /** What was done, e.g. "added D_decay pick". */
  description: string;
}

export class UndoStack<R> {
  private readonly entries: UndoEntry<R>[] = [];

  constructor(private readonly limit = 200) {}

  /** Keeps an entry unless its inverse is a no-op (nothing changed). */
  push(entry: UndoEntry<R>): void {
    if (isNoOp(entry.inverse)) return;
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  pop(): UndoEntry<R> | undefined {
    return this.entries.pop();
  }

  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries.length = 0;
  }
}
