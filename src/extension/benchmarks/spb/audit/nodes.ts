// The StreamProfileBench part of the PI Audit tree, below each category: platform → user → finding (the user and
// finding rows are findingNodes.ts'). A finding opens its step in the step view with the span outlined (a bio: the
// user's first step, where the header shows it), or its source line pretty-printed. Dataset text reaches tooltips
// only through appendText (escaped).
import * as vscode from 'vscode';
import { readUserRecord } from '../../../../core/spb/format/load';
import type { AuditFinding, AuditResult } from '../../../../core/spb/pi/audit';
import { chainShort, chainText } from '../../../../core/spb/pi/chains';
import { CATEGORY_INFO } from '../../../../core/pi/placeholders';
import { PLATFORM_LABELS } from '../../../../core/spb/score/tables';
import type { Benchmark, Platform } from '../../../../core/spb/types';
import type { SpbStore, StepRef } from '../store';
import { collapsedIf, markdown, treeItem } from '../../../treeItem';
import { AuditUserNode, type FindingFormat } from '../../../audit/findingNodes';
import { valueAt } from '../../../audit/locate';
import { auditNodeId, contextAround, count } from '../../../audit/model';
import type { AuditNode, CategoryParent } from '../../../audit/nodeTypes';
import { findingDescription, platformDescription, type PlatformGroup } from './model';
import { openSource, openStep } from './open';

function sourceLabel(source: string): string {
  return source === 'tasks' ? 'tasks data' : `run ${source}`;
}

export class AuditPlatformNode implements AuditNode {
  private children: AuditUserNode<AuditFinding>[] | undefined;

  constructor(
    readonly parent: CategoryParent,
    readonly group: PlatformGroup,
    private readonly findings: FindingFormat<AuditFinding>,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { platform, users } = this.group;
    return treeItem({
      label: PLATFORM_LABELS[platform],
      state: collapsedIf(users.length > 0),
      id: auditNodeId.platform(this.parent.group.category, platform),
      contextValue: 'auditPlatform',
      icon: 'globe',
      description: platformDescription(this.group, this.parent.ctx.verdictOf),
    });
  }

  getChildren(): AuditUserNode<AuditFinding>[] {
    if (!this.children) {
      const { ctx, group } = this.parent;
      const { platform, users } = this.group;
      this.children = users.map(
        (u) => new AuditUserNode(this, ctx, this.findings, u, auditNodeId.user(group.category, platform, u.userId)),
      );
    }
    return this.children;
  }

  tooltip(): vscode.MarkdownString {
    const { platform, counts } = this.group;
    const md = markdown();
    md.appendMarkdown(`**${PLATFORM_LABELS[platform]}** · ${CATEGORY_INFO[this.parent.group.category].label}\n\n`);
    md.appendMarkdown('| source | placeholders | findings |\n|---|---:|---:|\n');
    for (const s of counts.bySource) {
      md.appendMarkdown('| ');
      md.appendText(sourceLabel(s.source));
      md.appendMarkdown(` | ${s.placeholders} | ${s.findings} |\n`);
    }
    return md;
  }
}

/** Where a finding of one platform opens: `bench` is the load that was audited, `store` the open benchmark. */
export interface FindingSource {
  result: AuditResult;
  bench: Benchmark | undefined;
  store: SpbStore;
}

/** A StreamProfileBench finding opens its step (the user's first for a bio) with the span outlined, or its source line. */
export function spbFindings({ result, bench, store }: FindingSource, platform: Platform): FindingFormat<AuditFinding> {
  const userOf = (userId: string) => bench?.users.get(platform)?.get(userId);
  /** The step to open: the finding's, or the user's first for a bio; undefined when the user is not loaded. */
  const stepRef = (f: AuditFinding): StepRef | undefined => {
    if (f.stepId !== null) return { platform: f.platform, userId: f.userId, stepId: f.stepId };
    const first = userOf(f.userId)?.steps[0];
    return first ? { platform: f.platform, userId: f.userId, stepId: first.stepId } : undefined;
  };
  /** The text around the span, for findings in the tasks data (re-read from the user's line); undefined for runs. */
  const context = (f: AuditFinding): ReturnType<typeof contextAround> | undefined => {
    if (f.run !== null) return undefined;
    const user = userOf(f.userId);
    if (!user || user.ref.line !== f.line) return undefined;
    try {
      const value = valueAt(readUserRecord(user), f.field);
      return typeof value === 'string' && value.slice(f.start, f.end) === f.text
        ? contextAround(value, f.start, f.end)
        : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    userWhere: ` · ${PLATFORM_LABELS[platform]}`,
    userLine(userId) {
      const user = userOf(userId);
      return user && `${user.username || '(no username)'} · ${count(user.steps.length, 'step')}`;
    },
    contextValue: 'auditFinding',
    openTitle: 'Open in the Step View',
    describe: findingDescription,
    body(f, md) {
      const around = context(f);
      if (!around) return void md.appendText(f.text);
      const oneLine = (s: string) => s.replace(/\s+/g, ' ');
      md.appendText(oneLine(around.before));
      md.appendMarkdown('**');
      md.appendText(oneLine(around.match));
      md.appendMarkdown('**');
      md.appendText(oneLine(around.after));
    },
    clickHint: () =>
      'Click to open the step with the finding outlined; right-click to open its source line, or for verdicts.',
    open: (f) => openSource(f, result.root),
    openInView: (f) => openStep(f, stepRef(f), store),
    chainsOf(findings) {
      const mine = new Set(findings.map((f) => f.key));
      const byKey = new Map(findings.map((f) => [f.key, f]));
      return (result.chains ?? [])
        .filter((c) => c.platform === platform && c.findings.some((k) => mine.has(k)))
        .map((c) => ({
          id: `audit/chain/${c.run}/${c.platform}/${c.userId}/${c.findings[0]}`,
          label: c.text,
          description: chainShort(c),
          sentence: `In run ${c.run}: ${chainText(c)}.`,
          findings: c.findings.flatMap((k) => byKey.get(k) ?? []),
        }));
    },
  };
}
