// The OmniBehavior part of the Benchmarks tree: benchmark → user → test action, one node class per level, with the
// right / wrong counts of the selected run. Children are built on first expansion and kept (TreeView.reveal).
import * as vscode from 'vscode';
import type { TraceLabelIndex } from '../../../core/omni/labels/trace';
import { actionsInOrder } from '../../../core/omni/order';
import { overallText, shortCoverage } from '../../../core/omni/overallReason';
import { userActionCounts, type ActionCounts, type OmniRunScore } from '../../../core/omni/score';
import { OMNI_ORDER_INFO, shareRight, sortOmniUsers, type OmniOrderKey } from '../../../core/omni/userOrder';
import { orderSentence, type UserOrder } from '../../../core/userOrder';
import {
  predictionKey,
  type OmniBenchmark,
  type OmniRun,
  type OmniUser,
  type TestAction,
} from '../../../core/omni/types';
import type { TreeNode } from '../../tree/node';
import { countsText, rowCountsText } from '../../../core/omni/countsText';
import { folderName, markdown, namedTooltip, treeItem } from '../../treeItem';
import { rowName } from '../viewText';
import { omniRowDescription } from './rowText';
import type { TraceRef } from '../../../shared/omni/traceProtocol';

export interface OmniTreeContext {
  bench: OmniBenchmark;
  run: OmniRun | undefined;
  score: OmniRunScore | undefined;
  /** The order users are listed in (Sort Users By…). */
  order: UserOrder<OmniOrderKey>;
  /** "made here by Run Test Actions…" when the selected run is the one last made in this window. */
  madeNote?: string;
  /** This author's trace labels in the selected run, for badges; undefined when there are none to show. */
  labels?: { index: TraceLabelIndex; names: ReadonlyMap<string, string> };
}

/** "⚑ Hyper-activity · 2 history" for a test action with labels on it or on its history records. */
export function actionBadge(labels: OmniTreeContext['labels'], userId: string, index: number): string | undefined {
  if (!labels) return undefined;
  const on = labels.index.actionLabels(userId, index).map((id) => labels.names.get(id) ?? id);
  const history = labels.index.labelledHistory(userId, index).length;
  const parts = [on.length ? `⚑ ${on.join(', ')}` : '', history ? `⚑ ${history} history` : ''].filter(Boolean);
  return parts.length ? parts.join(' · ') : undefined;
}

export const omniNodeId = {
  benchmark: (root: string): string => `omni/${root}`,
  user: (root: string, userId: string): string => `omni/${root}/user/${userId}`,
  action: (root: string, userId: string, index: number): string => `omni/${root}/user/${userId}/${index}`,
};

type Counts = ActionCounts;

/** What the benchmark row says of the user order: nothing for the default (by id, A → Z). */
export function omniOrderNote(order: UserOrder<OmniOrderKey>): string | undefined {
  if (order.key === 'id') return order.direction === 'ascending' ? undefined : 'by id Z → A';
  if (order.key === 'labelled') return order.direction === 'descending' ? 'labelled first' : 'unlabelled first';
  return `by ${OMNI_ORDER_INFO[order.key].label.toLowerCase()} ${order.direction === 'ascending' ? '↑' : '↓'}`;
}

export class OmniBenchmarkNode implements TreeNode {
  readonly parent = undefined;
  private children: OmniUserNode[] | undefined;

  constructor(readonly ctx: OmniTreeContext) {}

  getTreeItem(): vscode.TreeItem {
    const { bench, run, score } = this.ctx;
    const overall = score?.overall;
    return treeItem({
      label: rowName(folderName(bench.root)),
      state: vscode.TreeItemCollapsibleState.Expanded,
      id: omniNodeId.benchmark(bench.root),
      contextValue: 'omniBenchmark',
      icon: 'pulse',
      description: omniRowDescription(
        run?.name,
        overall,
        omniOrderNote(this.ctx.order),
        score ? shortCoverage(score) : undefined,
      ),
      tooltip: this.tooltip(),
    });
  }

  /** Sorted once per (re)build: a change of order rebuilds the tree. */
  getChildren(): OmniUserNode[] {
    if (!this.children) {
      const { bench, score, labels, order } = this.ctx;
      const rows = [...bench.users.values()].map((user) => ({
        user,
        userId: user.userId,
        counts: score ? userActionCounts(score.perAction, user) : undefined,
        labelled: (labels?.index.labelledActionsOfUser(user.userId) ?? 0) > 0,
      }));
      this.children = sortOmniUsers(rows, order).map((row) => new OmniUserNode(this, row.user, row.counts));
    }
    return this.children;
  }

  user(userId: string): OmniUserNode | undefined {
    return this.getChildren().find((u) => u.user.userId === userId);
  }

  tooltip(): vscode.MarkdownString {
    const { bench, run, score } = this.ctx;
    const md = markdown();
    md.appendMarkdown('**OmniBehavior** ');
    md.appendText(bench.root);
    md.appendMarkdown(`\n\n${bench.users.size} user(s), ${bench.runs.size} run(s) under results/; selected: `);
    if (run) md.appendText(run.name);
    else md.appendMarkdown('none');
    if (this.ctx.madeNote) md.appendText(` (${this.ctx.madeNote})`);
    if (score) md.appendMarkdown('\n\n').appendText(overallText(score));
    if (bench.diagnostics.length) md.appendMarkdown(`\n\n${bench.diagnostics.length} loading problem(s)`);
    md.appendMarkdown(`\n\n${orderSentence(this.ctx.order, OMNI_ORDER_INFO)}`);
    return md;
  }
}

export class OmniUserNode implements TreeNode {
  private children: TestActionNode[] | undefined;

  /** `userCounts`: the user's answers in the selected run; undefined without a run or a prediction. */
  constructor(
    readonly parent: OmniBenchmarkNode,
    readonly user: OmniUser,
    private readonly userCounts: Counts | undefined,
  ) {}

  private counts(): Counts | undefined {
    return this.userCounts;
  }

  getTreeItem(): vscode.TreeItem {
    const { user } = this;
    const counts = this.counts();
    const labelled = this.parent.ctx.labels?.index.labelledActionsOfUser(user.userId) ?? 0;
    return treeItem({
      label: user.userId,
      state: vscode.TreeItemCollapsibleState.Collapsed,
      id: omniNodeId.user(this.parent.ctx.bench.root, user.userId),
      contextValue: 'omniUser',
      icon: 'person',
      // Short: the selected run's answers (or the test actions without a run) and labels; the rest is in the tooltip.
      description: [
        this.parent.ctx.run ? rowCountsText(counts, true) : `${user.testActions.length} test actions`,
        labelled ? `⚑ ${labelled}` : '',
      ]
        .filter(Boolean)
        .join(' · '),
      tooltip: this.tooltip(),
    });
  }

  getChildren(): TestActionNode[] {
    this.children ??= actionsInOrder(this.user).map((a) => new TestActionNode(this, a));
    return this.children;
  }

  action(index: number): TestActionNode | undefined {
    return this.getChildren().find((a) => a.action.index === index);
  }

  tooltip(): vscode.MarkdownString {
    const md = namedTooltip(this.user.userId, '\n\n');
    if (this.user.profile) md.appendText(this.user.profile);
    else md.appendMarkdown('*no profile*');
    const labelled = this.parent.ctx.labels?.index.labelledActionsOfUser(this.user.userId) ?? 0;
    if (labelled) md.appendMarkdown(`\n\n⚑ ${labelled} test action(s) labelled by you`);
    md.appendMarkdown(
      `\n\nHistory: ${this.user.historyLength} action(s); ${this.user.testActions.length} test action(s)\n\n`,
    );
    const counts = this.counts();
    if (counts) {
      const share = shareRight(counts);
      md.appendMarkdown(
        `In the selected run: ${countsText(counts)}; share right ` +
          `${share === undefined ? '—' : `${(100 * share).toFixed(1)}%`} (right among right and wrong)\n\n`,
      );
    } else if (this.parent.ctx.run) md.appendMarkdown('No prediction in the selected run\n\n');
    md.appendText(this.user.file);
    return md;
  }
}

export class TestActionNode implements TreeNode {
  constructor(
    readonly parent: OmniUserNode,
    readonly action: TestAction,
  ) {}

  get ref(): TraceRef {
    return { userId: this.action.userId, index: this.action.index };
  }

  private counts(): Counts | undefined {
    return this.parent.parent.ctx.score?.perAction.get(predictionKey(this.action.userId, this.action.index));
  }

  getTreeItem(): vscode.TreeItem {
    const a = this.action;
    const counts = this.counts();
    const scored = this.parent.parent.ctx.run !== undefined;
    const badge = actionBadge(this.parent.parent.ctx.labels, a.userId, a.index);
    const [icon, color] = !counts
      ? ['circle-outline', 'disabledForeground']
      : counts.incorrect > 0
        ? ['error', 'charts.red']
        : counts.correct > 0
          ? ['pass-filled', 'charts.green']
          : ['circle-large-outline', 'charts.yellow'];
    return treeItem({
      label: `#${a.index} ${a.scene}`,
      state: vscode.TreeItemCollapsibleState.None,
      id: omniNodeId.action(this.parent.parent.ctx.bench.root, a.userId, a.index),
      contextValue: 'omniTestAction',
      icon,
      color,
      // The run's answers when one is selected, else the time; fields and time are in the tooltip.
      description: `${scored ? rowCountsText(counts, false) : a.timestamp}${badge ? ` · ${badge}` : ''}`,
      tooltip: this.tooltip(),
      accessibilityInformation: { label: `test action ${a.index}, ${a.scene}, ${a.timestamp}, ${countsText(counts)}` },
      command: { command: 'personaLab.openTrace', title: 'Open Trace', arguments: [this.ref] },
    });
  }

  getChildren(): TreeNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    const a = this.action;
    const md = markdown();
    md.appendMarkdown(`**test action ${a.index}** · `);
    md.appendText(`${a.scene} · ${a.timestamp}`);
    md.appendMarkdown('\n\nFields asked: ');
    md.appendText(a.fields.join(', '));
    md.appendMarkdown(`\n\n${countsText(this.counts())}`);
    const badge = actionBadge(this.parent.parent.ctx.labels, a.userId, a.index);
    if (badge) {
      md.appendMarkdown('\n\nYour labels: ');
      md.appendText(badge);
    }
    md.appendMarkdown('\n\nClick to open the trace.');
    return md;
  }
}
