// The OmniBehavior part of the PI Audit tree: under each category an "OmniBehavior" node (the benchmark's findings
// and placeholders of that category, per part), then users, then findings. A finding opens the trace view at its
// test action with its history record revealed (findingTraceTarget), or the raw file at its line when it belongs to
// no test action. Dataset text reaches tooltips only through appendText (escaped).
import * as vscode from 'vscode';
import type { OmniAuditFinding, OmniAuditResult } from '../../core/pi/omniAudit';
import { CATEGORY_INFO } from '../../core/pi/placeholders';
import type { Confidence } from '../../core/pi/types';
import { VERDICT_LABELS, type Verdict } from '../../core/pi/verdicts';
import { count, displayText, hasInvisible, tallyText, tally, VERDICT_TEXT, type VerdictOf } from './model';
import { omniFindingDescription, type OmniCategoryGroup, type OmniUserGroup } from './omniModel';
import type { AuditNode } from './nodes';

export interface OmniAuditContext {
  result: OmniAuditResult;
  verdictOf: VerdictOf;
  verdictTrail: (key: string) => { verdict: Verdict; author: string; createdAt: string } | undefined;
}

function markdown(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

const VERDICT_ICON: Record<Verdict, [icon: string, color: string]> = {
  'confirmed-leak': ['flame', 'charts.red'],
  'false-positive': ['circle-slash', 'disabledForeground'],
  'needs-review': ['eye', 'charts.blue'],
};
const CONFIDENCE_COLOR: Record<Confidence, string> = { high: 'charts.orange', medium: 'charts.yellow', low: 'disabledForeground' };

export class OmniSourceNode implements AuditNode {
  private children: OmniAuditUserNode[] | undefined;

  constructor(
    readonly parent: AuditNode,
    readonly ctx: OmniAuditContext,
    readonly group: OmniCategoryGroup,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const g = this.group;
    const item = new vscode.TreeItem('OmniBehavior', g.users.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `pi/${g.category}/omnibehavior`;
    item.contextValue = 'auditOmni';
    item.iconPath = new vscode.ThemeIcon('pulse');
    item.description = `${tallyText(tally(g.findings, this.ctx.verdictOf))} · ${count(g.placeholders, 'placeholder')}`;
    return item;
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
    const item = new vscode.TreeItem(this.group.userId, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `pi/${this.parent.group.category}/omnibehavior/${this.group.userId}`;
    item.contextValue = 'auditUser';
    item.iconPath = new vscode.ThemeIcon('person');
    item.description = tallyText(tally(this.group.findings, this.parent.ctx.verdictOf));
    return item;
  }

  getChildren(): OmniFindingNode[] {
    this.children ??= this.group.findings.map((f) => new OmniFindingNode(this, f));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const md = markdown();
    md.appendMarkdown('**');
    md.appendText(this.group.userId);
    md.appendMarkdown(`** · OmniBehavior\n\n${count(this.group.findings.length, 'finding')}`);
    return md;
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
    const item = new vscode.TreeItem(displayText(f.text), vscode.TreeItemCollapsibleState.None);
    item.id = `pi-finding/${f.key}`;
    item.contextValue = 'auditTraceFinding';
    const [icon, color] = verdict ? VERDICT_ICON[verdict] : ['warning', CONFIDENCE_COLOR[f.confidence]];
    item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    item.description = omniFindingDescription(f, verdict);
    item.accessibilityInformation = { label: `${CATEGORY_INFO[f.category].label} ${displayText(f.text)}, ${item.description}, ${verdict ? VERDICT_TEXT[verdict] : 'no verdict'}` };
    item.command = { command: 'personaLab.audit.openSource', title: 'Open in the Trace View', arguments: [this] };
    return item;
  }

  getChildren(): AuditNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    const f = this.finding;
    const md = markdown();
    md.appendMarkdown(`**${CATEGORY_INFO[f.category].label}** · ${f.confidence} confidence · `);
    md.appendText(f.reason);
    md.appendMarkdown('\n\n');
    md.appendText(f.text);
    if (hasInvisible(f.text)) md.appendMarkdown('\n\n␣ marks an invisible character (zero-width or direction control) inside the value.');
    md.appendMarkdown('\n\n');
    md.appendText(`${f.file}:${f.line} · ${f.field}${f.run !== null ? ` · run ${f.run}` : ''}`);
    const v = this.ctx.verdictTrail(f.key);
    md.appendMarkdown('\n\n');
    if (v) {
      md.appendMarkdown(`**${VERDICT_LABELS[v.verdict]}** by `);
      md.appendText(`${v.author}, ${v.createdAt}`);
    } else md.appendMarkdown('*No verdict yet.*');
    md.appendMarkdown(f.testAction === null ? '\n\nClick to open the file at the line.' : '\n\nClick to open the trace at the test action, the record revealed.');
    return md;
  }
}
