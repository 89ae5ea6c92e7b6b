// The one loaded benchmark the extension shows, the selected run, and cached scores. Features listen to onDidChange.
import * as vscode from 'vscode';
import { loadBenchmark } from '../core/load';
import { scoreRun, type RunScore } from '../core/runScore';
import type { Benchmark, Platform, Run, Step, User } from '../core/types';

const RUN_KEY = 'personaLab.selectedRun';

export interface StepRef {
  platform: Platform;
  userId: string;
  stepId: number;
}

export class BenchmarkStore implements vscode.Disposable {
  private benchmark: Benchmark | undefined;
  private selectedRun: string | undefined;
  private readonly scores = new Map<string, RunScore>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after a (re)load and after the selected run changes. */
  readonly onDidChange = this.changed.event;
  private loading: Promise<void> | undefined;

  constructor(private readonly state: vscode.Memento) {
    this.selectedRun = state.get<string>(RUN_KEY);
  }

  get bench(): Benchmark | undefined {
    return this.benchmark;
  }

  get root(): string | undefined {
    return this.benchmark?.root;
  }

  get runName(): string | undefined {
    return this.selectedRun;
  }

  get run(): Run | undefined {
    return this.selectedRun ? this.benchmark?.runs.get(this.selectedRun) : undefined;
  }

  /** Score of the selected run (or a named one), computed once per load. */
  score(runName = this.selectedRun): RunScore | undefined {
    const run = runName ? this.benchmark?.runs.get(runName) : undefined;
    if (!run || !this.benchmark) return undefined;
    let s = this.scores.get(run.name);
    if (!s) {
      s = scoreRun(this.benchmark, run);
      this.scores.set(run.name, s);
    }
    return s;
  }

  user(platform: Platform, userId: string): User | undefined {
    return this.benchmark?.users.get(platform)?.get(userId);
  }

  step(ref: StepRef): { user: User; step: Step } | undefined {
    const user = this.user(ref.platform, ref.userId);
    const step = user?.steps.find((s) => s.stepId === ref.stepId);
    return user && step ? { user, step } : undefined;
  }

  /** Loads a folder or tasks file with a progress notification; keeps the run selection when that run still exists. */
  async open(target: string): Promise<void> {
    const work = vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Persona Lab: loading benchmark' },
      async (progress) => {
        let last = 0;
        const bench = await loadBenchmark(target, {
          onProgress: (done, total) => {
            const pct = total ? Math.floor((100 * done) / total) : 100;
            if (pct > last) {
              progress.report({ message: `${pct} %`, increment: pct - last });
              last = pct;
            }
          },
        });
        this.benchmark = bench;
        this.scores.clear();
        if (!this.selectedRun || !bench.runs.has(this.selectedRun)) {
          this.selectedRun = bench.runs.keys().next().value;
        }
        this.changed.fire();
      },
    );
    this.loading = Promise.resolve(work);
    await work;
  }

  /** Resolves when the load in progress (if any) is done. */
  async ready(): Promise<void> {
    await this.loading;
  }

  async reload(): Promise<void> {
    if (this.benchmark) await this.open(this.benchmark.root);
  }

  async selectRun(name: string): Promise<void> {
    this.selectedRun = name;
    await this.state.update(RUN_KEY, name);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
