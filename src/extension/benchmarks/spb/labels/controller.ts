// Labelling in the step view: sends the labels bar's state after each step shown and each change, and carries out
// the bar's actions (toggle, accept suggestions, note, undo, j/k moves, next unlabelled), one transaction each.
import * as vscode from 'vscode';
import { stepHash, stepHashText, type StepHash } from '../../../../core/spb/labels/hash';
import { keyOf, type LabelAction, type LabelKey, type LabelRow, type LabelTarget } from '../../../../core/labels/model';
import { suggestLabels } from '../../../../core/spb/labels/suggest';
import { labelDef } from '../../../../core/labels/taxonomy';
import { describeTarget, spanText, targetAllowed } from '../../../../core/labels/view';
import { readPostsText } from '../../../../core/spb/format/load';
import { resultFor } from '../../../../core/spb/score/run';
import type { StepLocation } from '../../../../core/spb/view/stepModel';
import type { Benchmark } from '../../../../core/spb/types';
import type { LabelUiAction } from '../../../../shared/spb/stepViewProtocol';
import type { StepPanel } from '../stepView/panel';
import type { StepRef } from '../store';
import type { LabelService } from '../../../labels/service';
import type { SpbLabelTargets } from './targets';
import type { LabelTreeAugment } from './treeLabels';
import { LabelBar } from '../../../labels/bar';
import { buildLabelView } from './viewState';
import { log } from '../../../log';

export class LabelStepController implements vscode.Disposable {
  private readonly bar: LabelBar<StepLocation>;
  /** The content hash of the step shown, for the benchmark object it was computed on (a reload makes a new one). */
  private hashCache: { bench: Benchmark; key: string; hash: StepHash } | undefined;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly panel: StepPanel,
    private readonly targets: SpbLabelTargets,
    private readonly labels: LabelService,
    private readonly tree: LabelTreeAugment,
  ) {
    this.bar = new LabelBar(labels, targets);
    this.disposables = [
      panel.onDidShowStep(() => this.push()),
      panel.onDidReceiveLabelAction((a) =>
        this.bar.inOrder(a, a.kind === 'toggle' || a.kind === 'acceptSuggestions' || a.kind === 'setNote', (x) =>
          this.handle(x),
        ),
      ),
      this.bar.onOtherChange(() => this.push()),
    ];
  }

  /** Sends the labels bar of the step the panel shows. */
  push(): void {
    const ref = this.panel.currentRef;
    const found = ref && this.targets.open.step(ref);
    if (!ref || !found) return;
    const { user, step } = found;
    const run = this.runName;
    const result = resultFor(this.panel.run, user, step.stepId);
    const suggestions = result
      ? suggestLabels(
          { split: step.split, pool: step.pool, prediction: result.prediction, reasoning: result.reasoning },
          { labels: this.labels.labels },
        )
      : [];
    const flash = this.bar.flashOn(ref);
    let rows: LabelRow[] = [];
    try {
      rows = this.targets.rowsAt(ref, run);
    } catch (e) {
      log.warn(`labels: cannot read the labels of the step: ${(e as Error).message}`);
    }
    this.panel.post({
      type: 'labels',
      // The adjudication pass's section on this step, while a pass walks it (adjudicate/pass.ts).
      state: Object.assign(
        buildLabelView({
          ref,
          run,
          author: this.labels.author,
          labels: this.labels.labels,
          rows,
          currentHash: this.hashOf(ref),
          persona: result?.personaSummary ?? '',
          suggestions,
          canUndo: this.bar.canUndo,
          error: this.labels.error,
          labelSetNote: this.labels.labelSetNote,
          server: this.labels.serverLine,
          project: this.labels.projectIn('step'),
          flash,
        }),
        { adjudication: this.labels.adjudication?.section(this.targets.unitAt(ref, run)) ?? null },
      ),
    });
  }

  /** The run labels go on: the run the panel shows ('' when none: labels about the task data). */
  private get runName(): string {
    return this.panel.runName ?? '';
  }

  /** The step's hashes now; undefined when they cannot be computed (nothing is then marked stale). */
  private hashOf(ref: StepRef): StepHash | undefined {
    const key = JSON.stringify([ref.platform, ref.userId, ref.stepId]);
    const bench = this.targets.open.bench;
    if (this.hashCache?.key === key && this.hashCache.bench === bench) return this.hashCache.hash;
    const found = this.targets.open.step(ref);
    if (!found || !bench) return undefined;
    try {
      const hash = stepHash(found.step, readPostsText(found.user, found.step));
      this.hashCache = { bench, key, hash };
      return hash;
    } catch {
      return undefined;
    }
  }

  /** What a label made now stores ('' when the step's hashes cannot be computed). */
  private hashTextOf(ref: StepRef): string {
    const h = this.hashOf(ref);
    return h ? stepHashText(h) : '';
  }

  private keyFor(ref: StepLocation, labelId: string, target: LabelTarget): LabelKey | undefined {
    const benchmark = this.targets.benchmark;
    if (benchmark === undefined) return undefined;
    return {
      benchmark,
      platform: ref.platform,
      userId: ref.userId,
      stepId: ref.stepId,
      run: this.runName,
      author: this.labels.author,
      target,
      label: labelId,
    };
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
        case 'adjudicate':
          void this.labels.adjudication?.act(action, this.labels.labels);
          return;
        case 'move':
          return this.move(action.ref, action.delta);
        case 'nextUnlabelled':
          // With a labelling project active, `.` walks this person's queue (projects.ts), from any run's view.
          if (this.labels.projectIn('step') !== null) {
            void vscode.commands.executeCommand('personaLab.nextAssigned', { ...action.ref, run: this.panel.runName });
            return;
          }
          // The unlabelled-step index and the tree's filter are the selected run's: that search moves the main view.
          if (this.panel.pinnedRun !== undefined) {
            this.bar.say(action.ref, 'Next unlabelled works in the main step view (the selected run)');
            this.push();
            return;
          }
          void vscode.commands.executeCommand('personaLab.nextUnlabelledStep', action.ref);
          return;
      }
    } catch (e) {
      this.bar.failed(e, this.panel.currentRef);
      this.push();
    }
  }

  private toggle(ref: StepLocation, labelId: string, target: LabelTarget): void {
    const def = this.labels.labels.find((l) => l.id === labelId);
    const key = this.keyFor(ref, labelId, target);
    if (!def || !key || !this.targets.open.step(ref)) return;
    if (!targetAllowed(def.scope, target)) {
      this.bar.say(ref, `${def.name} cannot go on ${describeTarget(target)}`, 'error');
      this.push();
      return;
    }
    const contentHash = this.hashTextOf(ref);
    const result = this.bar.write((s) => s.toggle({ ...key, contentHash }));
    const found = this.targets.open.step(ref);
    const persona = found ? (resultFor(this.panel.run, found.user, ref.stepId)?.personaSummary ?? '') : '';
    const excerpt = target.kind === 'span' ? spanText(persona, target.start, target.end) : '';
    const what = `${result.state === 'added' ? 'added' : 'removed'} ${def.name} on ${describeTarget(target, excerpt)}`;
    this.bar.done(ref, result.inverse, what);
    this.push();
  }

  /** Adds every pending suggestion as a whole-step label, in one transaction (one undo entry). */
  private accept(ref: StepLocation): void {
    const found = this.targets.open.step(ref);
    const result = found && resultFor(this.panel.run, found.user, found.step.stepId);
    if (!found || !result) return;
    const suggestions = suggestLabels(
      { split: found.step.split, pool: found.step.pool, prediction: result.prediction, reasoning: result.reasoning },
      { labels: this.labels.labels },
    );
    const contentHash = this.hashTextOf(ref);
    const createdAt = new Date().toISOString();
    const actions: LabelAction[] = [];
    for (const s of suggestions) {
      const key = this.keyFor(ref, s.labelId, { kind: 'step' });
      if (key) actions.push({ kind: 'add', row: { ...keyOf(key), note: '', createdAt, contentHash } });
    }
    if (actions.length === 0) {
      this.bar.say(ref, 'No suggestions to accept');
      this.push();
      return;
    }
    const done = this.bar.write((s) => s.apply({ kind: 'batch', actions }));
    const names = suggestions.map((s) => labelDef(this.labels.labels, s.labelId).name).join(', ');
    this.bar.done(ref, done.inverse, `accepted ${names}`);
    if (!done.changed) this.bar.say(ref, 'The suggestions were already applied');
    this.push();
  }

  private setNote(ref: StepLocation, labelId: string, target: LabelTarget, note: string): void {
    const key = this.keyFor(ref, labelId, target);
    if (!key) return;
    this.bar.setNote(ref, key, labelDef(this.labels.labels, labelId).name, note);
    this.push();
  }

  private undoLast(): void {
    const back = this.bar.undoLast(this.panel.currentRef);
    if (back) this.panel.show(back, true);
    else this.push();
  }

  private move(ref: StepLocation, delta: 1 | -1): void {
    const target = this.tree.neighbour(ref, delta);
    if (!target) {
      this.bar.say(
        ref,
        delta === 1
          ? 'This is the last step' + (this.tree.filterActive ? ' that matches the filter' : '')
          : 'This is the first step' + (this.tree.filterActive ? ' that matches the filter' : ''),
      );
      this.push();
      return;
    }
    this.bar.clearFlash();
    this.panel.show(target, true);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
