// What a format brings to the extension: its core descriptor, how its open benchmark is made, the context key
// package.json's `when` clauses read, its Problems panel collection and its file watch, and its parts of the generic
// features (the PI audit, labels). One per format folder, listed once in contributions.ts.
import type * as vscode from 'vscode';
import type { Format } from '../../core/formats';
import type { AuditPart } from '../audit/part';
import type { CompareHost, ComparePart } from '../compare/part';
import type { DashboardHost, DashboardPart } from '../dashboard/part';
import type { LabelHost, LabelPart } from '../labels/part';
import type { RerunHost, RerunPart } from '../rerun/part';
import type { LoadHost, OpenBenchmark } from './types';
import type { FeatureViews } from './views';
export type { FeatureViews } from './views';

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
  audit?(store: S, views: FeatureViews): AuditPart;
  /** Its re-runs from its own item view (the format's descriptor lists `rerun` among its capabilities). */
  rerun?(store: S, host: RerunHost): RerunPart;
  /**
   * Its own item view and the commands only its tree rows run (not contributed in package.json), made when the
   * benchmarks are (a format whose views are features of their own, wired in main.ts, leaves it out).
   */
  views?(store: S, context: vscode.ExtensionContext): vscode.Disposable;
}
