// What a PI Audit tree node is and what it sees, apart from the nodes themselves, so that the category level
// (nodes.ts) and each format's part below it (part.ts) import it without importing one another.
import type * as vscode from 'vscode';
import type { PiCategory } from '../../core/pi/placeholders';
import type { VerdictTrail } from './findingItem';
import type { VerdictOf } from './model';

/** What every node sees: the live verdicts. */
export interface FindingContext {
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
  readonly ctx: FindingContext;
  readonly group: { readonly category: PiCategory };
}
