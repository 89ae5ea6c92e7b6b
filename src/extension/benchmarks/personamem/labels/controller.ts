// Labelling in the PersonaMem question view: sends the labels bar's state (this author's labels on the question in
// the run shown, with their freshness) after each question shown and each change, and carries out the bar's toggles,
// notes and undo, one transaction each, in the one label store; `.` goes to the next question without a label of
// this author, or to the next assigned one while a labelling project of PersonaMem is active.
import * as vscode from 'vscode';
import type { LabelRow } from '../../../../core/labels/model';
import { labelDef } from '../../../../core/labels/taxonomy';
import {
  nextUnlabelledQuestion,
  QUESTION_LABEL_SET,
  questionFreshness,
  questionHash,
  questionOrder,
  questionStepRef,
} from '../../../../core/personamem/labels';
import type { QuestionLabelAction } from '../../../../shared/personamem/labelProtocol';
import type { QuestionRef } from '../../../../shared/personamem/questionProtocol';
import { LabelBar } from '../../../labels/bar';
import type { LabelService } from '../../../labels/service';
import { log } from '../../../log';
import type { QuestionPanel } from '../questionView';
import type { PmLabelTargets } from './targets';
import { buildQuestionLabelState } from './viewState';

export class QuestionLabelController implements vscode.Disposable {
  private readonly bar: LabelBar<QuestionRef>;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly panel: QuestionPanel,
    private readonly targets: PmLabelTargets,
    private readonly labels: LabelService,
  ) {
    this.bar = new LabelBar(labels, targets);
    this.disposables = [
      panel.onDidShow(() => this.push()),
      panel.onDidReceiveLabelAction((a) =>
        this.bar.inOrder(a, a.kind === 'toggle' || a.kind === 'setNote', (x) => this.handle(x)),
      ),
      this.bar.onOtherChange(() => this.push()),
    ];
  }

  private get set() {
    return this.labels.labelsOf(QUESTION_LABEL_SET.key);
  }

  push(): void {
    const ref = this.panel.currentRef;
    const bench = this.targets.open.bench;
    const benchmark = this.targets.benchmark;
    if (!ref || !bench || benchmark === undefined || !this.targets.exists(ref)) return;
    const run = this.targets.runFor(ref.split);
    let rows: LabelRow[] = [];
    try {
      rows = this.targets.rowsAt(ref, run);
    } catch (e) {
      log.warn(`labels: cannot read the labels of the question: ${(e as Error).message}`);
    }
    const mine = rows.filter((r) => r.author === this.labels.author);
    const built = buildQuestionLabelState({
      ref,
      run,
      rows: mine,
      freshness: questionFreshness(bench, benchmark, mine),
      author: this.labels.author,
      labels: this.set,
      canUndo: this.bar.canUndo,
      error: this.labels.error,
      labelSetNote: this.labels.labelSetNote,
      server: this.labels.serverLine,
      project: this.labels.projectIn('item'),
      flash: this.bar.flashOn(ref),
    });
    // The adjudication pass's section on this question, while a pass walks it (labels/adjudicate/pass.ts).
    const adjudication = this.labels.adjudication?.section(this.targets.unitAt(ref, run)) ?? null;
    this.panel.post({ type: 'labels', state: { ...built, adjudication } });
  }

  private async handle(action: QuestionLabelAction): Promise<void> {
    try {
      switch (action.kind) {
        case 'undo': {
          const back = this.bar.undoLast(this.panel.currentRef);
          if (back) this.panel.show(back);
          break;
        }
        case 'toggle':
          this.toggle(action.ref, action.labelId);
          break;
        case 'setNote':
          this.setNote(action.ref, action.labelId, action.note);
          break;
        case 'adjudicate':
          await this.labels.adjudication?.act(action, this.set);
          break;
        case 'nextUnlabelled':
          if (this.labels.projectIn('item') !== null) {
            const run = this.targets.runFor(action.ref.split);
            await vscode.commands.executeCommand('personaLab.nextAssigned', { ...action.ref, run });
            return;
          }
          this.nextUnlabelled(action.ref);
          break;
      }
    } catch (e) {
      this.bar.failed(e, this.panel.currentRef);
    }
    this.push();
  }

  private keyOf(ref: QuestionRef, labelId: string) {
    const benchmark = this.targets.benchmark;
    const unit = this.targets.unit(ref);
    if (benchmark === undefined || !unit) return undefined;
    const at = questionStepRef(benchmark, unit, this.targets.runFor(ref.split));
    return { ...at, author: this.labels.author, target: { kind: 'step' as const }, label: labelId };
  }

  private toggle(ref: QuestionRef, labelId: string): void {
    const def = this.set.find((l) => l.id === labelId);
    const q = this.targets.open.question(ref.split, ref.questionId);
    const key = this.keyOf(ref, labelId);
    if (!def || !q || !key) return;
    const result = this.bar.write((s) => s.toggle({ ...key, contentHash: questionHash(q) }));
    const what = `${result.state} ${def.name} on the question`;
    this.bar.done(ref, result.inverse, what);
    log.info(`labels: ${what} ${ref.split} ${ref.questionId}`);
  }

  private setNote(ref: QuestionRef, labelId: string, note: string): void {
    const key = this.keyOf(ref, labelId);
    if (!key) return;
    this.bar.setNote(ref, key, labelDef(this.set, labelId).name, note);
    log.info(`labels: note on ${labelId} on ${ref.split} ${ref.questionId}`);
  }

  /** Shows the next question, in the tree's order, without a label of this author in the run its view shows. */
  private nextUnlabelled(ref: QuestionRef): void {
    const bench = this.targets.open.bench;
    if (!bench) return;
    const descending = this.targets.open.tree.order.value.direction === 'descending';
    const next = nextUnlabelledQuestion(bench, questionOrder(bench, descending), ref, this.targets.labelledUnits());
    if (!next) this.bar.say(ref, 'Every question is labelled');
    else if (next.split === ref.split && next.questionId === ref.questionId)
      this.bar.say(ref, 'No other question is unlabelled: this is the last one');
    else {
      this.bar.clearFlash();
      this.panel.show({ split: next.split, questionId: next.questionId });
    }
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
