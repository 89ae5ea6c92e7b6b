// One node class per level of the Benchmarks tree. Each node builds its children on first expansion and keeps
// them, so TreeView.reveal finds the very instances the view already shows (getParent walks `parent`).
import { EXCLUDING_FAILED, failedRequests, type FailedRequests } from '../../../core/spb/score/failedRequests';
import { pctText } from '../../../core/tables/format';
import { NOT_THE_BENCHMARK, readRunOrigin, type RunOrigin } from '../../../core/spb/prompt/runOrigin';
import * as vscode from 'vscode';
import { stepDecorationUri, userDecorationUri } from './decorationUris';
import type { RunScore } from '../../../core/spb/score/run';
import type { Benchmark, Platform, Run } from '../../../core/spb/types';
import { SPB_ORDER_INFO, sortSpbUsers, type SpbOrderKey } from '../../../core/spb/view/userOrder';
import { orderSentence, type UserOrder } from '../../../core/userOrder';
import type { StepRef } from './stepRef';
import type { SampleScope } from '../../../core/spb/experiments/sampleScope';
import { folderName, markdown, namedTooltip, treeItem } from '../../treeItem';
import { rowName } from '../viewText';
import type { TreeNode } from '../../tree/node';
import { withBadge, type TreeAugment } from './treeAugment';
import {
  READING_USERS,
  STATUS_TEXT,
  benchmarkDescription,
  figuresTable,
  nodeId,
  orderNote,
  platformRows,
  shownFigure,
  stepDates,
  stepRows,
  userFigures,
  userRows,
  usersShown,
  type PlatformRow,
  type StepRow,
  type StepStatus,
  type UserRow,
} from './treeModel';

/** What every node sees: the loaded benchmark and the selected run at the time the tree was (re)built. */
export interface TreeContext {
  bench: Benchmark;
  run: Run | undefined;
  score: RunScore | undefined;
  /** The order users are listed in (Sort Users By…). */
  order: UserOrder<SpbOrderKey>;
  augment?: TreeAugment;
  /** Filter Tree to Sample: only its users show, and `score` is over them. */
  sample?: SampleScope;
  /**
   * `bench` holds the figures of the index worker's first read (coldLoad/worker.ts), not its users yet: the rows show
   * the figures, offer no command, the benchmark row spins, and each platform holds a loading row until the open ends.
   */
  early?: boolean;
}

const MAX_BIO = 300;

export class BenchmarkNode implements TreeNode {
  readonly parent = undefined;
  private children: PlatformNode[] | undefined;
  private readonly sorted = new Map<Platform, UserRow[]>();

  constructor(readonly ctx: TreeContext) {}

  getTreeItem(): vscode.TreeItem {
    const { bench, run, score } = this.ctx;
    return treeItem({
      label: rowName(folderName(bench.root)),
      state: vscode.TreeItemCollapsibleState.Expanded,
      id: nodeId.benchmark(),
      contextValue: this.ctx.early ? 'benchmarkEarly' : 'benchmark',
      // A side bar cuts the end of the row, where "reading users…" is: the icon says it where it is always seen.
      icon: this.ctx.early ? 'loading~spin' : 'database',
      description:
        benchmarkDescription(run, score, this.ctx.sample?.label) +
        (this.origin() ? ` · ${NOT_THE_BENCHMARK}` : '') +
        failedText(this.failed()) +
        (this.ctx.early ? ` · ${READING_USERS}` : ''),
    });
  }

  private failedMemo: FailedRequests | null | undefined;

  /** The selected run's failed requests (the reference's error record), counted once per tree build. */
  private failed(): FailedRequests | null {
    const { bench, run, score, sample } = this.ctx;
    this.failedMemo ??= run ? failedRequests(bench, run, sample?.users, score) : null;
    return this.failedMemo;
  }

  /** What made the selected run, when Persona Lab did (its own prompt wording: not the paper's figures). */
  private origin(): RunOrigin | null {
    return this.ctx.run ? readRunOrigin(this.ctx.bench.root, this.ctx.run.name) : null;
  }

  getChildren(): PlatformNode[] {
    const match = this.ctx.augment?.stepFilter();
    this.children ??= platformRows(this.ctx.bench, this.ctx.score, this.ctx.sample?.users)
      .filter(
        (row) =>
          !match ||
          [...usersShown(this.ctx.bench, row.platform, this.ctx.sample?.users).values()].some((u) =>
            u.steps.some((s) => match(u, s)),
          ),
      )
      .map((row) => new PlatformNode(this, row));
    return this.children;
  }

  platform(platform: Platform): PlatformNode | undefined {
    return this.getChildren().find((p) => p.row.platform === platform);
  }

  /**
   * Every user row of a platform in the tree's order (the step filter hides some of them in the view), sorted once
   * per build: a new order, run, load or labels rebuild the tree. Step-view and label navigation walk this order.
   */
  userRows(platform: Platform): readonly UserRow[] {
    let rows = this.sorted.get(platform);
    if (!rows) {
      const { bench, run, score, augment, order, sample } = this.ctx;
      const users = usersShown(bench, platform, sample?.users);
      const unsorted = userRows(users, score?.platforms.get(platform), run !== undefined, shownFigure(order));
      rows = sortSpbUsers(unsorted, order, (row) => (augment?.labelledSteps(row.user) ?? 0) > 0);
      this.sorted.set(platform, rows);
    }
    return rows;
  }

  tooltip(): vscode.MarkdownString {
    const { bench, run, score, sample } = this.ctx;
    const md = markdown();
    md.appendMarkdown('**Benchmark** ');
    md.appendText(bench.root);
    if (sample) {
      md.appendMarkdown('\n\nFiltered to ');
      md.appendText(`${sample.label}: the figures below are over its users, not the whole benchmark`);
    }
    md.appendMarkdown(`\n\n${bench.runs.size} run(s) under results/; selected: `);
    if (run) md.appendText(run.name);
    else md.appendMarkdown('none');
    const origin = this.origin();
    if (origin) md.appendText(` (${origin.mark}: another experiment, not comparable with the released runs)`);
    if (score) md.appendMarkdown(`\n\nAvg. over platforms:\n\n${figuresTable(score.avg)}`);
    const failed = this.failed();
    if (failed && failed.failed > 0)
      md.appendText(
        `\n\n${failed.failed} of ${failed.steps} steps are failed requests (the reference's error record), scored as the reference scores them: Avg. R ${pctText(failed.avg.Recall)} %; ${pctText(failed.avg.RecallExcludingFailed)} % ${EXCLUDING_FAILED}. *Re-run Failed Requests…* (context menu) sends just those again into a copy of the run.`,
      );
    if (bench.diagnostics.length)
      md.appendMarkdown(
        `\n\n${bench.diagnostics.length} loading problem(s): ${this.ctx.early ? 'the Problems panel lists them once the open ends' : 'see the Problems panel'}`,
      );
    return md;
  }
}

export class PlatformNode implements TreeNode {
  private children: UserNode[] | undefined;
  private byId: Map<string, UserNode> | undefined;

  constructor(
    readonly parent: BenchmarkNode,
    readonly row: PlatformRow,
  ) {}

  getTreeItem(): vscode.TreeItem {
    return treeItem({
      label: this.row.label,
      state: vscode.TreeItemCollapsibleState.Collapsed,
      id: nodeId.platform(this.row.platform),
      contextValue: this.parent.ctx.early ? 'platformEarly' : 'platform',
      icon: 'globe',
      description: withBadge(
        withBadge(this.row.description, this.parent.ctx.augment?.platformBadge(this.row.platform)),
        orderNote(this.parent.ctx.order),
      ),
    });
  }

  getChildren(): TreeNode[] {
    if (this.parent.ctx.early) return [new ReadingUsersNode(this)];
    return this.userNodes();
  }

  private userNodes(): UserNode[] {
    if (!this.children) {
      const match = this.parent.ctx.augment?.stepFilter();
      this.children = this.parent
        .userRows(this.row.platform)
        .filter((row) => !match || row.user.steps.some((s) => match(row.user, s)))
        .map((row) => new UserNode(this, row));
    }
    return this.children;
  }

  user(userId: string): UserNode | undefined {
    if (this.parent.ctx.early) return undefined;
    this.byId ??= new Map(this.userNodes().map((u) => [u.row.user.userId, u]));
    return this.byId.get(userId);
  }

  tooltip(): vscode.MarkdownString {
    const { row } = this;
    const md = markdown();
    md.appendMarkdown(`**${row.label}** · ${row.users} users · ${row.steps} steps`);
    const s = row.score;
    if (s) {
      md.appendMarkdown(
        `\n\nScored: ${s.users} users, ${s.steps} steps (M̄, two-level macro average)\n\n` +
          figuresTable({ ...s.metrics, F1NS: s.f1ns }),
      );
    } else if (this.parent.ctx.run) {
      md.appendMarkdown('\n\nThe selected run has no results for this platform.');
    }
    md.appendMarkdown(`\n\n${orderSentence(this.parent.ctx.order, SPB_ORDER_INFO)}`);
    return md;
  }
}

export class UserNode implements TreeNode {
  private children: StepNode[] | undefined;

  constructor(
    readonly parent: PlatformNode,
    readonly row: UserRow,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { user } = this.row;
    return treeItem({
      label: user.userId,
      state: vscode.TreeItemCollapsibleState.Collapsed,
      id: nodeId.user(user.platform, user.userId),
      contextValue: 'user',
      // A resourceUri (compare mode's decorations) stops VS Code from asking resolveTreeItem for the tooltip.
      resourceUri: userDecorationUri(user.platform, user.userId),
      tooltip: this.tooltip(),
      icon: 'person',
      description: withBadge(this.row.description, this.parent.parent.ctx.augment?.userBadge(user)),
    });
  }

  getChildren(): StepNode[] {
    const { run, augment } = this.parent.parent.ctx;
    const match = augment?.stepFilter();
    this.children ??= stepRows(run, this.row.user)
      .filter((row) => !match || match(this.row.user, row.step))
      .map((row) => new StepNode(this, row));
    return this.children;
  }

  step(stepId: number): StepNode | undefined {
    return this.getChildren().find((s) => s.stepId === stepId);
  }

  tooltip(): vscode.MarkdownString {
    const { user, score } = this.row;
    const md = namedTooltip(user.userId, ' · ');
    md.appendText(user.username || '(no username)');
    md.appendMarkdown('\n\n');
    const bio = user.bio.length > MAX_BIO ? user.bio.slice(0, MAX_BIO) + '…' : user.bio;
    if (bio) md.appendText(bio);
    else md.appendMarkdown('*no bio*');
    md.appendMarkdown(`\n\n${user.steps.length} step(s)`);
    if (score) md.appendMarkdown(`, ${score.steps} scored in the selected run:\n\n${figuresTable(userFigures(score))}`);
    else if (this.parent.parent.ctx.run) md.appendMarkdown(', none scored in the selected run');
    md.appendMarkdown('\n\n');
    md.appendText(`${user.file}:${user.ref.line}`);
    return md;
  }
}

const STATUS_ICON: Record<StepStatus, [icon: string, color: string]> = {
  all: ['pass-filled', 'charts.green'],
  some: ['pie-chart', 'charts.yellow'],
  none: ['error', 'charts.red'],
  unscored: ['circle-outline', 'disabledForeground'],
};

/** Carries the StepRef fields itself: context-menu commands receive the node, the click command a plain ref. */
export class StepNode implements TreeNode, StepRef {
  readonly platform: Platform;
  readonly userId: string;
  readonly stepId: number;

  constructor(
    readonly parent: UserNode,
    readonly row: StepRow,
  ) {
    this.platform = parent.row.user.platform;
    this.userId = parent.row.user.userId;
    this.stepId = row.step.stepId;
  }

  get ref(): StepRef {
    return { platform: this.platform, userId: this.userId, stepId: this.stepId };
  }

  getTreeItem(): vscode.TreeItem {
    const [icon, color] = STATUS_ICON[this.row.status];
    return treeItem({
      label: this.row.label,
      state: vscode.TreeItemCollapsibleState.None,
      id: nodeId.step(this.platform, this.userId, this.stepId),
      contextValue: 'step',
      resourceUri: stepDecorationUri(this.ref),
      tooltip: this.tooltip(),
      icon,
      color,
      description: withBadge(
        this.row.description,
        this.parent.parent.parent.ctx.augment?.stepBadge(this.parent.row.user, this.row.step),
      ),
      accessibilityInformation: {
        label: `${this.row.label}, ${stepDates(this.row.step)}, ${this.row.description}, ${STATUS_TEXT[this.row.status]}`,
      },
      command: { command: 'personaLab.openStep', title: 'Open Step', arguments: [this.ref] },
    });
  }

  getChildren(): TreeNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    const { step, metrics, status } = this.row;
    const split = step.split;
    const md = markdown();
    md.appendMarkdown(`**step ${step.stepId} / ${step.totalSteps}** · `);
    md.appendText(stepDates(step));
    md.appendMarkdown(
      `\n\nPool: ${step.pool.length} tags; positives: ${split.tKeep.length} T_keep, ${split.tNew.length} T_new` +
        `\n\n${STATUS_TEXT[status]}`,
    );
    if (metrics) {
      md.appendMarkdown(`\n\n${figuresTable(metrics)}`);
    } else if (metrics === null) {
      md.appendMarkdown(' (no positives: T_keep and T_new are empty)');
    } else if (this.parent.parent.parent.ctx.run) {
      md.appendMarkdown(' (the selected run has no result for this step)');
    }
    md.appendMarkdown('\n\nClick to open the step.');
    return md;
  }
}

function failedText(f: FailedRequests | null): string {
  return f && f.failed > 0 ? ` · ${f.failed} failed request${f.failed === 1 ? '' : 's'}` : '';
}

/** Under a platform of an early tree: its users are being read, and show once the open ends. */
export class ReadingUsersNode implements TreeNode {
  constructor(readonly parent: PlatformNode) {}

  getTreeItem(): vscode.TreeItem {
    return treeItem({
      label: READING_USERS.charAt(0).toUpperCase() + READING_USERS.slice(1),
      state: vscode.TreeItemCollapsibleState.None,
      id: `${nodeId.platform(this.parent.row.platform)}/reading`,
      contextValue: 'readingUsers',
      icon: 'loading~spin',
      description: '',
    });
  }

  getChildren(): TreeNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    return markdown().appendText(
      "The figures above come from a first read of the folder, the one the CLI's score --no-cache makes. Its users and steps are being read now; they show here when the open ends.",
    );
  }
}
