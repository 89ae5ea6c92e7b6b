// What a format brings to the extension: its core descriptor, how its open benchmark is made, the context key
// package.json's `when` clauses read, its Problems panel collection and its file watch, and its parts of the generic
// features (the PI audit, labels). One per format folder, listed once in contributions.ts.
import type * as vscode from 'vscode';
import type { Format } from '../../core/formats';
import type { AuditPart } from '../audit/part';
import type { LabelService } from '../labels/service';
import type { StepViews } from '../stepView/views';
import type { TracePanel } from '../traceView/panel';
import type { LoadHost, OpenBenchmark } from './types';

/** The item views the extension has, which a format's parts open items in (each part takes the one it uses). */
export interface FeatureViews {
  readonly steps?: StepViews;
  readonly trace?: TracePanel;
}

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
  /**
   * What the labels feature shows of this format beyond the built-in step and trace views (labels/index.ts wires
   * those two): e.g. badges in its tree. Called once, when the label service exists.
   */
  withLabels?(store: S, labels: LabelService): vscode.Disposable;
  /** Its part of the PI audit (the format's descriptor lists `audit` among its capabilities). */
  audit?(store: S, views: FeatureViews): AuditPart;
}
