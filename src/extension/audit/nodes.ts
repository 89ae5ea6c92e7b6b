// The PI Audit tree's root level: one node per category, holding each audited benchmark's part below it (its
// format's AuditPart gives the rows: platform → user → finding, or the benchmark → user → finding). Children are
// built on first expansion and kept; descriptions are computed in getTreeItem from the session's current verdicts,
// so a verdict only needs a refresh, not a rebuild.
import * as vscode from 'vscode';
import { CATEGORY_INFO, placeholderOf, type PiCategory } from '../../core/pi/placeholders';
import { markdown, treeItem } from '../treeItem';
import { auditNodeId, categoryDescription, count } from './model';
import type { AuditNode, CategoryParent, FindingContext } from './nodeTypes';
import type { CategoryPart } from './part';
export type { AuditNode } from './nodeTypes';

const CATEGORY_ICON: Record<PiCategory, string> = {
  PHONE: 'device-mobile',
  ID: 'account',
  BANK: 'credit-card',
  EMAIL: 'mail',
  CONTACT: 'comment-discussion',
  PLATE: 'milestone',
  IP: 'server-environment',
  GEO: 'location',
  DEVICE: 'chip',
  SELF: 'person',
};

export class CategoryNode implements CategoryParent {
  readonly parent = undefined;
  private children: AuditNode[] | undefined;

  constructor(
    readonly ctx: FindingContext,
    readonly group: { readonly category: PiCategory },
    /** Each audited benchmark's findings and placeholders of this category, in the Benchmarks view's order. */
    readonly parts: readonly CategoryPart[],
  ) {}

  /** Whether the category shows anything (a row of some benchmark's part). */
  get hasChildren(): boolean {
    return this.parts.some((p) => p.hasRows);
  }

  private get findings(): { key: string }[] {
    return this.parts.flatMap((p) => p.findings);
  }

  private get placeholders(): number {
    return this.parts.reduce((n, p) => n + p.placeholders, 0);
  }

  getTreeItem(): vscode.TreeItem {
    const { category } = this.group;
    const findings = this.findings;
    const state = !this.hasChildren
      ? vscode.TreeItemCollapsibleState.None
      : findings.length
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed;
    // Orange while something is open (not a false positive) in the category.
    const open = findings.some((f) => this.ctx.verdictOf(f.key) !== 'false-positive');
    return treeItem({
      label: CATEGORY_INFO[category].label,
      state,
      id: auditNodeId.category(category),
      contextValue: 'auditCategory',
      icon: CATEGORY_ICON[category],
      color: open ? 'charts.orange' : undefined,
      description: categoryDescription({ findings, placeholders: this.placeholders }, this.ctx.verdictOf),
    });
  }

  getChildren(): AuditNode[] {
    this.children ??= this.parts.flatMap((p) => p.rows(this));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const { category } = this.group;
    const findings = this.findings;
    const placeholders = this.placeholders;
    const md = markdown();
    md.appendMarkdown(`**${CATEGORY_INFO[category].label}** · placeholder `);
    md.appendText(placeholderOf(category));
    md.appendMarkdown(`\n\n${CATEGORY_INFO[category].description}\n\n`);
    md.appendMarkdown(
      `${count(findings.length, 'residual finding')} · ${count(placeholders, 'placeholder')} (already redacted)`,
    );
    return md;
  }
}
