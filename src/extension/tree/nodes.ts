// One node class per level of the Benchmarks tree. Each node builds its children on first expansion and keeps
// them, so TreeView.reveal finds the very instances the view already shows (getParent walks `parent`).
import * as vscode from 'vscode';
import { stepDecorationUri, userDecorationUri } from '../compare/decorations';
import type { RunScore } from '../../core/spb/score/run';
import { userF1ns } from '../../core/spb/score/step';
import type { Benchmark, Platform, Run } from '../../core/spb/types';
import type { StepRef } from '../benchmarks/spb/store';
import { folderName, markdown, namedTooltip, treeItem } from '../treeItem';
import { withBadge, type TreeAugment } from './augment';
import {
  STATUS_TEXT,
  nodeId,
  pct,
  platformRows,
  stepRows,
  userRows,
  type PlatformRow,
  type StepRow,
  type StepStatus,
  type UserRow,
} from './model';

/** What every node sees: the loaded benchmark and the selected run at the time the tree was (re)built. */
export interface TreeContext {
  bench: Benchmark;
  run: Run | undefined;
  score: RunScore | undefined;
  augment?: TreeAugment;
}

export interface TreeNode {
  readonly parent: TreeNode | undefined;
  getTreeItem(): vscode.TreeItem;
  getChildren(): TreeNode[];
  /** Built only when the user hovers (TreeDataProvider.resolveTreeItem), not for every row. */
  tooltip(): vscode.MarkdownString;
}

const MAX_BIO = 300;

export class BenchmarkNode implements TreeNode {
  readonly parent = undefined;
  private children: PlatformNode[] | undefined;

  constructor(readonly ctx: TreeContext) {}

  getTreeItem(): vscode.TreeItem {
    const { bench, run, score } = this.ctx;
    return treeItem({
      label: folderName(bench.root),
      state: vscode.TreeItemCollapsibleState.Expanded,
      id: nodeId.benchmark(),
      contextValue: 'benchmark',
      icon: 'database',
      description: run ? `${run.name} · Avg. R ${pct(score?.avg.Recall)}` : 'no run',
    });
  }

  getChildren(): PlatformNode[] {
    const match = this.ctx.augment?.stepFilter();
    this.children ??= platformRows(this.ctx.bench, this.ctx.score)
      .filter(
        (row) =>
          !match ||
          [...(this.ctx.bench.users.get(row.platform)?.values() ?? [])].some((u) => u.steps.some((s) => match(u, s))),
      )
      .map((row) => new PlatformNode(this, row));
    return this.children;
  }

  platform(platform: Platform): PlatformNode | undefined {
    return this.getChildren().find((p) => p.row.platform === platform);
  }

  tooltip(): vscode.MarkdownString {
    const { bench, run, score } = this.ctx;
    const md = markdown();
    md.appendMarkdown('**Benchmark** ');
    md.appendText(bench.root);
    md.appendMarkdown(`\n\n${bench.runs.size} run(s) under results/; selected: `);
    if (run) md.appendText(run.name);
    else md.appendMarkdown('none');
    if (score)
      md.appendMarkdown(`\n\nAvg. over platforms: Recall ${pct(score.avg.Recall)}, F1^NS ${pct(score.avg.F1NS)}`);
    if (bench.diagnostics.length)
      md.appendMarkdown(`\n\n${bench.diagnostics.length} loading problem(s): see the Problems panel`);
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
      contextValue: 'platform',
      icon: 'globe',
      description: withBadge(this.row.description, this.parent.ctx.augment?.platformBadge(this.row.platform)),
    });
  }

  getChildren(): UserNode[] {
    if (!this.children) {
      const { bench, run, augment } = this.parent.ctx;
      const users = bench.users.get(this.row.platform) ?? new Map();
      const match = augment?.stepFilter();
      this.children = userRows(users, this.row.score, run !== undefined)
        .filter((row) => !match || row.user.steps.some((s) => match(row.user, s)))
        .map((row) => new UserNode(this, row));
    }
    return this.children;
  }

  user(userId: string): UserNode | undefined {
    this.byId ??= new Map(this.getChildren().map((u) => [u.row.user.userId, u]));
    return this.byId.get(userId);
  }

  tooltip(): vscode.MarkdownString {
    const { row } = this;
    const md = markdown();
    md.appendMarkdown(`**${row.label}** · ${row.users} users · ${row.steps} steps`);
    const s = row.score;
    if (s) {
      const m = s.metrics;
      md.appendMarkdown(
        `\n\nScored: ${s.users} users, ${s.steps} steps (M̄, two-level macro average)\n\n` +
          '| Recall | R_nov | R_stab | F1^NS |\n|---:|---:|---:|---:|\n' +
          `| ${pct(m.Recall)} | ${pct(m.Recall_Novelty)} | ${pct(m.Recall_Stability)} | ${pct(s.f1ns)} |\n\n` +
          '| Err decay | Err peer | Err viral | Err random |\n|---:|---:|---:|---:|\n' +
          `| ${pct(m.Error_Decay)} | ${pct(m.Error_Peer)} | ${pct(m.Error_Viral)} | ${pct(m.Error_Random)} |`,
      );
    } else {
      md.appendMarkdown('\n\nThe selected run has no results for this platform.');
    }
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
    if (score) {
      const m = score.metrics;
      md.appendMarkdown(
        `, ${score.steps} scored: Recall ${pct(m.Recall)}, R_nov ${pct(m.Recall_Novelty)}, ` +
          `R_stab ${pct(m.Recall_Stability)}, F1^NS ${pct(userF1ns(score))}`,
      );
    }
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
        label: `${this.row.label}, ${this.row.description}, ${STATUS_TEXT[this.row.status]}`,
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
    md.appendText(`${step.dateInput} → ${step.dateTarget}`);
    md.appendMarkdown(
      `\n\nPool: ${step.pool.length} tags; positives: ${split.tKeep.length} T_keep, ${split.tNew.length} T_new` +
        `\n\n${STATUS_TEXT[status]}`,
    );
    if (metrics) {
      md.appendMarkdown(
        `: Recall ${pct(metrics.Recall)}, R_nov ${pct(metrics.Recall_Novelty)}, R_stab ${pct(metrics.Recall_Stability)}`,
      );
    } else if (metrics === null) {
      md.appendMarkdown(' (no positives: T_keep and T_new are empty)');
    } else if (this.parent.parent.parent.ctx.run) {
      md.appendMarkdown(' (the selected run has no result for this step)');
    }
    md.appendMarkdown('\n\nClick to open the step.');
    return md;
  }
}
