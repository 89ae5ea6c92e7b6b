// The step view's undo stack: the inverse of each labelling action, newest last. No `vscode` import.
import { isNoOp, type LabelAction } from '../../core/labels/model';
import type { StepLocation } from '../../core/stepModel';

export interface UndoEntry {
  /** Applying it undoes the action. */
  inverse: LabelAction;
  /** The step the action was made on (undo shows it again). */
  ref: StepLocation;
  /** What was done, e.g. "added Decay error". */
  description: string;
}

export class UndoStack {
  private readonly entries: UndoEntry[] = [];

  constructor(private readonly limit = 200) {}

  /** Keeps an entry unless its inverse is a no-op (nothing changed). */
  push(entry: UndoEntry): void {
    if (isNoOp(entry.inverse)) return;
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  pop(): UndoEntry | undefined {
    return this.entries.pop();
  }

  get size(): number {
    return this.entries.length;
  }

  clear(): void {
    this.entries.length = 0;
  }
}
