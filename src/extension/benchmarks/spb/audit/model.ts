// The StreamProfileBench part of the PI Audit tree as plain data: findings grouped category → platform → user, the
// placeholder and finding counts per category and platform, and the rows' descriptions. No `vscode` import, so it
// is unit-tested; nodes.ts only turns these into TreeItems.
import type { AuditFinding, AuditResult } from '../../../../core/spb/pi/audit';
import { PI_CATEGORIES, type PiCategory } from '../../../../core/pi/placeholders';
import type { Verdict } from '../../../../core/pi/verdicts';
import { PLATFORMS, type Platform } from '../../../../core/spb/types';
import { count, fieldName, tally, tallyText, VERDICT_TEXT, type VerdictOf } from '../../../audit/model';

/** Placeholders and findings of one category on one platform, in total and per source ('tasks' or a run name). */
export interface PlatformCounts {
  placeholders: number;
  findings: number;
  bySource: { source: string; placeholders: number; findings: number }[];
}

export interface UserGroup {
  userId: string;
  findings: AuditFinding[];
}

export interface PlatformGroup {
  platform: Platform;
  counts: PlatformCounts;
  /** Users with findings, most findings first. */
  users: UserGroup[];
}

export interface CategoryGroup {
  category: PiCategory;
  placeholders: number;
  findings: AuditFinding[];
  /** Platforms with a placeholder or a finding of this category, in the benchmark's platform order. */
  platforms: PlatformGroup[];
}

const byLocation = (a: AuditFinding, b: AuditFinding): number =>
  a.file < b.file
    ? -1
    : a.file > b.file
      ? 1
      : a.line - b.line || (a.field < b.field ? -1 : a.field > b.field ? 1 : a.start - b.start);

/** All ten categories, each with its platforms and users; a category without placeholders or findings has none. */
export function groupAudit(result: Pick<AuditResult, 'findings' | 'counts'>): CategoryGroup[] {
  return PI_CATEGORIES.map((category) => {
    const findings = result.findings.filter((f) => f.category === category).sort(byLocation);
    const rows = result.counts.filter((r) => r.category === category);
    const platforms: PlatformGroup[] = [];
    for (const platform of PLATFORMS) {
      const mine = rows.filter((r) => r.platform === platform);
      const pf = findings.filter((f) => f.platform === platform);
      if (!mine.length && !pf.length) continue;
      const counts: PlatformCounts = {
        placeholders: mine.reduce((s, r) => s + r.placeholders, 0),
        findings: mine.reduce((s, r) => s + r.findings, 0),
        bySource: mine.map((r) => ({ source: r.source, placeholders: r.placeholders, findings: r.findings })),
      };
      const users = new Map<string, AuditFinding[]>();
      for (const f of pf) {
        const list = users.get(f.userId);
        if (list) list.push(f);
        else users.set(f.userId, [f]);
      }
      const userGroups = [...users].map(([userId, list]) => ({ userId, findings: list }));
      userGroups.sort(
        (a, b) => b.findings.length - a.findings.length || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0),
      );
      platforms.push({ platform, counts, users: userGroups });
    }
    return { category, placeholders: platforms.reduce((s, p) => s + p.counts.placeholders, 0), findings, platforms };
  });
}

export function platformDescription(g: PlatformGroup, verdictOf: VerdictOf): string {
  const findings = g.users.flatMap((u) => u.findings);
  return `${tallyText(tally(findings, verdictOf))} · ${count(g.counts.placeholders, 'placeholder')}`;
}

export function userDescription(g: UserGroup, verdictOf: VerdictOf): string {
  return tallyText(tally(g.findings, verdictOf));
}

/** `step 2 · posts_text · high`, with the run for personas and reasoning and the verdict when there is one. */
export function findingDescription(f: AuditFinding, verdict: Verdict | undefined): string {
  const parts = [f.stepId === null ? 'profile' : `step ${f.stepId}`, fieldName(f.field)];
  if (f.run !== null) parts.unshift(`run ${f.run}`);
  parts.push(f.confidence);
  if (verdict) parts.push(VERDICT_TEXT[verdict]);
  return parts.join(' · ');
}
