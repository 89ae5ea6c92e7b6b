// Labelling in the trace view: sends the labels bar's state (this author's labels on the test action and on its
// history records, with their staleness) after each test action shown and each change, and carries out the bar's
// toggles, notes and undo, one transaction each, in the same store as the step view's labels, and its next
// unlabelled test action (`.`), or the next assigned one while a labelling project of OmniBehavior is active.
import * as vscode from 'vscode';
import { labelDef, type LabelDef } from '../../../../core/labels/taxonomy';
import { TRACE_LABEL_SET } from '../../../../core/omni/labels/labelSet';
import { testActionOrder } from '../../../../core/omni/order';
import {
  nextUnlabelledAction,
  TraceLabelIndex,
  traceContentHash,
  traceLabelKey,
  traceStaleness,
} from '../../../../core/omni/labels/trace';
import type { LabelRow } from '../../../../core/labels/model';
import { describeTarget } from '../../../../core/labels/view';
import type { TraceLabelAction, TraceRef } from '../../../../shared/omni/traceProtocol';
import type { TracePanel } from '../traceView/panel';
import type { LabelService } from '../../../labels/service';
import type { OmniLabelTargets } from './targets';
import { buildScoreState, buildTraceLabelState } from './viewState';
import { utteranceHash, type ScoreRow } from '../../../../core/labels/scores';
import { DIMENSION_NAMES } from '../../../../core/omni/judgeAgreementText';
import { LabelBar } from '../../../labels/bar';
import { log } from '../../../log';

export class TraceLabelController implements vscode.Disposable {
  private readonly bar: LabelBar<TraceRef>;
  /** Bumped by each push: a slower staleness check that finishes late does not overwrite a newer state. */
  private token = 0;
  private readonly disposables: vscode.Disposable[];

  /** The trace label set (`traceLabels` in labels.json). */
  private get traceLabels(): readonly LabelDef[] {
    return this.labels.labelsOf(TRACE_LABEL_SET.key);
  }

  constructor(
    private readonly panel: TracePanel,
    private readonly targets: OmniLabelTargets,
    private readonly labels: LabelService,
  ) {
    this.bar = new LabelBar(labels, targets);
    this.disposables = [
      panel.onDidShow(() => void this.push()),
      panel.onDidReceiveLabelAction((a) =>
        this.bar.inOrder(a, a.kind === 'toggle' || a.kind === 'setNote' || a.kind === 'score', (x) => this.handle(x)),
      ),
      this.bar.onOtherChange(() => void this.push()),
    ];
  }

  async push(): Promise<void> {
    const ref = this.panel.currentRef;
    const bench = this.targets.open.bench;
    const core = ref && this.targets.coreRef(ref);
    if (!ref || !bench || !core || !this.targets.exists(ref)) return;
    const token = ++this.token;
    let rows: LabelRow[] = [];
    try {
      rows = this.targets.rowsAt(ref, core.run);
    } catch (e) {
      log.warn(`labels: cannot read the labels of the test action: ${(e as Error).message}`);
    }
    const mine = rows.filter((r) => r.author === this.labels.author);
    const scores = buildScoreState(bench.runs.get(core.run), ref, this.myScores(core));
    const freshness = await traceStaleness(bench, core.benchmark, mine).catch(() => new Map());
    if (token !== this.token || !this.targets.sameRef(this.panel.currentRef, ref)) return;
    this.panel.post({
      type: 'labels',
      // The adjudication pass's section on this test action, while a pass walks it (adjudicate/pass.ts).
      state: Object.assign(
        buildTraceLabelState({
          ref,
          run: core.run,
          author: this.labels.author,
          labels: this.traceLabels,
          rows: mine,
          freshness,
          canUndo: this.bar.canUndo,
          error: this.labels.error,
          labelSetNote: this.labels.labelSetNote,
          server: this.labels.serverLine,
          project: this.labels.projectIn('testAction'),
          flash: this.bar.flashOn(ref),
          scores,
        }),
        { adjudication: this.labels.adjudication?.section(this.targets.unitAt(ref, core.run)) ?? null },
      ),
    });
  }

  /** This author's scores of the run's utterance at the test action `core`; none without a run or a database. */
  private myScores(core: { benchmark: string; userId: string; index: number; run: string }): ScoreRow[] {
    if (!core.run) return [];
    try {
      const { benchmark, userId, index, run } = core;
      return this.labels.store(false)?.scores({ benchmark, userId, index, run, author: this.labels.author }) ?? [];
    } catch (e) {
      log.warn(`labels: cannot read the judge scores of the test action: ${(e as Error).message}`);
      return [];
    }
  }

  private async handle(action: TraceLabelAction): Promise<void> {
    try {
      switch (action.kind) {
        case 'undo':
          this.undoLast();
          break;
        case 'adjudicate':
          await this.labels.adjudication?.act(action, this.traceLabels);
          break;
        case 'toggle':
          await this.toggle(action);
          break;
        case 'setNote':
          this.setNote(action);
          break;
        case 'nextUnlabelled':
          // With a labelling project of OmniBehavior active, `.` walks this person's queue (projects.ts).
          if (this.labels.projectIn('testAction') !== null) {
            const run = this.targets.coreRef(action.ref)?.run;
            await vscode.commands.executeCommand('personaLab.nextAssigned', { ...action.ref, run });
            return;
          }
          this.nextUnlabelled(action.ref);
          break;
        case 'score':
          this.score(action);
          break;
      }
    } catch (e) {
      this.bar.failed(e, this.panel.currentRef);
    }
    await this.push();
  }

  private async toggle(msg: Extract<TraceLabelAction, { kind: 'toggle' }>): Promise<void> {
    const def = this.traceLabels.find((l) => l.id === msg.labelId);
    const found = this.targets.open.testAction(msg.ref.userId, msg.ref.index);
    const core = this.targets.coreRef(msg.ref);
    if (!def || !found || !core) return;
    if (msg.target.kind === 'history' && msg.target.historyIndex >= msg.ref.index) return;
    const contentHash = await traceContentHash(found.user, msg.ref.index, msg.target);
    const key = traceLabelKey(core, msg.target, this.labels.author, def.id);
    const result = this.bar.write((s) => s.toggle({ ...key, contentHash }));
    const what = `${result.state} ${def.name} on ${describeTarget(msg.target)}`;
    this.bar.done(msg.ref, result.inverse, what);
    log.info(`labels: ${what} of ${msg.ref.userId} #${msg.ref.index}`);
  }

  private setNote(msg: Extract<TraceLabelAction, { kind: 'setNote' }>): void {
    const core = this.targets.coreRef(msg.ref);
    if (!core || !this.targets.exists(msg.ref)) return;
    const key = traceLabelKey(core, msg.target, this.labels.author, msg.labelId);
    this.bar.setNote(msg.ref, key, labelDef(this.traceLabels, msg.labelId).name, msg.note);
    log.info(`labels: note on ${msg.labelId} on ${describeTarget(msg.target)} of ${msg.ref.userId} #${msg.ref.index}`);
  }

  /** Sets (or clears) this author's score of the selected run's utterance at the test action, one undoable action. */
  private score(msg: Extract<TraceLabelAction, { kind: 'score' }>): void {
    const core = this.targets.coreRef(msg.ref);
    const state = core && buildScoreState(this.targets.open.bench?.runs.get(core.run), msg.ref, []);
    if (!core || !state) {
      this.bar.say(msg.ref, 'No utterance to score here: choose a run that answered this test action');
      return;
    }
    const key = { ...core, author: this.labels.author, dimension: msg.dimension };
    const result = this.bar.write((s) => s.setScore(key, msg.score, utteranceHash(state.utterance)));
    const name = DIMENSION_NAMES[msg.dimension].toLowerCase();
    const what = msg.score === null ? `cleared your ${name} score` : `scored ${name} ${msg.score} of 10`;
    this.bar.done(msg.ref, result.inverse, what);
    log.info(`labels: ${what} on ${msg.ref.userId} #${msg.ref.index}, run ${core.run}`);
  }

  /** Shows the next test action, in the tree's order, without a label of this author in the selected run. */
  private nextUnlabelled(ref: TraceRef): void {
    const bench = this.targets.open.bench;
    const core = this.targets.coreRef(ref);
    if (!bench || !core) return;
    const order = testActionOrder(bench, this.targets.open.tree.userIds());
    const next = nextUnlabelledAction(order, ref, new TraceLabelIndex(this.targets.mine(core.run)));
    const run = core.run ? `run ${core.run}` : 'no run';
    if (!next) {
      this.bar.say(ref, `Every test action is labelled (${run})`);
    } else if (this.targets.sameRef(next, ref)) {
      this.bar.say(ref, `No other test action is unlabelled (${run}): this is the last one`);
    } else {
      this.bar.clearFlash();
      this.panel.goTo(next);
    }
  }

  private undoLast(): void {
    const back = this.bar.undoLast(this.panel.currentRef);
    if (back) this.panel.show(back);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
