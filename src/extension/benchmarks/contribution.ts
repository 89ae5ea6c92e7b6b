// What a format brings to the extension: its core descriptor, how its open benchmark is made, the context key
// package.json's `when` clauses read, its Problems panel collection and its file watch, and its parts of the generic
// features (the PI audit, labels, dashboard, re-runs), and its own features with the commands that act on them.
// One per format folder, listed once in contributions.ts.
import type * as vscode from 'vscode';
import type { Format } from '../../core/formats';
import type { AuditPart } from '../audit/part';
import type { FormatCommands } from '../commands/command';
import type { CompareHost, ComparePart } from '../compare/part';
import type { DashboardHost, DashboardPart } from '../dashboard/part';
import type { ReadOnlyDocs } from '../docs';
import type { EndpointService } from '../endpoint';
import type { ExperimentsPart } from '../experiments/part';
import type { LabelHost, LabelPart } from '../labels/part';
import type { RerunHost, RerunPart } from '../rerun/part';
import type { TreeApi } from '../tree/api';
import type { LoadHost, OpenBenchmark } from './types';

/** What a watch uses of the open benchmarks: the open that reloads a target, quietly. */
export interface ReopenHost {
  open(target: string, quiet: boolean): Promise<boolean>;
}

export interface FormatContribution<S extends OpenBenchmark = OpenBenchmark> {
  readonly format: Format;
  /** Set to whether a benchmark of this format is open. */
  readonly contextKey: string;
  /** The Problems panel collection and the source its entries show. */
  readonly problems: { collection: string; source: string };
  create(state: vscode.Memento, host: LoadHost): S;
  /** What the store opens for a target this format detected (a folder may hold the format one level down). */
  rootOf(target: string): string | undefined;
  watch(store: S, host: ReopenHost): vscode.Disposable;
  /** Its part of the labels (what a label goes on, labelling in its views, its projects' items). */
  labels?(store: S, host: LabelHost): LabelPart;
  /** Its dashboard panel (tables and figures of its runs). */
  dashboard?(store: S, host: DashboardHost): DashboardPart;
  /** Its part of Compare Runs (what is paired, its view of run B against run A). */
  compare?(store: S, host: CompareHost): ComparePart;
  /** Its part of the PI audit (the format's descriptor lists `audit` among its capabilities). */
  audit?(store: S): AuditPart;
  /**
   * Its rows of the experiment log in the Experiments view; called after `views`, whose features may make them
   * (undefined when they did not).
   */
  experiments?(store: S): ExperimentsPart | undefined;
  /** Its re-runs from its own item view (the format's descriptor lists `rerun` among its capabilities). */
  rerun?(store: S, host: RerunHost): RerunPart;
  /**
   * Its own features: its item view, its tools, the commands only its tree rows run (registered by itself) and its
   * entries of the command table. Made before the generic features' parts, which find its item view by its store.
   */
  views?(store: S, context: vscode.ExtensionContext, host: FeatureHost): FormatFeatures;
}

/** The shared services a format's own features are made with. */
export interface FeatureHost {
  readonly tree: TreeApi;
  readonly docs: ReadOnlyDocs;
  readonly endpoint: EndpointService;
}

export interface FormatFeatures extends vscode.Disposable {
  /** Its entries of the command table (commands/ids.ts), made once the generic features exist. */
  readonly commands?: FormatCommands;
}
