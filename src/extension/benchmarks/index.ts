// The open benchmarks, one per format, and opening a target: the core's format registry says which formats it
// holds, and each one found loads into its open benchmark. A target that cannot be read becomes an error message;
// problems inside the files go to the Problems panel and the status bar count (problems.ts), without a toast.
// Progress and settings are read here, not in the stores.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { chooseCacheDir } from '../../core/cache/store';
import { FORMATS, omniRoot } from '../../core/formats';
import { summarize } from './locate';
import { log } from '../log';
import { watchOmni } from './omni/watch';
import { benchmarkProblems, problemsStatus } from './problems';
import { OmniStore } from './omni/store';
import { SpbStore } from './spb/store';
import { watchSpb } from './spb/watch';
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
    progress: (title, task) =>
      vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () =>
        vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, (progress) => {
          let last = 0;
          return task((done, total) => {
            const pct = total ? Math.floor((100 * done) / total) : 100;
            if (pct > last) {
              progress.report({ message: `${pct} %`, increment: pct - last });
              last = pct;
            }
          });
        }),
      ),
    preferredRun: () => vscode.workspace.getConfiguration('personaLab').get<string>('defaultRun'),
  };
}

function detected(target: string): Set<string> {
  const safe = (detect: () => boolean) => {
    try {
      return detect();
    } catch {
      return false; // an unreadable target: opening it as StreamProfileBench reports it
    }
  };
  return new Set(FORMATS.filter((f) => safe(() => f.detect(target))).map((f) => f.id));
}

export class Benchmarks implements vscode.Disposable {
  readonly spb: SpbStore;
  readonly omni: OmniStore;
  /** In the Benchmarks view's order. */
  readonly all: readonly OpenBenchmark[];
  /** The last target only another format than StreamProfileBench took (the StreamProfileBench store keeps its own). */
  private lastOtherTarget: string | undefined;

  constructor(state: vscode.Memento, host: LoadHost = windowLoadHost()) {
    this.spb = new SpbStore(state, host);
    this.omni = new OmniStore(state, host);
    this.all = [this.spb, this.omni];
  }

  /** Resolves when the loads in progress (of any benchmark) are done. */
  async ready(): Promise<void> {
    await Promise.all(this.all.map((b) => b.ready()));
  }

  /** What Refresh opens again: the StreamProfileBench target, else the last target another format took. */
  get refreshTarget(): string | undefined {
    return this.spb.target ?? this.lastOtherTarget;
  }

  /**
   * Opens every format `target` holds (a folder like sample/ holds both); StreamProfileBench also when none is
   * found, so that an unreadable target is reported. `quiet`: a reload of the StreamProfileBench benchmark after a
   * file change (without loading another format).
   */
  async open(target: string, quiet = false): Promise<boolean> {
    const formats = detected(target);
    if (formats.has('omnibehavior')) {
      if (!quiet) await this.openOmni(target);
      if (!formats.has('streamprofilebench')) {
        this.lastOtherTarget = target;
        return true;
      }
    }
    return this.openSpb(target, quiet);
  }

  private async openSpb(target: string, quiet: boolean): Promise<boolean> {
    try {
      await this.spb.open(target);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(`Persona Lab: cannot open ${target}: ${message}`);
      return false;
    }
    const problems = summarize(this.spb.diagnostics);
    if (problems && !quiet) log.info(`${target}: loaded with ${problems} (see the Problems panel)`);
    return true;
  }

  private async openOmni(target: string): Promise<void> {
    const root = omniRoot(target);
    if (!root) return;
    try {
      await this.omni.open(root);
    } catch (e) {
      void vscode.window.showErrorMessage(
        `Persona Lab: cannot open the OmniBehavior benchmark ${root}: ${e instanceof Error ? e.message : String(e)}`,
      );
      return;
    }
    const problems = summarize(this.omni.diagnostics);
    if (problems) log.info(`${root}: the OmniBehavior benchmark loaded with ${problems} (see the Problems panel)`);
  }

  dispose(): void {
    for (const b of this.all) b.dispose();
  }
}

/** The open benchmarks, with their diagnostics in the Problems panel, reloaded when their files change. */
export function activateBenchmarks(context: vscode.ExtensionContext): Benchmarks {
  const benchmarks = new Benchmarks(context.workspaceState, windowLoadHost(context.globalStorageUri.fsPath));
  context.subscriptions.push(
    benchmarks,
    benchmarkProblems(benchmarks.spb, 'personaLab', 'Persona Lab'),
    benchmarkProblems(benchmarks.omni, 'personaLab.omni', 'Persona Lab (OmniBehavior)'),
    problemsStatus(benchmarks.all),
    watchSpb(benchmarks),
    watchOmni(benchmarks.omni),
  );
  return benchmarks;
}
