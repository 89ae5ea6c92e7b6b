// The row a format's part puts under a category when its findings come from several sources and parts (a trace's
// parts, a history's messages and the questions): the format's name, its tally and placeholders, and in its tooltip
// the counts per source and part. What is below it is the part's (users, or splits then contexts).
import * as vscode from 'vscode';
import { CATEGORY_INFO, type PiCategory } from '../../core/pi/placeholders';
import { collapsedIf, markdown, treeItem } from '../treeItem';
import { count, tally, tallyText } from './model';
import type { AuditNode, CategoryParent } from './nodeTypes';

/** One category's findings and placeholders of one benchmark, with the counts per source and part. */
export interface SourceGroup {
  category: PiCategory;
  benchmark: string;
  placeholders: number;
  findings: readonly { key: string }[];
  bySource: readonly { source: string; part: string; placeholders: number; findings: number }[];
}

export interface SourceRow {
  /** the format's name */
  label: string;
  /** the tree id's segment after the category: `pi/<category>/<idPart>` */
  idPart: string;
  contextValue: string;
  icon: string;
  /** the source that is the benchmark's own files ('raw', 'data') and what the tooltip calls it; others are runs */
  data: { source: string; label: string };
}

export class AuditSourceNode implements AuditNode {
  private children: AuditNode[] | undefined;

  constructor(
    readonly parent: CategoryParent,
    readonly group: SourceGroup,
    private readonly row: SourceRow,
    private readonly below: (node: AuditSourceNode) => AuditNode[],
  ) {}

  get id(): string {
    return `pi/${this.group.category}/${this.row.idPart}`;
  }

  getTreeItem(): vscode.TreeItem {
    const g = this.group;
    return treeItem({
      label: this.row.label,
      state: collapsedIf(g.findings.length > 0),
      id: this.id,
      contextValue: this.row.contextValue,
      icon: this.row.icon,
      description: `${tallyText(tally(g.findings, this.parent.ctx.verdictOf))} · ${count(g.placeholders, 'placeholder')}`,
    });
  }

  getChildren(): AuditNode[] {
    this.children ??= this.below(this);
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const md = markdown();
    md.appendMarkdown(`**${this.row.label}** · `);
    md.appendText(`${this.group.benchmark} · ${CATEGORY_INFO[this.group.category].label}`);
    md.appendMarkdown('\n\n| source | part | placeholders | findings |\n|---|---|---:|---:|\n');
    for (const s of this.group.bySource) {
      md.appendMarkdown('| ');
      md.appendText(s.source === this.row.data.source ? this.row.data.label : `run ${s.source}`);
      md.appendMarkdown(` | ${s.part} | ${s.placeholders} | ${s.findings} |\n`);
    }
    return md;
  }
}
