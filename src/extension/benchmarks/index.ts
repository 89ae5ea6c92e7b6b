// The open benchmarks, one per format contribution (contributions.ts), and opening a target: each contribution's
// format says whether the target holds it, and each one found loads into its open benchmark. A target that cannot be read becomes an error message;
// problems inside the files go to the Problems panel and the status bar count (problems.ts), without a toast.
// Progress and settings are read here, not in the stores.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { chooseCacheDir } from '../../core/cache/store';
import { summarize } from './locate';
import { log } from '../log';
import type { FormatContribution } from './contribution';
import { CONTRIBUTIONS } from './contributions';
import { benchmarkProblems, problemsStatus } from './problems';
import type { LoadHost, OpenBenchmark } from './types';

/** The Benchmarks view, where loading also shows a progress bar. */
const VIEW_ID = 'personaLab.benchmarks';

/**
 * Loads show in the Benchmarks view and the status bar; personaLab.defaultRun is the run selected first. The index
 * goes in the benchmark's .personalab/index, or under `storage` when that folder cannot be written.
 */
export function windowLoadHost(storage?: string): LoadHost {
  return {
    cacheDir: (root) =>
      vscode.workspace.getConfiguration('personaLab').get<boolean>('index.enabled', true)
        ? chooseCacheDir(root, storage && join(storage, 'index'))
        : undefined,
    // The view's bar and the status bar both show how far the read is: a bar given increments fills as the read goes
    // instead of running the endless animation, which the workbench draws at every frame of the open.
    progress: (title, task) =>
      vscode.window.withProgress({ location: { viewId: VIEW_ID } }, (inView) =>
        vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, (progress) => {
          let last = 0;
          return task((done, total) => {
            const pct = total ? Math.floor((100 * done) / total) : 100;
            if (pct > last) {
              progress.report({ message: `${pct} %`, increment: pct - last });
              inView.report({ increment: pct - last });
              last = pct;
            }
          });
        }),
      ),
    preferredRun: () => vscode.workspace.getConfiguration('personaLab').get<string>('defaultRun'),
  };
}

/** The contributions whose format `target` holds, in list order. */
function detected(contributions: readonly FormatContribution[], target: string): FormatContribution[] {
  const safe = (detect: () => boolean) => {
    try {
      return detect();
    } catch {
      return false; // an unreadable target: opening it as the first format reports it
    }
  };
  return contributions.filter((c) => safe(() => c.format.detect(target)));
}

export class Benchmarks implements vscode.Disposable {
  /** Format id → its open benchmark. */
  private readonly byFormat = new Map<string, OpenBenchmark>();
  /** In the Benchmarks view's order. */
  readonly all: readonly OpenBenchmark[];
  /** The last target only another format than the first took (the first format's store keeps its own). */
  private lastOtherTarget: string | undefined;

  constructor(
    state: vscode.Memento,
    host: LoadHost = windowLoadHost(),
    readonly contributions: readonly FormatContribution[] = CONTRIBUTIONS,
  ) {
    for (const c of contributions) this.byFormat.set(c.format.id, c.create(state, host));
    this.all = [...this.byFormat.values()];
  }

  /** The open benchmark of a format id, if the extension serves that format. */
  get(formatId: string): OpenBenchmark | undefined {
    return this.byFormat.get(formatId);
  }

  /** The open benchmark a contribution made, typed as its store. */
  of<S extends OpenBenchmark>(contribution: FormatContribution<S>): S {
    // The map holds what contribution.create returned for this id (constructor).
    return this.byFormat.get(contribution.format.id) as S;
  }

  /** Resolves when the loads in progress (of any benchmark) are done. */
  async ready(): Promise<void> {
    await Promise.all(this.all.map((b) => b.ready()));
  }

  /** What Refresh opens again: the first format's target, else the last target another format took. */
  get refreshTarget(): string | undefined {
    return this.all[0]?.target ?? this.lastOtherTarget;
  }

  /**
   * Opens every format `target` holds (a folder like sample/ holds two); the first format also when none is found,
   * so that an unreadable target is reported. `quiet`: a reload of the first format's benchmark after a file change
   * (without loading another format).
   */
  async open(target: string, quiet = false): Promise<boolean> {
    const [first, ...others] = this.contributions;
    const found = detected(this.contributions, target);
    for (const c of others) if (found.includes(c) && !quiet) await this.openOther(c, target);
    if (found.length > 0 && !found.includes(first)) {
      this.lastOtherTarget = target;
      return true;
    }
    return this.openFirst(first, target, quiet);
  }

  private async openFirst(c: FormatContribution, target: string, quiet: boolean): Promise<boolean> {
    const store = this.of(c);
    try {
      await store.open(target);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(`Persona Lab: cannot open ${target}: ${message}`);
      return false;
    }
    const problems = summarize(store.diagnostics);
    if (problems && !quiet) log.info(`${target}: loaded with ${problems} (see the Problems panel)`);
    return true;
  }

  private async openOther(c: FormatContribution, target: string): Promise<void> {
    const root = c.rootOf(target);
    if (!root) return;
    const store = this.of(c);
    const label = c.format.label;
    try {
      await store.open(root);
    } catch (e) {
      void vscode.window.showErrorMessage(
        `Persona Lab: cannot open the ${label} benchmark ${root}: ${e instanceof Error ? e.message : String(e)}`,
      );
      return;
    }
    const problems = summarize(store.diagnostics);
    if (problems) log.info(`${root}: the ${label} benchmark loaded with ${problems} (see the Problems panel)`);
  }

  dispose(): void {
    for (const b of this.all) b.dispose();
  }
}

/** The open benchmarks, with their diagnostics in the Problems panel, reloaded when their files change. */
export function activateBenchmarks(
  context: vscode.ExtensionContext,
  contributions: readonly FormatContribution[] = CONTRIBUTIONS,
): Benchmarks {
  const benchmarks = new Benchmarks(
    context.workspaceState,
    windowLoadHost(context.globalStorageUri.fsPath),
    contributions,
  );
  context.subscriptions.push(benchmarks, problemsStatus(benchmarks.all));
  for (const c of benchmarks.contributions) {
    const store = benchmarks.of(c);
    context.subscriptions.push(
      benchmarkProblems(store, c.problems.collection, c.problems.source),
      c.watch(store, benchmarks),
    );
  }
  return benchmarks;
}
