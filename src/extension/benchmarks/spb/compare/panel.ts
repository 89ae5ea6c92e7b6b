// The compare view: the paired summary of run B against run A and the steps sorted by the biggest regression or
// gain. A row shows that step of both runs side by side in this panel (picks, flips, deltas, personas); a side's
// *Open in Step View* opens that run's own step view. One panel, reused for every pair.
import { readRunOrigin } from '../../../../core/spb/prompt/runOrigin';
import * as vscode from 'vscode';
import { compareScopes } from '../../../../core/spb/view/compare';
import {
  isWebviewToExtension,
  type ExtensionToWebview,
  type Ref,
  type WebviewToExtension,
} from '../../../../shared/spb/dashboardProtocol';
import type { SpbStore } from '../store';
import { ReusedPanel } from '../../../webviewPanel';
import { dashboardPanelOptions } from '../dashboard/html';
import { openStepOfRun } from '../dashboard/open';
import { piMinConfidence } from '../stepView/panel';
import { runPairStep } from '../../../../core/spb/view/runPair';
import { sidesPiMarks } from '../../../../core/spb/pi/highlight';
import { compareModel, type CompareOptions } from './model';
import { runCoverage } from '../../../../core/spb/score/coverage';
import type { CompareSession } from './session';
import { log } from '../../../log';

export class ComparePanel extends ReusedPanel<ExtensionToWebview, WebviewToExtension> {
  private generation = 0;
  private options: CompareOptions = { scope: 'all', sortMetric: 'Recall', order: 'regression' };
  /** the step shown side by side, if any; shown again for the new pair after a swap or a change of runs */
  private shownPair: Ref | null = null;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: SpbStore,
    private readonly session: CompareSession,
  ) {
    super(dashboardPanelOptions(extensionUri, 'compare'), { accepts: isWebviewToExtension, logName: 'compare view' });
    this.disposables.push(session.onDidChange(() => void this.refresh()));
  }

  /** Posts the comparison of the current pair (a later call supersedes one still computing). */
  async refresh(): Promise<void> {
    if (!this.host) return;
    const generation = ++this.generation;
    const bench = this.store.bench;
    const pair = this.session.pair;
    const cmp = await this.session.comparison();
    if (generation !== this.generation || !this.host) return;
    if (!bench || !pair || !cmp) {
      this.post({
        type: 'empty',
        message: bench ? 'Pick two runs to compare (Persona Lab: Compare Runs…).' : 'No benchmark is open.',
      });
      return;
    }
    const scopes = compareScopes(cmp);
    if (!scopes.includes(this.options.scope)) this.options = { ...this.options, scope: 'all' };
    const options = this.options;
    const started = Date.now();
    const summary = (await this.session.summary(options.scope)) ?? [];
    if (generation !== this.generation || !this.host) return;
    const marks: Record<string, string> = {};
    for (const run of [pair.a, pair.b]) {
      const mark = readRunOrigin(bench.root, run)?.mark;
      if (mark) marks[run] = mark;
    }
    const runA = bench.runs.get(pair.a);
    const runB = bench.runs.get(pair.b);
    const coverage = runA && runB ? { a: runCoverage(bench, runA), b: runCoverage(bench, runB) } : undefined;
    const model = compareModel(cmp, summary, [...bench.runs.keys()], scopes, options, marks, coverage);
    this.host.panel.title = `Compare: ${pair.a} vs ${pair.b}`;
    this.post({ type: 'compare', model });
    if (this.shownPair) this.postPair(this.shownPair);
    if (this.host.ready) {
      const regressed = model.rows.filter((r) => (r.delta[0] ?? 0) < 0).length;
      log.info(
        `compare view: ${pair.a} vs ${pair.b} (${options.scope}): ${model.rows.length} step(s), ${regressed} regressed, in ${Date.now() - started} ms`,
      );
    }
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    switch (msg.type) {
      case 'compareOptions':
        this.options = { scope: msg.scope, sortMetric: msg.sortMetric, order: msg.order };
        void this.refresh();
        break;
      case 'openPair':
        this.shownPair = msg.ref;
        this.postPair(msg.ref);
        break;
      case 'closePair':
        this.shownPair = null;
        break;
      case 'openStep':
        await openStepOfRun(msg.ref, msg.run, { viewColumn: vscode.ViewColumn.Beside });
        break;
      case 'pickRuns':
        await vscode.commands.executeCommand('personaLab.compareRuns');
        break;
      case 'swapRuns': {
        const pair = this.session.pair;
        if (pair) await this.session.setPair({ a: pair.b, b: pair.a });
        break;
      }
      default:
        break;
    }
  }

  /** Both runs' answers to the step, or why there are none. */
  private postPair(ref: Ref): void {
    const pair = this.session.pair;
    const bench = this.store.bench;
    const found = this.store.step(ref);
    if (!pair || !bench || !found) {
      this.post({
        type: 'pairMissing',
        ref,
        message: `${ref.platform}/${ref.userId} step ${ref.stepId} is not in the open benchmark.`,
      });
      return;
    }
    const started = Date.now();
    const model = runPairStep(found.user, found.step, bench.runs.get(pair.a), bench.runs.get(pair.b));
    const pi = sidesPiMarks({ a: model.before, b: model.after }, model.personaDiff, {
      minConfidence: piMinConfidence(),
    });
    this.post({ type: 'pair', pair: model, pi });
    log.info(
      `compare view: ${ref.platform}/${ref.userId} step ${ref.stepId} side by side (${model.flipped.length} flipped) in ${Date.now() - started} ms`,
    );
  }
}
