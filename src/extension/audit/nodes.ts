// The PI Audit tree's nodes and its root level: one node per category, holding each format's part below it
// (spb/nodes.ts: platform → user → finding; omni/nodes.ts: OmniBehavior → user → finding). Children are built on
// first expansion and kept; descriptions are computed in getTreeItem from the session's current verdicts, so a
// verdict only needs a refresh, not a rebuild.
import * as vscode from 'vscode';
import { CATEGORY_INFO, placeholderOf, type PiCategory } from '../../core/pi/placeholders';
import { markdown, treeItem } from '../treeItem';
import { auditNodeId, categoryDescription, count } from './model';
import type { AuditNode, AuditTreeContext, CategoryParent } from './nodeTypes';
import type { OmniCategoryGroup } from './omni/model';
import { OmniSourceNode } from './omni/nodes';
import type { CategoryGroup } from './spb/model';
import { AuditPlatformNode } from './spb/nodes';
export type { AuditNode, AuditTreeContext } from './nodeTypes';

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
    readonly ctx: AuditTreeContext,
    readonly group: CategoryGroup,
    /** The OmniBehavior benchmark's findings and placeholders of this category, if any. */
    readonly omni: OmniCategoryGroup | undefined = undefined,
  ) {}

  /** Whether the category shows anything (a platform or the OmniBehavior node). */
  get hasChildren(): boolean {
    return this.group.platforms.length > 0 || this.omni !== undefined;
  }

  getTreeItem(): vscode.TreeItem {
    const { category } = this.group;
    const findings: { key: string }[] = [...this.group.findings, ...(this.omni?.findings ?? [])];
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
      description: categoryDescription(
        { findings, placeholders: this.group.placeholders + (this.omni?.placeholders ?? 0) },
        this.ctx.verdictOf,
      ),
    });
  }

  getChildren(): AuditNode[] {
    if (!this.children) {
      const omni = this.omni && this.ctx.omni ? [new OmniSourceNode(this, this.ctx.omni, this.omni)] : [];
      this.children = [...this.group.platforms.map((p) => new AuditPlatformNode(this, p)), ...omni];
    }
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const { category } = this.group;
    const findings = [...this.group.findings, ...(this.omni?.findings ?? [])];
    const placeholders = this.group.placeholders + (this.omni?.placeholders ?? 0);
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
