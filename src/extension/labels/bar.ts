// What a labels bar's controller keeps between actions, the same for the step view and the trace view: the undo
// stack, the last action's outcome (the flash, shown on the step or test action it was made on), and the writes
// that mark themselves, so that the controller pushes once after its own write rather than on the store's event.
// The actions both views offer alike (a note) are carried out here.
import * as vscode from 'vscode';
import type { LabelAction, LabelKey } from '../../core/labels/model';
import type { LabelStore } from '../../core/labels/store';
import type { LabelFlash } from '../../core/labels/view';
import type { LabelService } from './service';
import type { LabelTargets } from './targets';
import type { OpenBenchmark } from '../benchmarks/types';
import { UndoStack } from './undo';
import { log } from '../log';

export class LabelBar<R extends object> {
  private readonly undo = new UndoStack<R>();
  private flash: { ref: R; flash: LabelFlash } | undefined;
  private writing = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly labels: LabelService,
    private readonly targets: Pick<LabelTargets<OpenBenchmark, R>, 'sameRef' | 'exists'>,
  ) {}

  /** Calls `push` when the labels change by anything but this bar's own writes. */
  onOtherChange(push: () => void): vscode.Disposable {
    return this.labels.onDidChange(() => {
      if (!this.writing) push();
    });
  }

  /**
   * Runs the page's actions in arrival order; one that `writes` a label waits for the author first (asked once,
   * author.ts).
   */
  inOrder<A>(action: A, writes: boolean, handle: (a: A) => unknown): void {
    this.queue = this.queue
      .then(() => (writes ? this.labels.ensureAuthor() : undefined))
      .catch((e: unknown) => log.warn(`labels: the author could not be saved: ${(e as Error).message}`))
      .then(() => handle(action));
  }

  get canUndo(): boolean {
    return this.undo.size > 0;
  }

  /** The flash to show on `ref`: null unless the last action was made there. */
  flashOn(ref: R): LabelFlash | null {
    return this.flash && this.targets.sameRef(this.flash.ref, ref) ? this.flash.flash : null;
  }

  say(ref: R, text: string, kind: LabelFlash['kind'] = 'info'): void {
    this.flash = { ref: { ...ref }, flash: { kind, text } };
  }

  clearFlash(): void {
    this.flash = undefined;
  }

  write<T>(fn: (store: LabelStore) => T): T {
    this.writing = true;
    try {
      return this.labels.write(fn);
    } finally {
      this.writing = false;
    }
  }

  /** Keeps an action for undo and says what it did (`what`: "added D_decay pick on …"). */
  done(ref: R, inverse: LabelAction, what: string): void {
    this.undo.push({ inverse, ref: { ...ref }, description: what });
    this.say(ref, what[0].toUpperCase() + what.slice(1));
  }

  /** Sets the note of the label `key` (named `name`) made on `ref`, as one undoable action, and says so. */
  setNote(ref: R, key: LabelKey, name: string, note: string): void {
    const result = this.write((s) => s.setNote(key, note));
    this.done(ref, result.inverse, `note on ${name}`);
    this.say(ref, result.changed ? `Saved the note on ${name}` : `The note on ${name} is unchanged`);
  }

  /** An action failed: says so on the one shown and in an error message. */
  failed(e: unknown, current: R | undefined): void {
    const text = (e as Error).message;
    if (current) this.say(current, text, 'error');
    void vscode.window.showErrorMessage(`Persona Lab: ${text}`);
  }

  /**
   * Undoes the newest action and says so. Returns where it was made when that is not `current` and still exists,
   * for the caller to show it; undefined when the bar shown is the one to update.
   */
  undoLast(current: R | undefined): R | undefined {
    const entry = this.undo.pop();
    if (!entry) {
      if (current) this.say(current, 'Nothing to undo');
      return undefined;
    }
    this.write((s) => s.apply(entry.inverse));
    this.say(entry.ref, `Undid: ${entry.description}`);
    return !this.targets.sameRef(entry.ref, current) && this.targets.exists(entry.ref) ? entry.ref : undefined;
  }
}
