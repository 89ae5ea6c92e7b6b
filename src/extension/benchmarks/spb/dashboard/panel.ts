// The run dashboard panel: the paper's tables and figures for the chosen runs; clicking a point or a bar lists the
// matching steps, whose rows open the step view. One panel, reused.
import { failedLine, failedRequests } from '../../../../core/spb/score/failedRequests';
import { readRunOrigin } from '../../../../core/spb/prompt/runOrigin';
import * as vscode from 'vscode';
import { scoredSteps, type StepPoint } from '../../../../core/spb/score/figures';
import { scoreRun, type RunScore } from '../../../../core/spb/score/run';
import { sampleSummaries, type SampleScope } from '../../../../core/spb/experiments/sampleScope';
import { SampleChoice } from '../sampleChoice';
import type { Benchmark, Run } from '../../../../core/spb/types';
import { runMemory } from '../../../../core/spb/score/tagMemory';
import type { UserSubset } from '../../../../core/spb/score/userSubset';
import {
  type DashboardMemory,
  isWebviewToExtension,
  type CopyFormat,
  type ExtensionToWebview,
  type StepFilter,
  type TableId,
  type WebviewToExtension,
} from '../../../../shared/spb/dashboardProtocol';
import type { SpbStore } from '../store';
import { ReusedPanel } from '../../../webviewPanel';
import { dashboardPanelOptions } from './html';
import { dashboardModel, dashboardTables, defaultRuns, filterSteps, filterTitle, type FiguresCache } from './model';
import { runCoverage } from '../../../../core/spb/score/coverage';
import type { Coverage } from '../../../../core/coverage';
import { tick } from '../compare/session';
import { openStepOfRun } from './open';
import { copyTable } from '../../../dashboard/copyTable';
import { log } from '../../../log';
import { saveChart } from '../../../charts/save';
import type { LabelService } from '../../../labels/service';
import { WhyRunsFailFeed } from '../../../labels/gold/whyRunsFailFeed';

const SELECTED_KEY = 'personaLab.dashboard.runs';
const SAMPLE_KEY = 'personaLab.dashboard.sample';

export class DashboardPanel extends ReusedPanel<ExtensionToWebview, WebviewToExtension> {
  private generation = 0;
  private focus: string | undefined;
  private pointsOf = new Map<string, StepPoint[]>();
  private pointsBench: Benchmark | undefined;
  private pointsSample: SampleScope | undefined;
  private readonly figures: FiguresCache = new Map();
  /** The sample the tables and figures are computed on (none: the whole benchmark), kept per benchmark folder. */
  private readonly sample: SampleChoice;
  private readonly whyRunsFail: WhyRunsFailFeed;

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: SpbStore,
    private readonly state: vscode.Memento,
    labels: LabelService,
  ) {
    super(dashboardPanelOptions(extensionUri, 'dashboard'), { accepts: isWebviewToExtension, logName: 'dashboard' });
    this.sample = new SampleChoice(state, () => store.bench, { stateKey: SAMPLE_KEY, view: 'the run dashboard' });
    this.whyRunsFail = new WhyRunsFailFeed(labels, store, () => this.host, this.onDidChangeVisible);
    this.disposables.push(
      this.whyRunsFail,
      this.sample,
      store.onDidChange(() => void this.refresh()),
    );
  }

  /** Each run's coverage of the benchmark, or of the chosen sample's users. */
  private coverages(bench: Benchmark): Map<string, Coverage> {
    const sample = this.sample.scope()?.users;
    return new Map([...bench.runs].map(([name, run]) => [name, runCoverage(bench, run, sample).total]));
  }

  /** Runs shown: the remembered choice (those still present), else the runs that cover all of what is shown. */
  private selectedRuns(bench: Benchmark, coverages = this.coverages(bench)): string[] {
    const all = [...bench.runs.keys()];
    const saved = this.state.get<string[]>(SELECTED_KEY)?.filter((r) => bench.runs.has(r)) ?? [];
    if (saved.length) return all.filter((r) => saved.includes(r));
    return defaultRuns(all, (name) => coverages.get(name));
  }

  /** The scored steps of a run, of the chosen sample's users only when there is one. */
  private points(bench: Benchmark, run: string): StepPoint[] {
    const sample = this.sample.scope();
    if (this.pointsBench !== bench || this.pointsSample !== sample) {
      this.pointsOf = new Map();
      this.figures.clear();
      this.pointsBench = bench;
      this.pointsSample = sample;
    }
    let p = this.pointsOf.get(run);
    const r = bench.runs.get(run);
    if (!p && r) this.pointsOf.set(run, (p = scoredSteps(bench, r, sample?.users)));
    return p ?? [];
  }

  /** A run's score: the store's over the whole benchmark, or the same scoring over the chosen sample's users. */
  /** Persona memory reads every persona of the run: once per run object and sample (a reload makes new runs). */
  private readonly memories = new WeakMap<Run, { sample: UserSubset | undefined; memory: DashboardMemory }>();

  private memoryOf(bench: Benchmark, run: Run, sample: UserSubset | undefined): DashboardMemory {
    const hit = this.memories.get(run);
    if (hit && hit.sample === sample) return hit.memory;
    const { steps, forgotten, ignored, neverCaptured, carriedOver, reInferred } = runMemory(bench, run, sample).total;
    const memory = {
      steps,
      missedTKeep: forgotten + ignored + neverCaptured,
      forgotten,
      ignored,
      neverCaptured,
      dDecayPicks: carriedOver + reInferred,
      carriedOver,
      reInferred,
    };
    this.memories.set(run, { sample, memory });
    return memory;
  }

  private score(bench: Benchmark, run: string): RunScore | undefined {
    const sample = this.sample.scope();
    const r = bench.runs.get(run);
    return sample ? r && scoreRun(bench, r, sample.users) : this.store.score(run);
  }

  private scores(bench: Benchmark, runs: readonly string[]): RunScore[] {
    return runs.map((r) => this.score(bench, r)).filter((s): s is RunScore => s !== undefined);
  }

  /**
   * Posts the tables and figures of the chosen runs. Each run's scores and step points are computed on its own turn
   * of the event loop (the extension host stays responsive at paper scale); a later call supersedes this one.
   */
  async refresh(): Promise<void> {
    if (!this.host) return;
    const generation = ++this.generation;
    const bench = this.store.bench;
    if (!bench || bench.runs.size === 0) {
      this.post({
        type: 'empty',
        message: bench
          ? 'This benchmark has no runs under results/.'
          : 'No benchmark is open. Open a benchmark folder first.',
      });
      return;
    }
    const coverages = this.coverages(bench);
    const selected = this.selectedRuns(bench, coverages);
    if (!this.focus || !selected.includes(this.focus)) {
      this.focus = this.store.runName && selected.includes(this.store.runName) ? this.store.runName : selected[0];
    }
    const sample = this.sample.scope();
    const started = Date.now();
    const points = new Map<string, StepPoint[]>();
    const scores: RunScore[] = [];
    let pointsMs = 0;
    let scoresMs = 0;
    for (const run of selected) {
      await tick();
      if (generation !== this.generation || this.store.bench !== bench) return;
      let t = Date.now();
      points.set(run, this.points(bench, run));
      pointsMs += Date.now() - t;
      t = Date.now();
      const score = this.score(bench, run);
      scoresMs += Date.now() - t;
      if (score) scores.push(score);
    }
    await tick();
    if (generation !== this.generation || !this.host) return;
    const modelStarted = Date.now();
    const model = dashboardModel({
      benchmark: bench.root.split(/[\\/]/).filter(Boolean).pop() ?? bench.root,
      runs: [...bench.runs.keys()],
      selected,
      focus: this.focus,
      scores,
      points,
      cache: this.figures,
      coverages,
      samples: sampleSummaries(bench.root),
      sample: sample && { name: sample.name, users: sample.size, label: sample.label, problems: sample.problems },
      failed: Object.fromEntries(
        scores.flatMap((score) => {
          const run = bench.runs.get(score.name);
          const f = run && failedRequests(bench, run, sample?.users, score);
          return f && f.failed > 0 ? [[score.name, failedLine(f)]] : [];
        }),
      ),
      memory: Object.fromEntries(
        selected.flatMap((name) => {
          const run = bench.runs.get(name);
          return run ? [[name, this.memoryOf(bench, run, sample?.users)]] : [];
        }),
      ),
      marks: Object.fromEntries(
        [...bench.runs.keys()].flatMap((run) => {
          const origin = readRunOrigin(bench.root, run);
          return origin ? [[run, origin.mark]] : [];
        }),
      ),
    });
    this.post({ type: 'dashboard', model });
    this.whyRunsFail.refresh();
    if (this.host.ready) {
      log.info(
        `dashboard: showing ${selected.length} run(s)${sample ? ` on ${sample.label}` : ''} in ${Date.now() - started} ms (step points ${pointsMs} ms, run scores ${scoresMs} ms, model ${Date.now() - modelStarted} ms)`,
      );
    }
  }

  protected async handle(msg: WebviewToExtension): Promise<void> {
    switch (msg.type) {
      case 'setRuns':
        await this.state.update(SELECTED_KEY, msg.runs);
        void this.refresh();
        break;
      case 'setFocus':
        this.focus = msg.run;
        void this.refresh();
        break;
      case 'setSample':
        await this.sample.set(msg.name);
        void this.refresh();
        break;
      case 'listSteps':
        this.listSteps(msg.filter);
        break;
      case 'openStep':
        await openStepOfRun(msg.ref, msg.run);
        break;
      case 'copyTable':
        await this.copyTable(msg.table, msg.format);
        break;
      case 'saveChart':
        await saveChart(msg, 'dashboard', this.store.bench?.root);
        break;
      case 'pickRuns':
        await vscode.commands.executeCommand('personaLab.compareRuns');
        break;
      default:
        break;
    }
  }

  private listSteps(filter: StepFilter): void {
    const bench = this.store.bench;
    if (!bench?.runs.has(filter.run)) return;
    const rows = filterSteps(this.points(bench, filter.run), filter);
    const note = filter.errorKey
      ? 'highest error rate first'
      : filter.sort === 'budget'
        ? 'lowest budget B first'
        : filter.sort === 'alpha'
          ? 'lowest α first'
          : 'lowest Recall first';
    const on = this.sample.scope();
    const title = on ? `${filterTitle(filter)} · ${on.label}` : filterTitle(filter);
    this.post({ type: 'steps', title, note: `${rows.length} step(s), ${note}`, filter, rows });
    log.info(`dashboard: listed ${rows.length} step(s) for ${filterTitle(filter)}`);
  }

  private async copyTable(id: TableId, format: CopyFormat): Promise<void> {
    const bench = this.store.bench;
    if (!bench) return;
    const on = this.sample.scope()?.label;
    const table = dashboardTables(this.scores(bench, this.selectedRuns(bench)), on).find((t) => t.id === id);
    if (table) await copyTable(table, format, 'dashboard');
  }
}
