// The loaded OmniBehavior benchmark, its selected run and that run's score; beside the StreamProfileBench store
// (src/extension/store.ts), which it does not touch.
import * as vscode from 'vscode';
import { loadOmniBenchmark } from '../../core/omni/load';
import { scoreOmniRun, type OmniRunScore } from '../../core/omni/score';
import type { OmniBenchmark, OmniRun, OmniUser, TestAction } from '../../core/omni/types';
import { RunSelection } from '../runSelection';

const RUN_KEY = 'personaLab.omni.selectedRun';
const VIEW_ID = 'personaLab.benchmarks';

export class OmniStore implements vscode.Disposable {
  private benchmark: OmniBenchmark | undefined;
  private readonly selection: RunSelection<OmniBenchmark, OmniRun, OmniRunScore>;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private queue: Promise<void> = Promise.resolve();

  constructor(state: vscode.Memento) {
    this.selection = new RunSelection(state, RUN_KEY, scoreOmniRun);
  }

  get bench(): OmniBenchmark | undefined {
    return this.benchmark;
  }

  get runName(): string | undefined {
    return this.selection.name;
  }

  get run(): OmniRun | undefined {
    return this.selection.run(this.benchmark);
  }

  score(runName = this.selection.name): OmniRunScore | undefined {
    return this.selection.score(this.benchmark, runName);
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
    this.selection.loaded(bench, () => [...bench.runs.keys()].sort()[0]);
    this.changed.fire();
  }

  async selectRun(name: string): Promise<void> {
    await this.selection.select(name);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
