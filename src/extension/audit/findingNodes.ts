// The PI Audit tree's two lowest levels, one class each for every format: a user, then its findings. What differs
// per format (its AuditPart, part.ts) is its FindingFormat: the user row's tooltip, and how a finding's location is
// described and opened. Dataset text reaches tooltips only through appendText (escaped).
import * as vscode from 'vscode';
import type { Verdict } from '../../core/pi/verdicts';
import { namedTooltip, treeItem } from '../treeItem';
import { findingItem, findingTooltip, type TooltipFinding } from './findingItem';
import { auditNodeId, count, tally, tallyText } from './model';
import type { AuditNode, FindingContext } from './nodeTypes';
export type { FindingContext } from './nodeTypes';

export type NodeFinding = TooltipFinding & { userId: string };

export interface FindingFormat<F extends NodeFinding> {
  /** After the user's name in its tooltip: where the user is (` · Instagram`, ` · ` and the benchmark's name). */
  readonly userWhere: string;
  /** A line about the user in its tooltip (its name and steps), when the format has one. */
  userLine(userId: string): string | undefined;
  readonly contextValue: string;
  /** What a click on the finding does (openInView). */
  readonly openTitle: string;
  /** The row's description: where the finding sits, its confidence, its verdict. */
  describe(f: F, verdict: Verdict | undefined): string;
  /** The tooltip's body: the value, or the value in its context. */
  body(f: F, md: vscode.MarkdownString): void;
  clickHint(f: F): string;
  /** Opens the finding's source line, pretty-printed, with the span selected (Open Finding in File). */
  open(f: F): Promise<void>;
  /** Opens it in its benchmark's item view with its span outlined (a click, Open Step), else its source line. */
  openInView(f: F): Promise<void>;
  /** Findings of one PI value carried through a chain of personas (a format whose runs write personas). */
  chainsOf?(findings: readonly F[]): FindingChain<F>[];
}

/** One PI value carried through a user's personas in a run: its row says where it entered and where it went. */
export interface FindingChain<F> {
  id: string;
  label: string;
  /** "step 2 (post) → 3" */
  description: string;
  /** "In run demo-llm: entered at step 2 from a post of step 2, carried to step 3." */
  sentence: string;
  findings: F[];
}

/** A row whose children are findings: a user, or a chain under it. */
interface FindingParent<F extends NodeFinding> extends AuditNode {
  readonly ctx: FindingContext;
  readonly format: FindingFormat<F>;
}

export class AuditUserNode<F extends NodeFinding> implements FindingParent<F> {
  private children: AuditNode[] | undefined;

  /** `id`: the row's tree id. */
  constructor(
    readonly parent: AuditNode,
    readonly ctx: FindingContext,
    readonly format: FindingFormat<F>,
    readonly group: { userId: string; findings: F[] },
    private readonly id: string,
  ) {}

  getTreeItem(): vscode.TreeItem {
    return treeItem({
      label: this.group.userId,
      state: vscode.TreeItemCollapsibleState.Collapsed,
      id: this.id,
      contextValue: 'auditUser',
      icon: 'person',
      description: tallyText(tally(this.group.findings, this.ctx.verdictOf)),
    });
  }

  getChildren(): AuditNode[] {
    if (!this.children) {
      const chains = this.format.chainsOf?.(this.group.findings) ?? [];
      const chained = new Set(chains.flatMap((c) => c.findings));
      this.children = [
        ...chains.map((c) => new ChainNode(this, c)),
        ...this.group.findings.filter((f) => !chained.has(f)).map((f) => new FindingNode(this, f)),
      ];
    }
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const md = namedTooltip(this.group.userId, `${this.format.userWhere}\n\n`);
    const line = this.format.userLine(this.group.userId);
    if (line !== undefined) {
      md.appendText(line);
      md.appendMarkdown('\n\n');
    }
    md.appendMarkdown(count(this.group.findings.length, 'finding'));
    return md;
  }
}

/** A PI value carried through personas: the findings of its chain below it. */
export class ChainNode<F extends NodeFinding> implements FindingParent<F> {
  private children: FindingNode<F>[] | undefined;

  constructor(
    readonly parent: AuditUserNode<F>,
    readonly chain: FindingChain<F>,
  ) {}

  get ctx(): FindingContext {
    return this.parent.ctx;
  }

  get format(): FindingFormat<F> {
    return this.parent.format;
  }

  getTreeItem(): vscode.TreeItem {
    return treeItem({
      label: this.chain.label,
      state: vscode.TreeItemCollapsibleState.Expanded,
      id: this.chain.id,
      contextValue: 'auditChain',
      icon: 'link',
      description: this.chain.description,
    });
  }

  getChildren(): FindingNode<F>[] {
    this.children ??= this.chain.findings.map((f) => new FindingNode(this, f));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const md = namedTooltip(this.chain.label, '\n\n');
    md.appendText(this.chain.sentence);
    md.appendMarkdown(
      `\n\nA value a model copied into a persona reaches every later prompt of that user. ${count(this.chain.findings.length, 'finding')} in the personas below.`,
    );
    return md;
  }
}

export class FindingNode<F extends NodeFinding> implements AuditNode {
  constructor(
    readonly parent: FindingParent<F>,
    readonly finding: F,
  ) {}

  private get format(): FindingFormat<F> {
    return this.parent.format;
  }

  getTreeItem(): vscode.TreeItem {
    const f = this.finding;
    const verdict = this.parent.ctx.verdictOf(f.key);
    return findingItem(f, verdict, {
      id: auditNodeId.finding(f.key),
      contextValue: this.format.contextValue,
      description: this.format.describe(f, verdict),
      openTitle: this.format.openTitle,
      node: this,
    });
  }

  getChildren(): AuditNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    const f = this.finding;
    return findingTooltip(f, this.parent.ctx.verdictTrail, (md) => this.format.body(f, md), this.format.clickHint(f));
  }

  open(): Promise<void> {
    return this.format.open(this.finding);
  }

  openInView(): Promise<void> {
    return this.format.openInView(this.finding);
  }
}
