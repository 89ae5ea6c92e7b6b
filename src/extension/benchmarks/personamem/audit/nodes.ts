// The PersonaMem part of the PI Audit tree: under each category a "PersonaMem" row (its findings and placeholders
// per source and part), then each split, then each context (the generic user row, named by its persona and id),
// then findings. A finding opens the question view at the question whose history first holds it, the message
// revealed and the value outlined; a finding no question sees opens its source line.
import * as vscode from 'vscode';
import type { PmAuditFinding } from '../../../../core/personamem/audit';
import { AuditUserNode, type FindingFormat } from '../../../audit/findingNodes';
import { count, tally, tallyText } from '../../../audit/model';
import type { AuditNode, CategoryParent } from '../../../audit/nodeTypes';
import { AuditSourceNode } from '../../../audit/sourceNode';
import { openFindingLine } from '../../../audit/sourceLine';
import { collapsedIf, namedTooltip, treeItem } from '../../../treeItem';
import { pmFindingDescription, type PmCategoryGroup, type PmSplitGroup } from './model';

class PmSplitNode implements AuditNode {
  private children: AuditNode[] | undefined;

  constructor(
    readonly parent: AuditSourceNode,
    private readonly ctx: CategoryParent['ctx'],
    private readonly group: PmSplitGroup,
    private readonly findings: FindingFormat<PmAuditFinding>,
  ) {}

  private get id(): string {
    return `${this.parent.id}/${this.group.split}`;
  }

  getTreeItem(): vscode.TreeItem {
    return treeItem({
      label: `split ${this.group.split}`,
      state: collapsedIf(this.group.contexts.length > 0),
      id: this.id,
      contextValue: 'auditPersonaMemSplit',
      icon: 'layers',
      description: tallyText(tally(this.group.findings, this.ctx.verdictOf)),
    });
  }

  getChildren(): AuditNode[] {
    this.children ??= this.group.contexts.map(
      (c) => new AuditUserNode(this, this.ctx, this.findings, c, `${this.id}/${c.contextId || '-'}`),
    );
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const md = namedTooltip(`split ${this.group.split}`, '\n\n');
    md.appendMarkdown(
      `${count(this.group.findings.length, 'finding')} in ${count(this.group.contexts.length, 'context')}.`,
    );
    return md;
  }
}

/** The "PersonaMem" row under a category: its splits below it. */
export function personaMemSourceNode(
  parent: CategoryParent,
  group: PmCategoryGroup,
  findings: FindingFormat<PmAuditFinding>,
): AuditSourceNode {
  const row = {
    label: 'PersonaMem',
    idPart: 'personamem',
    contextValue: 'auditPersonaMem',
    icon: 'comment-discussion',
    data: { source: 'data', label: 'released files' },
  };
  return new AuditSourceNode(parent, group, row, (node) =>
    group.splits.map((s) => new PmSplitNode(node, parent.ctx, s, findings)),
  );
}

/** `open`: shows the finding in the question view; false when it cannot (no question sees it, no view). */
export const personaMemFindings = (
  root: string,
  open: (f: PmAuditFinding) => boolean,
): FindingFormat<PmAuditFinding> => ({
  userWhere: ' · PersonaMem',
  userLine: () => undefined,
  // a finding that opens in its format's item view: verdicts and Open Finding in File on right-click, no Open Step
  contextValue: 'auditItemFinding',
  openTitle: 'Open in the Question View',
  describe: pmFindingDescription,
  body: (f, md) => void md.appendText(f.text),
  clickHint: (f) =>
    f.questionId === null
      ? 'No question sees it: click to open its source line, the value selected.'
      : 'Click to open the question whose history first holds it, the finding outlined; right-click to open its source line, or for verdicts.',
  open: (f) => openFindingLine(root, f),
  openInView: async (f) => {
    if (!open(f)) await openFindingLine(root, f);
  },
});
