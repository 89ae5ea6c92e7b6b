// What every open benchmark offers the features, whatever its format: load and reload, the runs and the selected
// one, the loader's diagnostics and its roots in the Benchmarks tree. Each format's folder implements it; a feature
// takes the open benchmark it serves, never a format.
import type * as vscode from 'vscode';
import type { Format } from '../../core/formats';
import type { Diagnostic } from '../../core/io/diagnostics';
import type { RootSource } from '../tree/roots';

export interface LoadedBench<R> {
  root: string;
  runs: ReadonlyMap<string, R>;
  diagnostics: readonly Diagnostic[];
}

/** What the caller of a load provides: how its progress shows, and the settings it reads. */
export interface LoadHost {
  /** Runs `task` while showing its progress; the task reports bytes done of total when its loader counts them. */
  progress<T>(title: string, task: (report: (done: number, total: number) => void) => Promise<T>): PromiseLike<T>;
  /** The run to select when none is (or the selected one is gone); undefined: the benchmark's first. */
  preferredRun(): string | undefined;
  /** Where the persistent index of the benchmark at `root` lives; undefined: read every file (the setting is off). */
  cacheDir(root: string): string | undefined;
}

export interface OpenBenchmark<
  R extends { name: string } = { name: string },
  B extends LoadedBench<R> = LoadedBench<R>,
  S = unknown,
>
  extends vscode.Disposable {
  readonly format: Format;
  readonly bench: B | undefined;
  readonly root: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
  readonly runName: string | undefined;
  readonly run: R | undefined;
  /** Score of the selected run (or a named one), computed once per load. */
  score(runName?: string): S | undefined;
  selectRun(name: string): Promise<void>;
  /** Loads one load after another; rejects when the target cannot be read at all (problems inside become diagnostics). */
  open(target: string): Promise<void>;
  /** Loads the last target again (no-op when nothing was opened). */
  reload(): Promise<void>;
  /** The target last opened (the first format's store remembers it across windows: Refresh, the next start). */
  readonly target: string | undefined;
  /** Resolves when the loads in progress (if any) are done. */
  ready(): Promise<void>;
  readonly isLoading: boolean;
  /** Fires after a (re)load and after the selected run changes. */
  readonly onDidChange: vscode.Event<void>;
  /** Fires true when a load starts and false when the last queued one ends. */
  readonly onDidChangeLoading: vscode.Event<boolean>;
  /** Its roots in the Benchmarks view. */
  readonly tree: RootSource;
}
