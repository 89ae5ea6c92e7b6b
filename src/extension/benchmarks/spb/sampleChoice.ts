// The sample a view is computed on (the Benchmarks tree's Filter Tree to Sample, the dashboard's "computed on"),
// kept per benchmark folder in workspace state (as the user order). The sample file is read lazily, once per loaded
// benchmark and choice; what is wrong with it (users the benchmark lacks, tasks files changed, a file that cannot be
// read) is a located warning, once, and the view keeps working on what it can use.
import * as vscode from 'vscode';
import { loadSampleScope, type SampleScope } from '../../../core/spb/experiments/sampleScope';
import type { Benchmark } from '../../../core/spb/types';
import { log } from '../../log';

/** What the choice holds for the loaded benchmark: nothing, a usable scope, or a sample that cannot be read. */
export type SampleChoiceState =
  { kind: 'none' } | { kind: 'scope'; scope: SampleScope } | { kind: 'unreadable'; name: string; reason: string };

export interface SampleChoiceOptions {
  /** workspace state key: benchmark root → sample name */
  stateKey: string;
  /** "the tree": who falls back to the whole benchmark when the file cannot be read */
  view: string;
  /** a context key that says whether a sample is chosen */
  context?: string;
}

export class SampleChoice implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the sample chosen for the loaded benchmark changes. */
  readonly onDidChange = this.changed.event;
  private cached: { bench: Benchmark; name: string | undefined; state: SampleChoiceState } | undefined;
  private readonly warned = new Set<string>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly benchOf: () => Benchmark | undefined,
    private readonly opts: SampleChoiceOptions,
  ) {}

  private saved(): Record<string, string> {
    const v = this.state.get<unknown>(this.opts.stateKey);
    if (typeof v !== 'object' || v === null) return {};
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  /** The sample chosen for the loaded benchmark, if any (readable or not). */
  get name(): string | undefined {
    const bench = this.benchOf();
    return bench ? this.chosenFor(bench.root) : undefined;
  }

  /** The sample chosen for the benchmark at `root`, loaded or not. */
  chosenFor(root: string): string | undefined {
    return this.saved()[root];
  }

  /** The filter on the loaded benchmark, read once per benchmark load and choice. */
  current(): SampleChoiceState {
    const bench = this.benchOf();
    const name = this.name;
    if (!bench || !name) return { kind: 'none' };
    if (this.cached?.bench === bench && this.cached.name === name) return this.cached.state;
    let state: SampleChoiceState;
    try {
      const scope = loadSampleScope(bench, name);
      state = { kind: 'scope', scope };
      for (const p of scope.problems) this.warn(p);
    } catch (e) {
      state = { kind: 'unreadable', name, reason: (e as Error).message };
      this.warn(`${state.reason} (${this.opts.view} shows the whole benchmark)`);
    }
    this.cached = { bench, name, state };
    return state;
  }

  /** The users to show, when a readable sample is chosen. */
  scope(): SampleScope | undefined {
    const s = this.current();
    return s.kind === 'scope' ? s.scope : undefined;
  }

  async set(name: string | undefined): Promise<void> {
    const bench = this.benchOf();
    if (!bench || name === this.name) return;
    const saved = this.saved();
    if (name) saved[bench.root] = name;
    else delete saved[bench.root];
    await this.state.update(this.opts.stateKey, Object.keys(saved).length ? saved : undefined);
    // A sample chosen again is read again (its file may have been fixed), and warns again.
    this.cached = undefined;
    this.warned.clear();
    this.syncContext();
    log.info(`${this.opts.view}: ${name ? `on sample ${name}` : 'on the whole benchmark'}`);
    this.changed.fire();
  }

  /** Keeps the context key right after a load (another benchmark may have its own sample or none). */
  syncContext(): void {
    if (this.opts.context)
      void vscode.commands.executeCommand('setContext', this.opts.context, this.name !== undefined);
  }

  private warn(problem: string): void {
    if (this.warned.has(problem)) return;
    this.warned.add(problem);
    log.warn(`${this.opts.view}: ${problem}`);
    void vscode.window.showWarningMessage(`Persona Lab: ${problem}`);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
