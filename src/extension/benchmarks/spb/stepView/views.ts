// The step view panels: the main one (tree clicks, Open Step, labels and re-runs; follows the selected run) and one
// pinned panel per run, made on an explicit request for that run (Compare's side-by-side, the dashboard's lists)
// and reused when the same run is asked again.
import * as vscode from 'vscode';
import type { SpbStore } from '../store';
import { StepPanel } from './panel';

const OPEN_CONTEXT = 'personaLab.stepViewOpen';

export class StepViews implements vscode.Disposable {
  readonly main: StepPanel;
  private readonly pinned = new Map<string, StepPanel>();
  private readonly created = new vscode.EventEmitter<StepPanel>();
  /** A pinned panel was made (features that add to the step view attach to it; it is disposed when closed). */
  readonly onDidCreatePinned = this.created.event;
  private readonly disposables: vscode.Disposable[] = [this.created];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: SpbStore,
  ) {
    this.main = new StepPanel(extensionUri, store);
    this.disposables.push(
      this.main,
      this.main.onDidChangeOpen(() => this.updateContext()),
    );
  }

  /** The pinned panel of `run`, made on first use. */
  forRun(run: string): StepPanel {
    const known = this.pinned.get(run);
    if (known) return known;
    const made = new StepPanel(this.extensionUri, this.store, run);
    made.onDidChangeOpen((open) => {
      this.updateContext();
      // A closed pinned panel is dropped: the next request for the run makes a new one.
      if (!open && this.pinned.get(run) === made) {
        this.pinned.delete(run);
        queueMicrotask(() => made.dispose()); // not while its own event is being delivered
      }
    });
    this.pinned.set(run, made);
    this.created.fire(made);
    return made;
  }

  /** The step view the user is in (the active editor), else the main one. */
  active(): StepPanel {
    for (const p of this.pinned.values()) if (p.isActive) return p;
    return this.main;
  }

  private updateContext(): void {
    const open = this.main.isOpen || [...this.pinned.values()].some((p) => p.isOpen);
    void vscode.commands.executeCommand('setContext', OPEN_CONTEXT, open);
  }

  dispose(): void {
    for (const p of this.pinned.values()) p.dispose();
    this.pinned.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
