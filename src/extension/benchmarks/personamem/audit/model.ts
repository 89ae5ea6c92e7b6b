// What the PI Audit tree shows of a PersonaMem audit, as plain data: one category's findings by split, then by
// context (its persona named), its counts per source and part, a finding's description, and the findings a question
// view shows. No `vscode` import (unit-tested).
import { findingsInQuestion, type PmAuditFinding, type PmAuditResult } from '../../../../core/personamem/audit';
import type { PiCategory } from '../../../../core/pi/placeholders';
import type { Verdict } from '../../../../core/pi/verdicts';
import type { PmPiFinding, QuestionRef } from '../../../../shared/personamem/questionProtocol';
import { byFindingsThenName, categorySources, VERDICT_TEXT } from '../../../audit/model';

export interface PmContextGroup {
  /** The row's label (the generic user row shows it): `persona 0 · context ffceffe9`. */
  userId: string;
  contextId: string;
  findings: PmAuditFinding[];
}

export interface PmSplitGroup {
  split: string;
  findings: PmAuditFinding[];
  contexts: PmContextGroup[];
}

/** One category's PersonaMem findings and placeholders; undefined from groupPersonaMem when it has neither. */
export interface PmCategoryGroup {
  category: PiCategory;
  benchmark: string;
  placeholders: number;
  findings: PmAuditFinding[];
  /** per source ('data' or a run) and part */
  bySource: { source: string; part: string; placeholders: number; findings: number }[];
  splits: PmSplitGroup[];
}

/** `persona 0 · context ffceffe9`: the persona a context is of, and the start of its id. */
export function contextLabel(f: Pick<PmAuditFinding, 'userId' | 'contextId'>): string {
  const ctx = f.contextId ? `context ${f.contextId.slice(0, 8)}` : 'no context';
  return f.userId ? `persona ${f.userId} · ${ctx}` : ctx;
}

const byPlace = (a: PmAuditFinding, b: PmAuditFinding): number =>
  (a.messageIndex ?? Infinity) - (b.messageIndex ?? Infinity) ||
  (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.start - b.start);

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of items) out.set(key(t), [...(out.get(key(t)) ?? []), t]);
  return out;
}

export function groupPersonaMem(
  result: Pick<PmAuditResult, 'findings' | 'counts' | 'benchmark'>,
  category: PiCategory,
): PmCategoryGroup | undefined {
  const findings = result.findings.filter((f) => f.category === category);
  const { placeholders, bySource } = categorySources(result.counts, category);
  if (!findings.length && !bySource.length) return undefined;
  const splits = [...groupBy(findings, (f) => f.split)].map(([split, list]) => ({
    split,
    findings: list,
    contexts: [...groupBy(list, (f) => f.contextId)]
      .map(([contextId, mine]) => ({ userId: contextLabel(mine[0]), contextId, findings: mine.sort(byPlace) }))
      .sort(byFindingsThenName),
  }));
  return {
    category,
    benchmark: result.benchmark,
    placeholders,
    findings,
    bySource,
    splits,
  };
}

/** `message #8 · high`, `options · medium`, `run 32k_m · response · high`, and the verdict when there is one. */
export function pmFindingDescription(f: PmAuditFinding, verdict: Verdict | undefined): string {
  const parts: string[] = [];
  if (f.run !== null) parts.push(`run ${f.run}`);
  parts.push(f.messageIndex !== null ? `message #${f.messageIndex}` : f.part);
  if (f.questionId === null) parts.push('no question sees it');
  parts.push(f.confidence);
  if (verdict) parts.push(VERDICT_TEXT[verdict]);
  return parts.join(' · ');
}

export function pmPiFinding(f: PmAuditFinding): PmPiFinding {
  return {
    key: f.key,
    part: f.part,
    index: f.messageIndex,
    run: f.run,
    category: f.category,
    confidence: f.confidence,
    value: f.text,
    reason: f.reason,
  };
}

/** Findings sent to the page at most (a long history can hold thousands; the page says how many there are). */
const MAX_SENT = 500;

/** What the question view of `ref` lists: the findings in its history, question, options and `run`'s response. */
export function questionFindings(
  findings: readonly PmAuditFinding[],
  q: { split: string; questionId: string; contextId: string; endIndex: number | undefined } | undefined,
  run: string | undefined,
): { findings: PmPiFinding[]; found: number } {
  if (!q) return { findings: [], found: 0 };
  const all = findingsInQuestion(findings, q, run);
  return { findings: all.slice(0, MAX_SENT).map(pmPiFinding), found: all.length };
}

export const refOf = (f: Pick<PmAuditFinding, 'split' | 'questionId'>): QuestionRef | undefined =>
  f.questionId === null ? undefined : { split: f.split, questionId: f.questionId };
