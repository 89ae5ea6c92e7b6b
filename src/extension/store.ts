// The one loaded benchmark the extension shows, the selected run, and cached scores. Features listen to onDidChange.
import * as vscode from 'vscode';
import { loadBenchmark } from '../core/spb/load';
import { scoreRun, type RunScore } from '../core/spb/score/run';
import type { Benchmark, Platform, Run, Step, User } from '../core/spb/types';
import { RunSelection } from './runSelection';
import { log } from './log';

const RUN_KEY = 'personaLab.selectedRun';
const TARGET_KEY = 'personaLab.openedTarget';
/** The Benchmarks view, where loading also shows a progress bar. */
const VIEW_ID = 'personaLab.benchmarks';

export interface StepRef {
  platform: Platform;
  userId: string;
  stepId: number;
}

export class BenchmarkStore implements vscode.Disposable {
  private benchmark: Benchmark | undefined;
  private readonly selection: RunSelection<Benchmark, Run, RunScore>;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after a (re)load and after the selected run changes. */
  readonly onDidChange = this.changed.event;
  private loading: Promise<void> | undefined;
  private queue: Promise<void> = Promise.resolve();
  private pendingLoads = 0;
  private openedTarget: string | undefined;
  private readonly loadingChanged = new vscode.EventEmitter<boolean>();
  /** Fires true when a load starts and false when the last queued one ends. */
  readonly onDidChangeLoading = this.loadingChanged.event;

  constructor(private readonly state: vscode.Memento) {
    this.selection = new RunSelection(state, RUN_KEY, scoreRun);
  }

  get bench(): Benchmark | undefined {
    return this.benchmark;
  }

  get root(): string | undefined {
    return this.benchmark?.root;
  }

  get runName(): string | undefined {
    return this.selection.name;
  }

  get run(): Run | undefined {
    return this.selection.run(this.benchmark);
  }

  /** Score of the selected run (or a named one), computed once per load. */
  score(runName = this.selection.name): RunScore | undefined {
    return this.selection.score(this.benchmark, runName);
  }

  user(platform: Platform, userId: string): User | undefined {
    return this.benchmark?.users.get(platform)?.get(userId);
  }

  step(ref: StepRef): { user: User; step: Step } | undefined {
    const user = this.user(ref.platform, ref.userId);
    const step = user?.steps.find((s) => s.stepId === ref.stepId);
    return user && step ? { user, step } : undefined;
  }

  /** The folder or tasks file given to the last open(), kept for reload() and for the next session. */
  get target(): string | undefined {
    return this.openedTarget ?? this.state.get<string>(TARGET_KEY);
  }

  get isLoading(): boolean {
    return this.pendingLoads > 0;
  }

  /**
   * Loads a folder or tasks file with a progress notification; keeps the run selection when that run still exists.
   * Loads run one after another (a file watcher may ask while one is in progress). Rejects when the target cannot
   * be read at all; problems inside the files become diagnostics instead.
   */
  open(target: string): Promise<void> {
    this.setLoading(+1);
    const work = this.queue.then(() => this.load(target)).finally(() => this.setLoading(-1));
    this.queue = work.catch(() => undefined);
    this.loading = this.queue;
    return work;
  }

  private async load(target: string): Promise<void> {
    const started = Date.now();
    const bench = await vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () =>
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Persona Lab: loading benchmark' },
        async (progress) => {
          let last = 0;
          return loadBenchmark(target, {
            onProgress: (done, total) => {
              const pct = total ? Math.floor((100 * done) / total) : 100;
              if (pct > last) {
                progress.report({ message: `${pct} %`, increment: pct - last });
                last = pct;
              }
            },
          });
        },
      ),
    );
    this.benchmark = bench;
    this.openedTarget = target;
    this.selection.loaded(bench, () => {
      const preferred = vscode.workspace.getConfiguration('personaLab').get<string>('defaultRun');
      return preferred && bench.runs.has(preferred) ? preferred : bench.runs.keys().next().value;
    });
    await this.state.update(TARGET_KEY, target);
    let users = 0;
    let steps = 0;
    for (const m of bench.users.values()) {
      users += m.size;
      for (const u of m.values()) steps += u.steps.length;
    }
    log.info(`loaded ${bench.root}: ${users} users, ${steps} steps, ${bench.runs.size} run(s) in ${Date.now() - started} ms`);
    this.changed.fire();
  }

  private setLoading(delta: number): void {
    this.pendingLoads += delta;
    this.loadingChanged.fire(this.pendingLoads > 0);
  }

  /** Resolves when the loads in progress (if any) are done. */
  async ready(): Promise<void> {
    await this.loading;
  }

  /** Loads the last target again (no-op when nothing was opened). */
  async reload(): Promise<void> {
    const target = this.openedTarget ?? this.benchmark?.root;
    if (target) await this.open(target);
  }

  async selectRun(name: string): Promise<void> {
    await this.selection.select(name);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
    this.loadingChanged.dispose();
  }
}
