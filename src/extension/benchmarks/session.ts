// The part both open benchmarks share: loads queued one after another, the selected run and its cached scores,
// and the change events. A subclass says how its format loads and which run it selects first.
import * as vscode from 'vscode';
import type { Format } from '../../core/formats';
import type { Diagnostic } from '../../core/io/diagnostics';
import type { RootSource } from '../tree/roots';
import { RunSelection } from './runSelection';
import type { LoadedBench, LoadHost, OpenBenchmark } from './types';

/** Thrown by loadBench when a newer open made its load pointless: that load ends with no change and no error. */
export class LoadSuperseded extends Error {}

export abstract class BenchmarkSession<
  B extends LoadedBench<R>,
  R extends { name: string },
  S,
> implements OpenBenchmark<R, B, S> {
  abstract readonly format: Format;
  abstract readonly tree: RootSource & vscode.Disposable;
  protected benchmark: B | undefined;
  private readonly selection: RunSelection<B, R, S>;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private queue: Promise<void> = Promise.resolve();
  private pendingLoads = 0;
  protected openedTarget: string | undefined;
  private readonly loadingChanged = new vscode.EventEmitter<boolean>();
  readonly onDidChangeLoading = this.loadingChanged.event;
  private readonly loadTitle: string;

  /** `runKey`: where the selected run is kept; `loadTitle`: the progress title of a load. */
  constructor(
    protected readonly state: vscode.Memento,
    protected readonly host: LoadHost,
    kind: { runKey: string; loadTitle: string; scoreOf: (bench: B, run: R) => S },
  ) {
    this.selection = new RunSelection(state, kind.runKey, kind.scoreOf);
    this.loadTitle = kind.loadTitle;
  }

  protected abstract loadBench(target: string, onProgress: (done: number, total: number) => void): Promise<B>;
  /** The run selected after a load when the selection is gone. */
  protected abstract firstRun(bench: B): string | undefined;
  /** After a load, before listeners hear of it. */
  protected async loaded(_target: string, _bench: B, _ms: number): Promise<void> {}

  get bench(): B | undefined {
    return this.benchmark;
  }

  get root(): string | undefined {
    return this.benchmark?.root;
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.benchmark?.diagnostics ?? [];
  }

  get runName(): string | undefined {
    return this.selection.name;
  }

  get run(): R | undefined {
    return this.selection.run(this.benchmark);
  }

  /** The run a load of `bench` would select (the selection while `bench` has it, else its first run), not selecting it. */
  protected runIn(bench: B): R | undefined {
    const name = this.selection.nameIn(bench, () => this.firstRun(bench));
    return name === undefined ? undefined : bench.runs.get(name);
  }

  score(runName = this.selection.name): S | undefined {
    return this.selection.score(this.benchmark, runName);
  }

  get isLoading(): boolean {
    return this.pendingLoads > 0;
  }

  /**
   * Resolves once the benchmark the caller asked for is loaded: when a newer open made this load pointless, once that
   * newer one has settled too, so that a caller reading `bench` next (a re-run that reloads to show its new run) never
   * reads the benchmark from before both.
   */
  open(target: string): Promise<void> {
    this.setLoading(+1);
    const work = this.queue.then(() => this.load(target)).finally(() => this.setLoading(-1));
    this.queue = work.then(
      () => undefined,
      () => undefined,
    );
    // The newer open queued itself before it stopped this one, so the queue holds it by the time this one ends.
    return work.then(async (superseded) => {
      if (superseded) await this.ready();
    });
  }

  /** Loads `target`; true when a newer open superseded it (no change was made). */
  private async load(target: string): Promise<boolean> {
    const started = Date.now();
    let bench: B;
    try {
      bench = await this.host.progress(this.loadTitle, (report) => this.loadBench(target, report));
    } catch (err) {
      if (err instanceof LoadSuperseded) return true;
      throw err;
    }
    this.benchmark = bench;
    this.openedTarget = target;
    this.selection.loaded(bench, () => this.firstRun(bench));
    await this.loaded(target, bench, Date.now() - started);
    this.changed.fire();
    return false;
  }

  private setLoading(delta: number): void {
    this.pendingLoads += delta;
    this.loadingChanged.fire(this.pendingLoads > 0);
  }

  async ready(): Promise<void> {
    await this.queue;
  }

  get target(): string | undefined {
    return this.openedTarget;
  }

  async reload(): Promise<void> {
    const target = this.openedTarget ?? this.benchmark?.root;
    if (target) await this.open(target);
  }

  async selectRun(name: string): Promise<void> {
    await this.selection.select(name);
    this.changed.fire();
  }

  dispose(): void {
    this.tree.dispose();
    this.changed.dispose();
    this.loadingChanged.dispose();
  }
}
