// One node class per level of the PI Audit tree: category → platform → user → finding. Children are built on first
// expansion and kept; descriptions are computed in getTreeItem from the session's current verdicts, so a verdict
// only needs a refresh, not a rebuild. Dataset text reaches tooltips only through appendText (escaped).
import * as vscode from 'vscode';
import { readUserRecord } from '../../core/spb/load';
import type { AuditFinding, AuditResult } from '../../core/pi/audit';
import { CATEGORY_INFO, placeholderOf, type PiCategory } from '../../core/pi/placeholders';
import { PLATFORM_LABELS } from '../../core/spb/tables';
import type { Benchmark } from '../../core/spb/types';
import type { StepRef } from '../benchmarks/spb/store';
import { findingItem, findingTooltip, markdown, type VerdictTrail } from './findingItem';
import { valueAt } from './locate';
import type { OmniCategoryGroup } from './omniModel';
import { OmniSourceNode, type OmniAuditContext } from './omniNodes';
import {
  auditNodeId,
  categoryDescription,
  contextAround,
  count,
  findingDescription,
  platformDescription,
  userDescription,
  type CategoryGroup,
  type PlatformGroup,
  type UserGroup,
  type VerdictOf,
} from './model';

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

function sourceLabel(source: string): string {
  return source === 'tasks' ? 'tasks data' : `run ${source}`;
}

export class CategoryNode implements AuditNode {
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
    const item = new vscode.TreeItem(CATEGORY_INFO[category].label, state);
    item.id = auditNodeId.category(category);
    item.contextValue = 'auditCategory';
    // Orange while something is open (not a false positive) in the category.
    const open = findings.some((f) => this.ctx.verdictOf(f.key) !== 'false-positive');
    item.iconPath = new vscode.ThemeIcon(CATEGORY_ICON[category], open ? new vscode.ThemeColor('charts.orange') : undefined);
    item.description = categoryDescription({ findings, placeholders: this.group.placeholders + (this.omni?.placeholders ?? 0) }, this.ctx.verdictOf);
    return item;
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
    md.appendMarkdown(`${count(findings.length, 'residual finding')} · ${count(placeholders, 'placeholder')} (already redacted)`);
    return md;
  }
}

export class AuditPlatformNode implements AuditNode {
  private children: AuditUserNode[] | undefined;

  constructor(
    readonly parent: CategoryNode,
    readonly group: PlatformGroup,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { platform, users } = this.group;
    const item = new vscode.TreeItem(
      PLATFORM_LABELS[platform],
      users.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = auditNodeId.platform(this.parent.group.category, platform);
    item.contextValue = 'auditPlatform';
    item.iconPath = new vscode.ThemeIcon('globe');
    item.description = platformDescription(this.group, this.parent.ctx.verdictOf);
    return item;
  }

  getChildren(): AuditUserNode[] {
    this.children ??= this.group.users.map((u) => new AuditUserNode(this, u));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const { platform, counts } = this.group;
    const md = markdown();
    md.appendMarkdown(`**${PLATFORM_LABELS[platform]}** · ${CATEGORY_INFO[this.parent.group.category].label}\n\n`);
    md.appendMarkdown('| source | placeholders | findings |\n|---|---:|---:|\n');
    for (const s of counts.bySource) {
      md.appendMarkdown('| ');
      md.appendText(sourceLabel(s.source));
      md.appendMarkdown(` | ${s.placeholders} | ${s.findings} |\n`);
    }
    return md;
  }
}

export class AuditUserNode implements AuditNode {
  private children: FindingNode[] | undefined;

  constructor(
    readonly parent: AuditPlatformNode,
    readonly group: UserGroup,
  ) {}

  get ctx(): AuditTreeContext {
    return this.parent.parent.ctx;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.group.userId, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = auditNodeId.user(this.parent.parent.group.category, this.parent.group.platform, this.group.userId);
    item.contextValue = 'auditUser';
    item.iconPath = new vscode.ThemeIcon('person');
    item.description = userDescription(this.group, this.ctx.verdictOf);
    return item;
  }

  getChildren(): FindingNode[] {
    this.children ??= this.group.findings.map((f) => new FindingNode(this, f));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const md = markdown();
    md.appendMarkdown('**');
    md.appendText(this.group.userId);
    md.appendMarkdown(`** · ${PLATFORM_LABELS[this.parent.group.platform]}\n\n`);
    const user = this.ctx.bench?.users.get(this.parent.group.platform)?.get(this.group.userId);
    if (user) {
      md.appendText(`${user.username || '(no username)'} · ${count(user.steps.length, 'step')}`);
      md.appendMarkdown('\n\n');
    }
    md.appendMarkdown(count(this.group.findings.length, 'finding'));
    return md;
  }
}

/** Carries the StepRef fields of its step (the user's first step for a bio), for personaLab.openStep. */
export class FindingNode implements AuditNode {
  constructor(
    readonly parent: AuditUserNode,
    readonly finding: AuditFinding,
  ) {}

  get ctx(): AuditTreeContext {
    return this.parent.ctx;
  }

  /** The step to open: the finding's, or the user's first for a bio; undefined when the user is not loaded. */
  get stepRef(): StepRef | undefined {
    const f = this.finding;
    if (f.stepId !== null) return { platform: f.platform, userId: f.userId, stepId: f.stepId };
    const first = this.ctx.bench?.users.get(f.platform)?.get(f.userId)?.steps[0];
    return first ? { platform: f.platform, userId: f.userId, stepId: first.stepId } : undefined;
  }

  getTreeItem(): vscode.TreeItem {
    const f = this.finding;
    const verdict = this.ctx.verdictOf(f.key);
    const description = findingDescription(f, verdict);
    return findingItem(f, verdict, { id: auditNodeId.finding(f.key), contextValue: 'auditFinding', description, openTitle: 'Open Source', node: this });
  }

  getChildren(): AuditNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    const f = this.finding;
    const body = (md: vscode.MarkdownString) => {
      const context = this.context();
      if (!context) return void md.appendText(f.text);
      const oneLine = (s: string) => s.replace(/\s+/g, ' ');
      md.appendText(oneLine(context.before));
      md.appendMarkdown('**');
      md.appendText(oneLine(context.match));
      md.appendMarkdown('**');
      md.appendText(oneLine(context.after));
    };
    return findingTooltip(f, this.ctx.verdictTrail, body, 'Click to open the file at the span; right-click for the step view and verdicts.');
  }

  /** The text around the span, for findings in the tasks data (re-read from the user's line); undefined for runs. */
  private context(): ReturnType<typeof contextAround> | undefined {
    const f = this.finding;
    if (f.run !== null) return undefined;
    const user = this.ctx.bench?.users.get(f.platform)?.get(f.userId);
    if (!user || user.ref.line !== f.line) return undefined;
    try {
      const value = valueAt(readUserRecord(user), f.field);
      return typeof value === 'string' && value.slice(f.start, f.end) === f.text ? contextAround(value, f.start, f.end) : undefined;
    } catch {
      return undefined;
    }
  }
}
