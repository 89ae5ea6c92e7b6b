// What a format gives Compare Runs (its contribution's `compare`): the runs that can be compared, each with its
// headline figures for the picks, and its own view of B against A. What is paired and resampled is the format's
// (steps within users, questions within personas); the host (index.ts) keeps the command, the choice of benchmark
// and the two picks.
import type * as vscode from 'vscode';

/** A = the reference, B = compared against it. */
export interface RunPair {
  a: string;
  b: string;
}

export interface CompareRunChoice {
  run: string;
  /** the run's headline figures, shown beside its name in the picks */
  description: string;
  detail?: string;
}

export interface CompareHost {
  readonly extensionUri: vscode.Uri;
  readonly state: vscode.Memento;
}

/** Compare mode's badges in the Benchmarks tree: the items where B is worse than A, for the pair they are of. */
export interface CompareBadges {
  pair: RunPair;
  /** the item's path (as its row's compareBadgeUri, compare/badges.ts) → its badge's tooltip, e.g. "Recall −5.0 pp" */
  items: ReadonlyMap<string, string>;
  /** what one item is: "step", "question" (the log and the rows above say "3 step(s) regressed") */
  unit: string;
  /** the status bar item's tooltip: what is badged */
  explain: string;
}

export interface ComparePart extends vscode.Disposable {
  /** The runs of the open benchmark; empty when none is open. */
  runs(): CompareRunChoice[];
  /** The pair compared last (the picks preselect it), even if a run of it is gone. */
  readonly lastPair: RunPair | undefined;
  /** The run preselected as A without a last pair. */
  readonly selectedRun: string | undefined;
  /** Why B cannot be compared with A (they share no item), or undefined when it can. */
  problem?(pair: RunPair): string | undefined;
  /** Compares B with A and shows it. */
  show(pair: RunPair): Promise<void>;
  /**
   * Compare mode, when its tree rows can be badged: the badges of `pair`, which becomes the pair compared, or of the
   * pair compared now; undefined without one it can read.
   */
  badges?(pair?: RunPair): Promise<CompareBadges | undefined>;
  /** Fires when what `badges()` gives may have changed (another pair compared, a reload). */
  readonly onDidChangeBadges?: vscode.Event<unknown>;
}
