// The OmniBehavior part of the PI Audit tree: under each category an "OmniBehavior" node (the benchmark's findings
// and placeholders of that category, per part), then users, then findings. A finding opens the trace view at its
// test action with its history record revealed (findingTraceTarget), or the raw file at its line when it belongs to
// no test action. Dataset text reaches tooltips only through appendText (escaped).
import * as vscode from 'vscode';
import type { OmniAuditFinding } from '../../../core/pi/omniAudit';
import { CATEGORY_INFO } from '../../../core/pi/placeholders';
import { collapsedIf, markdown, namedTooltip, treeItem } from '../../treeItem';
import { findingItem, findingTooltip } from '../findingItem';
import { count, tallyText, tally } from '../model';
import { omniFindingDescription, type OmniCategoryGroup, type OmniUserGroup } from './model';
import type { AuditNode, OmniAuditContext } from '../nodeTypes';

export class OmniSourceNode implements AuditNode {
  private children: OmniAuditUserNode[] | undefined;

  constructor(
    readonly parent: AuditNode,
    readonly ctx: OmniAuditContext,
    readonly group: OmniCategoryGroup,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const g = this.group;
    return treeItem({
      label: 'OmniBehavior',
      state: collapsedIf(g.users.length > 0),
      id: `pi/${g.category}/omnibehavior`,
      contextValue: 'auditOmni',
      icon: 'pulse',
      description: `${tallyText(tally(g.findings, this.ctx.verdictOf))} · ${count(g.placeholders, 'placeholder')}`,
    });
  }

  getChildren(): OmniAuditUserNode[] {
    this.children ??= this.group.users.map((u) => new OmniAuditUserNode(this, u));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const md = markdown();
    md.appendMarkdown(`**OmniBehavior** · `);
    md.appendText(`${this.group.benchmark} · ${CATEGORY_INFO[this.group.category].label}`);
    md.appendMarkdown('\n\n| source | part | placeholders | findings |\n|---|---|---:|---:|\n');
    for (const s of this.group.bySource) {
      md.appendMarkdown('| ');
      md.appendText(s.source === 'raw' ? 'raw files' : `run ${s.source}`);
      md.appendMarkdown(` | ${s.part} | ${s.placeholders} | ${s.findings} |\n`);
    }
    return md;
  }
}

export class OmniAuditUserNode implements AuditNode {
  private children: OmniFindingNode[] | undefined;

  constructor(
    readonly parent: OmniSourceNode,
    readonly group: OmniUserGroup,
  ) {}

  getTreeItem(): vscode.TreeItem {
    return treeItem({
      label: this.group.userId,
      state: vscode.TreeItemCollapsibleState.Collapsed,
      id: `pi/${this.parent.group.category}/omnibehavior/${this.group.userId}`,
      contextValue: 'auditUser',
      icon: 'person',
      description: tallyText(tally(this.group.findings, this.parent.ctx.verdictOf)),
    });
  }

  getChildren(): OmniFindingNode[] {
    this.children ??= this.group.findings.map((f) => new OmniFindingNode(this, f));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    return namedTooltip(this.group.userId, ` · OmniBehavior\n\n${count(this.group.findings.length, 'finding')}`);
  }
}

export class OmniFindingNode implements AuditNode {
  constructor(
    readonly parent: OmniAuditUserNode,
    readonly finding: OmniAuditFinding,
  ) {}

  get ctx(): OmniAuditContext {
    return this.parent.parent.ctx;
  }

  getTreeItem(): vscode.TreeItem {
    const f = this.finding;
    const verdict = this.ctx.verdictOf(f.key);
    const description = omniFindingDescription(f, verdict);
    return findingItem(f, verdict, {
      id: `pi-finding/${f.key}`,
      contextValue: 'auditTraceFinding',
      description,
      openTitle: 'Open in the Trace View',
      node: this,
    });
  }

  getChildren(): AuditNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    const f = this.finding;
    const hint =
      f.testAction === null
        ? 'Click to open the file at the line.'
        : 'Click to open the trace at the test action, the record revealed.';
    return findingTooltip(f, this.ctx.verdictTrail, (md) => md.appendText(f.text), hint);
  }
}
