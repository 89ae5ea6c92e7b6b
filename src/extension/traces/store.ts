// The loaded OmniBehavior benchmark, its selected run and that run's score; beside the StreamProfileBench store
// (src/extension/store.ts), which it does not touch.
import * as vscode from 'vscode';
import { loadOmniBenchmark } from '../../core/omni/load';
import { scoreOmniRun, type OmniRunScore } from '../../core/omni/score';
import type { OmniBenchmark, OmniRun, OmniUser, TestAction } from '../../core/omni/types';

const RUN_KEY = 'personaLab.omni.selectedRun';
const VIEW_ID = 'personaLab.benchmarks';

export class OmniStore implements vscode.Disposable {
  private benchmark: OmniBenchmark | undefined;
  private selectedRun: string | undefined;
  private readonly scores = new Map<string, OmniRunScore>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly state: vscode.Memento) {
    this.selectedRun = state.get<string>(RUN_KEY);
  }

  get bench(): OmniBenchmark | undefined {
    return this.benchmark;
  }

  get runName(): string | undefined {
    return this.selectedRun;
  }

  get run(): OmniRun | undefined {
    return this.selectedRun ? this.benchmark?.runs.get(this.selectedRun) : undefined;
  }

  score(runName = this.selectedRun): OmniRunScore | undefined {
    const run = runName ? this.benchmark?.runs.get(runName) : undefined;
    if (!run || !this.benchmark) return undefined;
    let s = this.scores.get(run.name);
    if (!s) {
      s = scoreOmniRun(this.benchmark, run);
      this.scores.set(run.name, s);
    }
    return s;
  }

  testAction(userId: string, index: number): { user: OmniUser; action: TestAction } | undefined {
    const user = this.benchmark?.users.get(userId);
    const action = user?.testActions.find((a) => a.index === index);
    return user && action ? { user, action } : undefined;
  }

  /** Loads (one load after another); rejects when the folder cannot be read at all. */
  open(root: string): Promise<void> {
    const work = this.queue.then(() => this.load(root));
    this.queue = work.catch(() => undefined);
    return work;
  }

  async ready(): Promise<void> {
    await this.queue;
  }

  private async load(root: string): Promise<void> {
    const bench = await vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () =>
      vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Persona Lab: loading OmniBehavior' }, () => loadOmniBenchmark(root)),
    );
    this.benchmark = bench;
    this.scores.clear();
    if (!this.selectedRun || !bench.runs.has(this.selectedRun)) this.selectedRun = [...bench.runs.keys()].sort()[0];
    this.changed.fire();
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
