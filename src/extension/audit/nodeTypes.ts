// What a PI Audit tree node is and what it sees, apart from the nodes themselves, so that the category level
// (nodes.ts) and each format's part below it (spb/nodes.ts, omni/nodes.ts) import it without importing one another.
import type * as vscode from 'vscode';
import type { AuditResult } from '../../core/pi/audit';
import type { OmniAuditResult } from '../../core/pi/omniAudit';
import type { PiCategory } from '../../core/pi/placeholders';
import type { Benchmark } from '../../core/spb/types';
import type { VerdictTrail } from './findingItem';
import type { VerdictOf } from './model';

export interface OmniAuditContext {
  result: OmniAuditResult;
  verdictOf: VerdictOf;
  verdictTrail: VerdictTrail;
}

/** What every node sees: the result the tree was built from, the benchmark it is about, and the live verdicts. */
export interface AuditTreeContext {
  /** undefined when only an OmniBehavior benchmark was audited */
  result: AuditResult | undefined;
  omni: OmniAuditContext | undefined;
  bench: Benchmark | undefined;
  verdictOf: VerdictOf;
  verdictTrail: VerdictTrail;
}

export interface AuditNode {
  readonly parent: AuditNode | undefined;
  getTreeItem(): vscode.TreeItem;
  getChildren(): AuditNode[];
  tooltip(): vscode.MarkdownString;
}

/** A category node (nodes.ts) as the nodes below it see it. */
export interface CategoryParent extends AuditNode {
  readonly ctx: AuditTreeContext;
  readonly group: { readonly category: PiCategory };
}
