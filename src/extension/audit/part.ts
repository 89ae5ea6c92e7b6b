// What a format gives the PI Audit view (its contribution's `audit`): how its open benchmark is audited, how many bytes
// that reads (for the auto-run's size limit), and its rows under each category. The session, the tree's category
// and summary rows, the verdicts and the report are the same for every format (session.ts, nodes.ts, commands.ts).
import type * as vscode from 'vscode';
import type { PiCategory } from '../../core/pi/placeholders';
import type { AnyCountRow, ReportableFinding, ReportableResult } from '../../core/pi/report';
import type { Confidence } from '../../core/pi/types';
import type { VerdictTarget } from '../../core/pi/verdicts';
import type { AuditNode, CategoryParent, FindingContext } from './nodeTypes';

/** A benchmark's audit, whatever its format: its findings are reported and take verdicts. */
export type AnyAuditResult = ReportableResult<ReportableFinding & VerdictTarget, AnyCountRow>;

export interface AuditRunOptions {
  signal: AbortSignal;
  minConfidence: Confidence;
  onProgress: (done: number, total: number) => void;
}

/** One category of one benchmark's audit: what the category row counts, and the rows below it. */
export interface CategoryPart {
  findings: readonly { key: string }[];
  placeholders: number;
  /** Whether it shows a row under the category (counts alone may show one: a platform with placeholders). */
  readonly hasRows: boolean;
  rows(parent: CategoryParent): AuditNode[];
}

/** What the session offers a format's part: its latest result, and whether the benchmark changed since. */
export interface AuditResults<R extends AnyAuditResult = AnyAuditResult> {
  /** undefined before the first audit of this benchmark, or when the last audit did not include it. */
  result(): R | undefined;
  /** The open benchmark is not the one the result is about (reloaded, or another one opened). */
  stale(): boolean;
  readonly onDidChange: vscode.Event<void>;
}

/** What a part's `attach` made (its item view's source of findings), kept while attached: its rows open findings there. */
export class Attached<T extends { dispose(): void }> {
  private value: T | undefined;

  get current(): T | undefined {
    return this.value;
  }

  /** Keeps `made` until the returned disposable is disposed (which disposes it); nothing to keep when undefined. */
  attach(made: T | undefined): vscode.Disposable {
    if (!made) return { dispose: () => undefined };
    this.value = made;
    return {
      dispose: () => {
        if (this.value === made) this.value = undefined;
        made.dispose();
      },
    };
  }
}

export interface AuditPart<R extends AnyAuditResult = AnyAuditResult> {
  /** The loaded data an audit reads: a new object after each load (so a result of an older one is stale). */
  loaded(): object | undefined;
  /** Bytes an audit of the loaded data reads. */
  bytes(): number;
  /** Audits the loaded data (the session calls it only while `loaded()` is defined). */
  run(opts: AuditRunOptions): Promise<R>;
  /** Its part of one category; undefined when it has nothing of that category. */
  category(result: R, category: PiCategory, ctx: FindingContext): CategoryPart | undefined;
  /** Shows the results elsewhere too (its item view lists the findings in the item it shows). */
  attach?(results: AuditResults<R>): vscode.Disposable;
}
