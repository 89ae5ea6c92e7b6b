// The PersonaMem part of the Benchmarks tree: benchmark → (split, when there are several) → persona → question, with
// the selected run's figures: correct of answered on the benchmark and each persona, each question's type and its
// verdict icon. A question row opens the question view. Children are built on first expansion and kept.
import * as vscode from 'vscode';
import type { PmRunScore } from '../../../core/personamem/score';
import type { PersonaMemBench, PmQuestion, PmRun } from '../../../core/personamem/types';
import {
  personaIds,
  personaQuestions,
  questionVerdict,
  verdictCounts,
  type PmQuestionRef,
  type PmVerdict,
} from '../../../core/personamem/view';
import { SKILL_HEADS } from '../../../core/personamem/types';
import type { TreeNode } from '../../tree/node';
import { CHOOSE_RUN_COMMAND, OPEN_QUESTION_COMMAND } from './ids';
import { collapsedIf, folderName, markdown, namedTooltip, treeItem } from '../../treeItem';
import { compareBadgeUri } from '../../compare/badges';
import { personaMem } from '../../../core/personamem/format';

export interface PmTreeContext {
  bench: PersonaMemBench;
  run: PmRun | undefined;
  score: PmRunScore | undefined;
  descending: boolean;
  /** What another feature (labels) adds to a question row's description, if anything. */
  badge?: (q: PmQuestion) => string | undefined;
}

export const pmNodeId = {
  benchmark: (root: string) => `personamem/${root}`,
  split: (root: string, split: string) => `personamem/${root}/${split}`,
  persona: (root: string, split: string, persona: string) => `personamem/${root}/${split}/p/${persona}`,
  question: (root: string, ref: PmQuestionRef) => `personamem/${root}/${ref.split}/q/${ref.questionId}`,
};

/** The tree path of compare mode's badge (compare/badges.ts): split and persona, then the question. */
export const pmBadgePath = (split: string, personaId: string, questionId?: string): string[] =>
  questionId === undefined ? [split, personaId] : [split, personaId, questionId];

const VERDICT_ICON: Record<PmVerdict, { icon: string; color?: string; word: string }> = {
  right: { icon: 'pass', color: 'testing.iconPassed', word: 'right' },
  wrong: { icon: 'error', color: 'testing.iconFailed', word: 'wrong' },
  invalid: { icon: 'warning', color: 'list.warningForeground', word: 'no single letter' },
  unanswered: { icon: 'circle-outline', word: 'no answer' },
};

/** "7 of 12 right · 1 invalid", or the question count when the selected run does not answer this split. */
function countsText(verdicts: PmVerdict[], answered: boolean): string {
  if (!answered) return `${verdicts.length} question${verdicts.length === 1 ? '' : 's'}`;
  const c = verdictCounts(verdicts);
  const pct = c.answered ? `${Math.round((100 * c.right) / c.answered)}% ` : '';
  const left = c.total - c.answered;
  return `${pct}right (${c.right} of ${c.answered})${c.invalid ? ` · ${c.invalid} invalid` : ''}${left ? ` · ${left} unanswered` : ''}`;
}

function verdictsOf(ctx: PmTreeContext, questions: readonly PmQuestion[]): PmVerdict[] {
  return questions.map((q) => questionVerdict(ctx.score, ctx.run, q.questionId));
}

const answers = (ctx: PmTreeContext, split: string) => ctx.run !== undefined && ctx.run.split === split;

export class PmQuestionNode implements TreeNode {
  constructor(
    readonly parent: PmPersonaNode,
    private readonly ctx: PmTreeContext,
    readonly question: PmQuestion,
    private readonly position: number,
  ) {}

  get ref(): PmQuestionRef {
    return { split: this.question.split, questionId: this.question.questionId };
  }

  getTreeItem(): vscode.TreeItem {
    const q = this.question;
    const verdict = answers(this.ctx, q.split) ? questionVerdict(this.ctx.score, this.ctx.run, q.questionId) : null;
    const v = verdict ? VERDICT_ICON[verdict] : undefined;
    const head = SKILL_HEADS[q.skill] ?? q.skill;
    const badge = this.ctx.badge?.(q);
    return treeItem({
      label: `Q${this.position} ${head}`,
      state: vscode.TreeItemCollapsibleState.None,
      id: pmNodeId.question(this.ctx.bench.root, this.ref),
      contextValue: 'personaLab.personamem.question',
      icon: v?.icon ?? 'question',
      color: v?.color,
      description: [q.topic, v?.word, badge].filter(Boolean).join(' · '),
      // compare mode's badge; a resourceUri stops VS Code from asking resolveTreeItem for the tooltip
      resourceUri: compareBadgeUri(personaMem.id, pmBadgePath(q.split, q.personaId, q.questionId)),
      tooltip: this.tooltip(),
      accessibilityInformation: {
        label: `Question ${this.position}, ${head}, ${q.topic}${v ? `, ${v.word}` : ''}${badge ? `, ${badge}` : ''}`,
      },
      command: { title: 'Open Question', command: OPEN_QUESTION_COMMAND, arguments: [this.ref] },
    });
  }

  getChildren(): TreeNode[] {
    return [];
  }

  tooltip(): vscode.MarkdownString {
    const q = this.question;
    const md = namedTooltip(q.question, '\n\n');
    md.appendText(`${q.questionType} · ${q.topic} · end index ${q.endIndex ?? '?'} · ${q.questionId}`);
    return md;
  }
}

export class PmPersonaNode implements TreeNode {
  private children: PmQuestionNode[] | undefined;

  constructor(
    readonly parent: TreeNode,
    private readonly ctx: PmTreeContext,
    readonly split: string,
    readonly personaId: string,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const questions = this.getChildren().map((n) => n.question);
    return treeItem({
      label: `persona ${this.personaId}`,
      state: collapsedIf(questions.length > 0),
      id: pmNodeId.persona(this.ctx.bench.root, this.split, this.personaId),
      contextValue: 'personaLab.personamem.persona',
      icon: 'person',
      resourceUri: compareBadgeUri(personaMem.id, pmBadgePath(this.split, this.personaId)),
      tooltip: this.tooltip(),
      description: countsText(verdictsOf(this.ctx, questions), answers(this.ctx, this.split)),
    });
  }

  getChildren(): PmQuestionNode[] {
    this.children ??= personaQuestions(this.ctx.bench, this.split, this.personaId).map(
      (q, i) => new PmQuestionNode(this, this.ctx, q, i + 1),
    );
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    return namedTooltip(`persona ${this.personaId}`, ` · ${this.split} split`);
  }
}

function personaNodes(parent: TreeNode, ctx: PmTreeContext, split: string): PmPersonaNode[] {
  const ids = personaIds(ctx.bench, split);
  if (ctx.descending) ids.reverse();
  return ids.map((id) => new PmPersonaNode(parent, ctx, split, id));
}

export class PmSplitNode implements TreeNode {
  private children: PmPersonaNode[] | undefined;

  constructor(
    readonly parent: PmBenchmarkNode,
    private readonly ctx: PmTreeContext,
    readonly split: string,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const questions = this.ctx.bench.splits.get(this.split)?.questions ?? [];
    return treeItem({
      label: this.split,
      state: vscode.TreeItemCollapsibleState.Collapsed,
      id: pmNodeId.split(this.ctx.bench.root, this.split),
      contextValue: 'personaLab.personamem.split',
      icon: 'files',
      description: countsText(verdictsOf(this.ctx, questions), answers(this.ctx, this.split)),
    });
  }

  getChildren(): PmPersonaNode[] {
    this.children ??= personaNodes(this, this.ctx, this.split);
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    return namedTooltip(`questions_${this.split}.csv`, '');
  }
}

export class PmBenchmarkNode implements TreeNode {
  readonly parent = undefined;
  private children: TreeNode[] | undefined;

  constructor(readonly ctx: PmTreeContext) {}

  getTreeItem(): vscode.TreeItem {
    const { bench, run } = this.ctx;
    const split = run?.split;
    // the figure first, as the other benchmark rows give theirs (a long row is cut at its end)
    const figures =
      run && split ? `${countsText(verdictsOf(this.ctx, bench.splits.get(split)?.questions ?? []), true)} · ` : '';
    return treeItem({
      label: folderName(bench.root),
      state: vscode.TreeItemCollapsibleState.Expanded,
      id: pmNodeId.benchmark(bench.root),
      contextValue: 'personaLab.personamem.benchmark',
      icon: 'beaker',
      description: `${figures}${run ? `run: ${run.name} · ` : ''}PersonaMem`,
      command: { title: 'Choose PersonaMem Run…', command: CHOOSE_RUN_COMMAND, arguments: [] },
    });
  }

  getChildren(): TreeNode[] {
    const splits = [...this.ctx.bench.splits.keys()];
    this.children ??=
      splits.length === 1
        ? personaNodes(this, this.ctx, splits[0])
        : splits.map((s) => new PmSplitNode(this, this.ctx, s));
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const { bench, run, score } = this.ctx;
    const md = markdown();
    md.appendMarkdown('**PersonaMem** ');
    md.appendText(bench.root);
    const questions = [...bench.splits.values()].reduce((n, s) => n + s.questions.length, 0);
    md.appendMarkdown(
      `\n\n${bench.splits.size} split(s), ${questions} question(s), ${bench.runs.size} run(s); selected: `,
    );
    if (run) md.appendText(run.name);
    else md.appendMarkdown('none');
    md.appendMarkdown(' (click the row to choose another)');
    if (score)
      md.appendMarkdown(`\n\n${score.unreadable} answer(s) name no single letter (scored wrong, as the authors do)`);
    if (bench.diagnostics.length) md.appendMarkdown(`\n\n${bench.diagnostics.length} loading problem(s)`);
    return md;
  }
}
