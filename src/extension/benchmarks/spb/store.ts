// The open StreamProfileBench benchmark: its users and steps, the selected run and cached scores, and the target
// it was opened from (kept for the next session). Features listen to onDidChange.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import { streamProfileBench } from '../../../core/formats';
import { scoreRun, type RunScore } from '../../../core/spb/score/run';
import type { Benchmark, Platform, Run, Step, User } from '../../../core/spb/types';
import { BenchmarkSession, LoadSuperseded } from '../session';
import type { LoadHost } from '../types';
import { SpbRoots, type EarlyFigures } from './roots';
import type { StepRef } from './stepRef';
export type { StepRef } from './stepRef';
import { log } from '../../log';
import { heapLine, readHeap } from '../../heapLine';
import type { CacheReport } from '../../../core/spb/format/indexed';
import { COLD_LOAD_SCRIPT, ColdLoadStopped, type ColdLoad } from './coldLoad/inWorker';
import { EARLY_FIGURES_FROM, writeIndexInWorker } from './coldLoad/indexFirst';
import { benchFromSummary, type FiguresSummary } from '../../../core/spb/format/figuresSummary';

const RUN_KEY = 'personaLab.selectedRun';
const TARGET_KEY = 'personaLab.openedTarget';

/**
 * Writes the index after the open, one file per turn of the event loop, so that the open does not wait for it.
 * Started once the load is announced, so the tree's first figures are computed before the first write. `done` runs
 * after the last write (at once when there is none), unless the rest was written at once by what this returns: the
 * next load reads the index this one wrote, never half of it.
 */
function writeLater(writes: (() => void)[], report: CacheReport, done: () => void): () => void {
  const started = Date.now();
  const total = writes.length;
  const one = (): boolean => {
    const write = writes.shift();
    if (!write) return false;
    try {
      write();
    } catch (err) {
      log.warn(`index: a write failed (${(err as Error).message}); the next open reads that file again`);
    }
    if (writes.length === 0) {
      const failed = report.writeError ? `; not written: ${report.writeError}` : '';
      log.info(`index: ${total} file(s) in ${Date.now() - started} ms${failed}`);
    }
    return true;
  };
  let finished = false;
  const next = () => {
    if (one()) setImmediate(next);
    else if (!finished) {
      finished = true;
      done();
    }
  };
  setImmediate(next);
  return () => {
    finished = true;
    while (one());
  };
}

function logDelays(delays: ELDHistogram, root: string): void {
  delays.disable();
  const ms = (ns: number) => Math.round(ns / 1e6);
  log.info(
    `event loop: longest delay ${ms(delays.max)} ms during the open of ${root} (99th percentile ${ms(delays.percentile(99))} ms)`,
  );
}

export class SpbStore extends BenchmarkSession<Benchmark, Run, RunScore> {
  readonly format = streamProfileBench;
  private earlyFigures: EarlyFigures | undefined;
  private readonly earlyChanged = new vscode.EventEmitter<void>();
  /** Fires when the early figures (see `early`) come or go without a load's change. Declared before the tree's roots. */
  readonly onDidChangeEarly = this.earlyChanged.event;
  readonly tree = new SpbRoots(this, this.state);
  /** The last load's index writes, started after its change event (see loaded()). */
  private indexWrites: { writes: (() => void)[]; report: CacheReport } | undefined;
  /** Writes what is left of the previous load's index at once. */
  private flushIndex = () => {};
  /** The worker writing the index of the load in progress, if any (coldLoad/). */
  private coldLoad: ColdLoad | undefined;
  /** The event loop's delays from the start of the load in progress until its index is written. */
  private delays: ELDHistogram | undefined;

  /**
   * `coldLoadScript`: the index worker's bundle (the tests give one they built); `earlyFrom`: from how many bytes a
   * folder new to its index shows its figures first (the tests make the sample one).
   */
  constructor(
    state: vscode.Memento,
    host: LoadHost,
    private readonly coldLoadScript = join(__dirname, COLD_LOAD_SCRIPT),
    private readonly earlyFrom = EARLY_FIGURES_FROM,
  ) {
    super(state, host, { runKey: RUN_KEY, loadTitle: 'Persona Lab: loading benchmark', scoreOf: scoreRun });
  }

  /** A newer open stops the index worker of the load in progress: that load ends without a change. */
  override open(target: string): Promise<void> {
    this.coldLoad?.stop(`a newer open of ${target}`);
    return super.open(target);
  }

  override dispose(): void {
    this.coldLoad?.stop('the extension was deactivated');
    this.earlyChanged.dispose();
    super.dispose();
  }

  /**
   * The figures the index worker posted from its first read of a folder new to its index, until the open that
   * asked for them ends: the tree shows them meanwhile. Only while no benchmark of that folder is loaded (a reload
   * keeps showing the benchmark it reloads).
   */
  get early(): EarlyFigures | undefined {
    return this.earlyFigures;
  }

  private showEarly(target: string, summary: FiguresSummary, ms: number): void {
    if (this.benchmark?.root === summary.root) return;
    const bench = benchFromSummary(summary);
    this.earlyFigures = { bench, run: this.runIn(bench) };
    log.info(`the index worker read the figures of ${target} in ${ms} ms; reading its users for the index`);
    this.earlyChanged.fire();
  }

  private dropEarly(): void {
    if (!this.earlyFigures) return;
    this.earlyFigures = undefined;
    this.earlyChanged.fire();
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
  override get target(): string | undefined {
    return this.openedTarget ?? this.state.get<string>(TARGET_KEY);
  }

  protected async loadBench(target: string, onProgress: (done: number, total: number) => void): Promise<Benchmark> {
    this.flushIndex();
    this.delays?.disable();
    this.delays = monitorEventLoopDelay({ resolution: 10 });
    this.delays.enable();
    try {
      const worker = await writeIndexInWorker(target, {
        cacheDir: (root) => this.host.cacheDir(root),
        script: this.coldLoadScript,
        onProgress,
        onFigures: (summary, ms) => this.showEarly(target, summary, ms),
        earlyFrom: this.earlyFrom,
        started: (load) => (this.coldLoad = load),
      });
      if (worker.failed) log.warn(worker.line);
      else log.info(worker.line);
    } catch (err) {
      this.dropEarly();
      if (err instanceof ColdLoadStopped) {
        log.info(`the load of ${target} was stopped: ${err.message}`);
        throw new LoadSuperseded(err.message);
      }
      throw err;
    } finally {
      this.coldLoad = undefined;
    }
    try {
      return await this.loadHere(target, onProgress);
    } catch (err) {
      this.dropEarly();
      throw err;
    }
  }

  /** Loads on this thread: from the index the worker wrote, or reading the files when there is none. */
  private async loadHere(target: string, onProgress: (done: number, total: number) => void): Promise<Benchmark> {
    const report: CacheReport = { hits: 0, appended: 0, read: 0 };
    const cacheDir = (root: string) => this.host.cacheDir(root);
    const writes: (() => void)[] = [];
    const deferIndexWrites = (write: () => void) => writes.push(write);
    const loaded = await streamProfileBench.load(target, {
      onProgress,
      cacheDir,
      cacheReport: report,
      deferIndexWrites,
      betweenFiles: () => new Promise((resolve) => setImmediate(resolve)),
    });
    this.indexWrites = { writes, report };
    const where = cacheDir(loaded.bench.root);
    log.info(
      where
        ? `index ${where}: ${report.hits} file(s) from the index, ${report.appended} read from their old end, ${report.read} read in full`
        : `index off (personaLab.index.enabled): ${report.read} file(s) read in full`,
    );
    return loaded.bench;
  }

  protected firstRun(bench: Benchmark): string | undefined {
    const preferred = this.host.preferredRun();
    return preferred && bench.runs.has(preferred) ? preferred : bench.runs.keys().next().value;
  }

  protected override async loaded(target: string, bench: Benchmark, ms: number): Promise<void> {
    // The change the session fires next rebuilds the tree over the loaded benchmark.
    this.earlyFigures = undefined;
    await this.state.update(TARGET_KEY, target);
    let users = 0;
    let steps = 0;
    for (const m of bench.users.values()) {
      users += m.size;
      for (const u of m.values()) steps += u.steps.length;
    }
    log.info(`loaded ${bench.root}: ${users} users, ${steps} steps, ${bench.runs.size} run(s) in ${ms} ms`);
    // The session fires the change in the microtask after this returns: an immediate runs after its listeners.
    const index = this.indexWrites;
    this.indexWrites = undefined;
    // The open is over once its index is written: what the extension host then keeps is the open's memory.
    const delays = this.delays;
    this.delays = undefined;
    const heap = () => {
      log.info(heapLine(`after the open of ${bench.root}`, readHeap()));
      // How long other extensions waited for the extension host's thread during the open (the bench reads it). Read
      // after the monitor's next tick, which records the stretch that ends here.
      if (delays) setTimeout(() => logDelays(delays, bench.root), 20);
    };
    if (index) this.flushIndex = writeLater(index.writes, index.report, heap);
  }
}
