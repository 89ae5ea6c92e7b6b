// The OmniBehavior part of the PI Audit tree: under each category an "OmniBehavior" node (the benchmark's findings
// and placeholders of that category, per part), then users, then findings (the rows of findingNodes.ts). A finding
// opens the trace view at its test action with its history record revealed (findingTraceTarget), or the raw file at
// its line when it belongs to no test action. Dataset text reaches tooltips only through appendText (escaped).
import * as vscode from 'vscode';
import type { OmniAuditFinding } from '../../../core/pi/omniAudit';
import type { TraceFindings } from './trace';
import { CATEGORY_INFO } from '../../../core/pi/placeholders';
import { collapsedIf, markdown, treeItem } from '../../treeItem';
import { AuditUserNode, type FindingFormat } from '../findingNodes';
import { count, tallyText, tally } from '../model';
import { omniFindingDescription, type OmniCategoryGroup } from './model';
import type { AuditNode, CategoryParent } from '../nodeTypes';
import { openTraceFinding, openTraceSource } from './open';

export class OmniSourceNode implements AuditNode {
  private children: AuditUserNode<OmniAuditFinding>[] | undefined;

  constructor(
    readonly parent: CategoryParent,
    readonly group: OmniCategoryGroup,
    private readonly findings: FindingFormat<OmniAuditFinding>,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const g = this.group;
    return treeItem({
      label: 'OmniBehavior',
      state: collapsedIf(g.users.length > 0),
      id: `pi/${g.category}/omnibehavior`,
      contextValue: 'auditOmni',
      icon: 'pulse',
      description: `${tallyText(tally(g.findings, this.parent.ctx.verdictOf))} · ${count(g.placeholders, 'placeholder')}`,
    });
  }

  getChildren(): AuditUserNode<OmniAuditFinding>[] {
    const category = this.group.category;
    this.children ??= this.group.users.map(
      (u) => new AuditUserNode(this, this.parent.ctx, this.findings, u, `pi/${category}/omnibehavior/${u.userId}`),
    );
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

/** An OmniBehavior finding opens in the trace view at its test action, else its raw file at the line. */
export const omniFindings = (
  root: string,
  trace: () => TraceFindings | undefined,
): FindingFormat<OmniAuditFinding> => ({
  userWhere: ' · OmniBehavior',
  userLine: () => undefined,
  contextValue: 'auditTraceFinding',
  openTitle: 'Open in the Trace View',
  describe: omniFindingDescription,
  body: (f, md) => void md.appendText(f.text),
  clickHint: (f) =>
    f.testAction === null
      ? 'Click to open its source line, the value selected.'
      : 'Click to open the trace at the test action with the finding outlined; right-click to open its source line, or for verdicts.',
  open: (f) => openTraceSource(f, root),
  openInView: (f) => openTraceFinding(f, root, trace()),
});
