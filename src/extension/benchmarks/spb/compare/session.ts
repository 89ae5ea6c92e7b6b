// The pair of runs being compared (A = baseline, B = candidate), shared by the compare view, the tree's compare
// mode badges and the status bar item; the comparison and the paired summaries are computed once per load and pair.
import * as vscode from 'vscode';
import type { PairedSummaryRow, Scope } from '../../../../core/spb/score/pairedSummary';
import { comparePairedBootstrap } from '../../../../core/spb/view/compare';
import { compareRuns, mergeComparisons, type RunComparison } from '../../../../core/spb/score/runCompare';
import { PLATFORMS } from '../../../../core/spb/types';
import type { Benchmark } from '../../../../core/spb/types';
import type { SpbStore } from '../store';
import { RESAMPLES } from './model';
import type { RunPair } from '../../../compare/part';
import { log } from '../../../log';

const PAIR_KEY = 'personaLab.compare.pair';

interface Entry {
  bench: Benchmark;
  pair: RunPair;
  cmp: Promise<RunComparison>;
  summaries: Map<Scope, Promise<PairedSummaryRow[]>>;
}

/** Resamples per turn of the event loop: about 30-60 ms at paper scale (7,451 users). */
const CHUNK = 100;

export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export type { RunPair };

export class CompareSession implements vscode.Disposable {
  private current: RunPair | undefined;
  private cached: Entry | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the pair changes or the benchmark is reloaded. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly store: SpbStore,
    private readonly state: vscode.Memento,
  ) {
    this.current = state.get<RunPair>(PAIR_KEY);
    let bench = store.bench;
    // The store fires on a reload and on a change of the selected run; only a reload changes the comparison.
    this.disposables.push(
      store.onDidChange(() => {
        if (store.bench === bench) return;
        bench = store.bench;
        this.cached = undefined;
        this.changed.fire();
      }),
    );
  }

  /** The pair when both runs exist in the loaded benchmark. */
  get pair(): RunPair | undefined {
    const runs = this.store.bench?.runs;
    const p = this.current;
    return p && runs?.has(p.a) && runs.has(p.b) ? p : undefined;
  }

  /** The remembered pair even if a run is missing now (to preselect the quick picks). */
  get lastPair(): RunPair | undefined {
    return this.current;
  }

  async setPair(pair: RunPair): Promise<void> {
    this.current = { a: pair.a, b: pair.b };
    this.cached = undefined;
    await this.state.update(PAIR_KEY, this.current);
    this.changed.fire();
  }

  private entry(): Entry | undefined {
    const bench = this.store.bench;
    const pair = this.pair;
    if (!bench || !pair) return undefined;
    const c = this.cached;
    if (c && c.bench === bench && c.pair.a === pair.a && c.pair.b === pair.b) return c;
    // Computed on a later turn of the event loop, so that a caller's own work (a render, a message) goes first.
    const cmp = (async () => {
      const started = Date.now();
      const parts: RunComparison[] = [];
      for (const platform of PLATFORMS) {
        await tick();
        parts.push(compareRuns(bench, bench.runs.get(pair.a)!, bench.runs.get(pair.b)!, [platform]));
      }
      const result = mergeComparisons(parts);
      log.info(`compare: ${pair.a} vs ${pair.b}: ${result.steps.length} paired step(s) in ${Date.now() - started} ms`);
      return result;
    })();
    this.cached = { bench, pair, cmp, summaries: new Map() };
    return this.cached;
  }

  /** The comparison of the current pair (computed once per load and pair); undefined without a pair. */
  async comparison(): Promise<RunComparison | undefined> {
    return this.entry()?.cmp;
  }

  /** The paired summary of a scope; the bootstrap runs in chunks that yield to the event loop between them. */
  async summary(scope: Scope): Promise<PairedSummaryRow[] | undefined> {
    const e = this.entry();
    if (!e) return undefined;
    let s = e.summaries.get(scope);
    if (!s) {
      s = e.cmp.then(async (cmp) => {
        const started = Date.now();
        const boot = comparePairedBootstrap(cmp, scope);
        while (!boot.run(CHUNK)) await tick();
        const rows = boot.result();
        log.debug(`compare: paired summary (${scope}, ${RESAMPLES} resamples) in ${Date.now() - started} ms`);
        return rows;
      });
      e.summaries.set(scope, s);
    }
    return s;
  }

  dispose(): void {
    this.changed.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
