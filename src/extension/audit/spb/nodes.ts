// The StreamProfileBench part of the PI Audit tree, below each category: platform → user → finding. A finding opens
// the file at its span. Dataset text reaches tooltips only through appendText (escaped).
import * as vscode from 'vscode';
import { readUserRecord } from '../../../core/spb/load';
import type { AuditFinding } from '../../../core/pi/audit';
import { CATEGORY_INFO } from '../../../core/pi/placeholders';
import { PLATFORM_LABELS } from '../../../core/spb/tables';
import type { StepRef } from '../../benchmarks/spb/store';
import { collapsedIf, markdown, namedTooltip, treeItem } from '../../treeItem';
import { findingItem, findingTooltip } from '../findingItem';
import { valueAt } from '../locate';
import { auditNodeId, contextAround, count } from '../model';
import type { AuditNode, AuditTreeContext, CategoryParent } from '../nodeTypes';
import { findingDescription, platformDescription, userDescription, type PlatformGroup, type UserGroup } from './model';

function sourceLabel(source: string): string {
  return source === 'tasks' ? 'tasks data' : `run ${source}`;
}

export class AuditPlatformNode implements AuditNode {
  private children: AuditUserNode[] | undefined;

  constructor(
    readonly parent: CategoryParent,
    readonly group: PlatformGroup,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { platform, users } = this.group;
    return treeItem({
      label: PLATFORM_LABELS[platform],
      state: collapsedIf(users.length > 0),
      id: auditNodeId.platform(this.parent.group.category, platform),
      contextValue: 'auditPlatform',
      icon: 'globe',
      description: platformDescription(this.group, this.parent.ctx.verdictOf),
    });
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
    return treeItem({
      label: this.group.userId,
      state: vscode.TreeItemCollapsibleState.Collapsed,
      id: auditNodeId.user(this.parent.parent.group.category, this.parent.group.platform, this.group.userId),
      contextValue: 'auditUser',
      icon: 'person',
      description: userDescription(this.group, this.ctx.verdictOf),
    });
  }

  getChildren(): FindingNode[] {
    this.children ??= this.group.findings.map((f) => new FindingNode(this, f));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const md = namedTooltip(this.group.userId, ` · ${PLATFORM_LABELS[this.parent.group.platform]}\n\n`);
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
    return findingItem(f, verdict, {
      id: auditNodeId.finding(f.key),
      contextValue: 'auditFinding',
      description,
      openTitle: 'Open Source',
      node: this,
    });
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
    return findingTooltip(
      f,
      this.ctx.verdictTrail,
      body,
      'Click to open the file at the span; right-click for the step view and verdicts.',
    );
  }

  /** The text around the span, for findings in the tasks data (re-read from the user's line); undefined for runs. */
  private context(): ReturnType<typeof contextAround> | undefined {
    const f = this.finding;
    if (f.run !== null) return undefined;
    const user = this.ctx.bench?.users.get(f.platform)?.get(f.userId);
    if (!user || user.ref.line !== f.line) return undefined;
    try {
      const value = valueAt(readUserRecord(user), f.field);
      return typeof value === 'string' && value.slice(f.start, f.end) === f.text
        ? contextAround(value, f.start, f.end)
        : undefined;
    } catch {
      return undefined;
    }
  }
}
