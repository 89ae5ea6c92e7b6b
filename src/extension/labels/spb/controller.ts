// Labelling in the step view: sends the labels bar's state after each step shown and each change, and carries out
// the bar's actions (toggle, accept suggestions, note, undo, j/k moves, next unlabelled), one transaction each.
import * as vscode from 'vscode';
import { stepContentHash } from '../../../core/labels/hash';
import { keyOf, type LabelAction, type LabelKey, type LabelTarget } from '../../../core/labels/model';
import type { LabelStore } from '../../../core/labels/store';
import { suggestLabels } from '../../../core/labels/suggest';
import { labelDef } from '../../../core/labels/taxonomy';
import { describeTarget, spanText, targetAllowed, type LabelFlash } from '../../../core/labels/view';
import { readPostsText } from '../../../core/spb/load';
import { resultFor } from '../../../core/spb/score/run';
import type { StepLocation } from '../../../core/spb/stepModel';
import type { Benchmark } from '../../../core/spb/types';
import type { LabelUiAction } from '../../../shared/stepViewProtocol';
import type { StepPanel } from '../../stepView/panel';
import type { SpbStore, StepRef } from '../../benchmarks/spb/store';
import type { LabelService } from '../service';
import type { LabelTreeAugment } from './treeLabels';
import { UndoStack } from '../undo';
import { buildLabelView } from './viewState';
import { log } from '../../log';

const sameRef = (a: StepLocation | undefined, b: StepLocation | undefined) =>
  !!a && !!b && a.platform === b.platform && a.userId === b.userId && a.stepId === b.stepId;

export class LabelStepController implements vscode.Disposable {
  private readonly undo = new UndoStack();
  /** The last action's outcome, shown on the step it was made on until the next action or move. */
  private flash: { ref: StepLocation; flash: LabelFlash } | undefined;
  /** The content hash of the step shown, for the benchmark object it was computed on (a reload makes a new one). */
  private hashCache: { bench: Benchmark; key: string; hash: string } | undefined;
  /** Set during this controller's own writes: it pushes once afterwards, with the outcome. */
  private writing = false;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly panel: StepPanel,
    private readonly bench: SpbStore,
    private readonly labels: LabelService,
    private readonly tree: LabelTreeAugment,
  ) {
    this.disposables = [
      panel.onDidShowStep(() => this.push()),
      panel.onDidReceiveLabelAction((a) => this.handle(a)),
      labels.onDidChange(() => {
        if (!this.writing) this.push();
      }),
    ];
  }

  /** Sends the labels bar of the step the panel shows. */
  push(): void {
    const ref = this.panel.currentRef;
    const found = ref && this.bench.step(ref);
    if (!ref || !found) return;
    const { user, step } = found;
    const run = this.runName;
    const result = resultFor(this.panel.run, user, step.stepId);
    const suggestions = result
      ? suggestLabels({ split: step.split, pool: step.pool, prediction: result.prediction, reasoning: result.reasoning }, { labels: this.labels.labels })
      : [];
    const flash = this.flash && sameRef(this.flash.ref, ref) ? this.flash.flash : null;
    let rows: ReturnType<LabelService['rowsOfStep']> = [];
    try {
      rows = this.labels.rowsOfStep(ref, run);
    } catch (e) {
      log.warn(`labels: cannot read the labels of the step: ${(e as Error).message}`);
    }
    this.panel.post({
      type: 'labels',
      state: buildLabelView({
        ref, run, author: this.labels.author, labels: this.labels.labels, rows, currentHash: this.hashOf(ref),
        persona: result?.personaSummary ?? '', suggestions, canUndo: this.undo.size > 0,
        error: this.labels.error, labelSetNote: this.labels.labelSetNote, flash,
      }),
    });
  }

  /** The run labels go on: the run the panel shows ('' when none: labels about the task data). */
  private get runName(): string {
    return this.panel.runName ?? '';
  }

  private hashOf(ref: StepRef): string {
    const key = JSON.stringify([ref.platform, ref.userId, ref.stepId]);
    const bench = this.bench.bench;
    if (this.hashCache?.key === key && this.hashCache.bench === bench) return this.hashCache.hash;
    const found = this.bench.step(ref);
    if (!found || !bench) return '';
    try {
      const hash = stepContentHash(found.step, readPostsText(found.user, found.step));
      this.hashCache = { bench, key, hash };
      return hash;
    } catch {
      return '';
    }
  }

  private keyFor(ref: StepLocation, labelId: string, target: LabelTarget): LabelKey | undefined {
    const benchmark = this.labels.benchmark;
    if (benchmark === undefined) return undefined;
    return { benchmark, platform: ref.platform, userId: ref.userId, stepId: ref.stepId, run: this.runName, author: this.labels.author, target, label: labelId };
  }

  handle(action: LabelUiAction): void {
    try {
      switch (action.kind) {
        case 'toggle':
          return this.toggle(action.ref, action.labelId, action.target);
        case 'acceptSuggestions':
          return this.accept(action.ref);
        case 'setNote':
          return this.setNote(action.ref, action.labelId, action.target, action.note);
        case 'undo':
          return this.undoLast();
        case 'move':
          return this.move(action.ref, action.delta);
        case 'nextUnlabelled':
          // The unlabelled-step index and the tree's filter are the selected run's: that search moves the main view.
          if (this.panel.pinnedRun !== undefined) {
            this.say(action.ref, 'Next unlabelled works in the main step view (the selected run)');
            this.push();
            return;
          }
          void vscode.commands.executeCommand('personaLab.nextUnlabelledStep', action.ref);
          return;
      }
    } catch (e) {
      const ref = this.panel.currentRef;
      if (ref) this.flash = { ref, flash: { kind: 'error', text: (e as Error).message } };
      void vscode.window.showErrorMessage(`Persona Lab: ${(e as Error).message}`);
      this.push();
    }
  }

  private write<T>(fn: (store: LabelStore) => T): T {
    this.writing = true;
    try {
      return this.labels.write(fn);
    } finally {
      this.writing = false;
    }
  }

  private say(ref: StepLocation, text: string, kind: LabelFlash['kind'] = 'info'): void {
    this.flash = { ref: { ...ref }, flash: { kind, text } };
  }

  private toggle(ref: StepLocation, labelId: string, target: LabelTarget): void {
    const def = this.labels.labels.find((l) => l.id === labelId);
    const key = this.keyFor(ref, labelId, target);
    if (!def || !key || !this.bench.step(ref)) return;
    if (!targetAllowed(def.scope, target)) {
      this.say(ref, `${def.name} cannot go on ${describeTarget(target)}`, 'error');
      this.push();
      return;
    }
    const contentHash = this.hashOf(ref);
    const result = this.write((s) => s.toggle({ ...key, contentHash }));
    const found = this.bench.step(ref);
    const persona = found ? resultFor(this.panel.run, found.user, ref.stepId)?.personaSummary ?? '' : '';
    const excerpt = target.kind === 'span' ? spanText(persona, target.start, target.end) : '';
    const what = `${result.state === 'added' ? 'added' : 'removed'} ${def.name} on ${describeTarget(target, excerpt)}`;
    this.undo.push({ inverse: result.inverse, ref, description: what });
    this.say(ref, what[0].toUpperCase() + what.slice(1));
    this.push();
  }

  /** Adds every pending suggestion as a whole-step label, in one transaction (one undo entry). */
  private accept(ref: StepLocation): void {
    const found = this.bench.step(ref);
    const result = found && resultFor(this.panel.run, found.user, found.step.stepId);
    if (!found || !result) return;
    const suggestions = suggestLabels({ split: found.step.split, pool: found.step.pool, prediction: result.prediction, reasoning: result.reasoning }, { labels: this.labels.labels });
    const contentHash = this.hashOf(ref);
    const createdAt = new Date().toISOString();
    const actions: LabelAction[] = [];
    for (const s of suggestions) {
      const key = this.keyFor(ref, s.labelId, { kind: 'step' });
      if (key) actions.push({ kind: 'add', row: { ...keyOf(key), note: '', createdAt, contentHash } });
    }
    if (actions.length === 0) {
      this.say(ref, 'No suggestions to accept');
      this.push();
      return;
    }
    const done = this.write((s) => s.apply({ kind: 'batch', actions }));
    const names = suggestions.map((s) => labelDef(this.labels.labels, s.labelId).name).join(', ');
    this.undo.push({ inverse: done.inverse, ref, description: `accepted ${names}` });
    this.say(ref, done.changed ? `Accepted ${names}` : 'The suggestions were already applied');
    this.push();
  }

  private setNote(ref: StepLocation, labelId: string, target: LabelTarget, note: string): void {
    const key = this.keyFor(ref, labelId, target);
    if (!key) return;
    const result = this.write((s) => s.setNote(key, note));
    const name = labelDef(this.labels.labels, labelId).name;
    this.undo.push({ inverse: result.inverse, ref, description: `note on ${name}` });
    this.say(ref, result.changed ? `Saved the note on ${name}` : `The note on ${name} is unchanged`);
    this.push();
  }

  private undoLast(): void {
    const entry = this.undo.pop();
    const current = this.panel.currentRef;
    if (!entry) {
      if (current) this.say(current, 'Nothing to undo');
      this.push();
      return;
    }
    this.write((s) => s.apply(entry.inverse));
    this.say(entry.ref, `Undid: ${entry.description}`);
    if (!sameRef(entry.ref, current) && this.bench.step(entry.ref)) this.panel.show(entry.ref, true);
    else this.push();
  }

  private move(ref: StepLocation, delta: 1 | -1): void {
    const target = this.tree.neighbour(ref, delta);
    if (!target) {
      this.say(ref, delta === 1 ? 'This is the last step' + (this.tree.filterActive ? ' that matches the filter' : '') : 'This is the first step' + (this.tree.filterActive ? ' that matches the filter' : ''));
      this.push();
      return;
    }
    this.flash = undefined;
    this.panel.show(target, true);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
