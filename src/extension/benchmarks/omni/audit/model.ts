// What the PI Audit tree shows of an OmniBehavior audit, as plain data: one category's findings by user, its
// placeholder and finding counts per source and part, and a finding's description. No `vscode` import (unit-tested).
import type { OmniAuditFinding, OmniAuditResult } from '../../../../core/omni/piAudit';
import type { PiCategory } from '../../../../core/pi/placeholders';
import type { Verdict } from '../../../../core/pi/verdicts';
import { byFindingsThenName, categorySources, fieldName, VERDICT_TEXT } from '../../../audit/model';

export interface OmniUserGroup {
  userId: string;
  findings: OmniAuditFinding[];
}

/** One category's OmniBehavior findings and placeholders; undefined from groupOmni when it has neither. */
export interface OmniCategoryGroup {
  category: PiCategory;
  benchmark: string;
  placeholders: number;
  findings: OmniAuditFinding[];
  /** per source ('raw' or a run) and part */
  bySource: { source: string; part: string; placeholders: number; findings: number }[];
  users: OmniUserGroup[];
}

const byLocation = (a: OmniAuditFinding, b: OmniAuditFinding): number =>
  a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.start - b.start;

export function groupOmni(
  result: Pick<OmniAuditResult, 'findings' | 'counts' | 'benchmark'>,
  category: PiCategory,
): OmniCategoryGroup | undefined {
  const findings = result.findings.filter((f) => f.category === category).sort(byLocation);
  const { placeholders, bySource } = categorySources(result.counts, category);
  if (!findings.length && !bySource.length) return undefined;
  const users = new Map<string, OmniAuditFinding[]>();
  for (const f of findings) users.set(f.userId, [...(users.get(f.userId) ?? []), f]);
  return {
    category,
    benchmark: result.benchmark,
    placeholders,
    findings,
    bySource,
    users: [...users].map(([userId, list]) => ({ userId, findings: list })).sort(byFindingsThenName),
  };
}

/** `#1149 · history 1147 · caption · high`: where the finding sits in the trace, and the verdict when there is one. */
export function omniFindingDescription(f: OmniAuditFinding, verdict: Verdict | undefined): string {
  const parts: string[] = [];
  if (f.run !== null) parts.push(`run ${f.run}`);
  parts.push(f.testAction === null ? 'no test action' : `#${f.testAction}`);
  if (f.historyIndex !== null) parts.push(`history ${f.historyIndex}`);
  parts.push(f.part === 'profile' ? 'profile' : fieldName(f.field), f.confidence);
  if (verdict) parts.push(VERDICT_TEXT[verdict]);
  return parts.join(' · ');
}
