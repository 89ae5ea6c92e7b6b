// What the PI Audit tree shows, as plain data, whatever the benchmark: node ids, verdict tallies, the category row's
// description, a finding's text for a label, and the view's message. Each format's grouping is in its own folder
// (its audit part, part.ts). No `vscode` import, so it is unit-tested.
import type { PiCategory } from '../../core/pi/placeholders';
import type { PartCountRow } from '../../core/pi/report';
import type { AuditScanned } from '../../core/pi/tally';
import type { Verdict } from '../../core/pi/verdicts';

export const count = (n: number, one: string, many = one + 's'): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** TreeItem ids: stable across re-runs, so VS Code keeps what was expanded and selected. */
export const auditNodeId = {
  category: (c: PiCategory): string => `pi/${c}`,
  platform: (c: PiCategory, p: string): string => `pi/${c}/${p}`,
  user: (c: PiCategory, p: string, userId: string): string => `pi/${c}/${p}/${userId}`,
  finding: (key: string): string => `pi-finding/${key}`,
};

export type VerdictOf = (key: string) => Verdict | undefined;

export interface VerdictTally {
  /** Findings that are not false positives (what still needs attention: the row is orange while any is). */
  open: number;
  confirmed: number;
  falsePositive: number;
  needsReview: number;
  /** No verdict yet. */
  unreviewed: number;
}

export function tally(findings: readonly { key: string }[], verdictOf: VerdictOf): VerdictTally {
  const t: VerdictTally = { open: 0, confirmed: 0, falsePositive: 0, needsReview: 0, unreviewed: 0 };
  for (const f of findings) {
    const v = verdictOf(f.key);
    if (v === 'false-positive') t.falsePositive++;
    else t.open++;
    if (v === 'confirmed-leak') t.confirmed++;
    else if (v === 'needs-review') t.needsReview++;
    else if (v === undefined) t.unreviewed++;
  }
  return t;
}

/**
 * "1 open · 1 confirmed · 1 needs review · 1 false positive": one count per verdict, adding up to the findings
 * ("open": no verdict yet). Zero counts are left out, except open.
 */
export function tallyText(t: VerdictTally): string {
  const parts = [count(t.unreviewed, 'open', 'open')];
  if (t.confirmed) parts.push(`${t.confirmed.toLocaleString('en-US')} confirmed`);
  if (t.needsReview) parts.push(`${t.needsReview.toLocaleString('en-US')} needs review`);
  if (t.falsePositive) parts.push(count(t.falsePositive, 'false positive'));
  return parts.join(' · ');
}

export function categoryDescription(
  g: { findings: readonly { key: string }[]; placeholders: number },
  verdictOf: VerdictOf,
): string {
  return `${tallyText(tally(g.findings, verdictOf))} · ${count(g.placeholders, 'placeholder')}`;
}

/** One category's counts of an audit counted per source and part: the rows with something, and their placeholders. */
export function categorySources(
  counts: readonly PartCountRow[],
  category: PiCategory,
): { placeholders: number; bySource: PartCountRow[] } {
  const bySource = counts.filter((r) => r.category === category && (r.placeholders || r.findings));
  return { placeholders: bySource.reduce((s, r) => s + r.placeholders, 0), bySource };
}

/** Groups (users, contexts) with the most findings first, then by name. */
export const byFindingsThenName = (
  a: { userId: string; findings: readonly unknown[] },
  b: { userId: string; findings: readonly unknown[] },
): number => b.findings.length - a.findings.length || a.userId.localeCompare(b.userId);

export const VERDICT_TEXT: Record<Verdict, string> = {
  'confirmed-leak': 'confirmed leak',
  'false-positive': 'false positive',
  'needs-review': 'needs review',
};

/** The field without its array path: `prediction_tasks[1].posts_text` → `posts_text`, `steps[0].prediction[2]` → `prediction`. */
export function fieldName(field: string): string {
  const last = field.split('.').pop() ?? field;
  return last.replace(/\[\d+\]$/, '');
}

// Invisible characters (zero-width, bidi controls, BOM) and control characters: shown, not hidden, in a label.
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** A one-line label of a finding's text: control characters become spaces, invisible ones a visible ␣. */
export function displayText(text: string, max = 80): string {
  const shown = text.replace(CONTROL, ' ').replace(INVISIBLE, '␣');
  return shown.length > max ? shown.slice(0, max - 1) + '…' : shown;
}

export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  const found = INVISIBLE.test(text);
  INVISIBLE.lastIndex = 0;
  return found;
}

/** Up to `width` characters of the scanned text on each side of the span, for a tooltip. */
export function contextAround(
  text: string,
  start: number,
  end: number,
  width = 80,
): { before: string; match: string; after: string } {
  const from = Math.max(0, start - width);
  const to = Math.min(text.length, end + width);
  return {
    before: (from > 0 ? '…' : '') + text.slice(from, start),
    match: text.slice(start, end),
    after: text.slice(end, to) + (to < text.length ? '…' : ''),
  };
}

export type AutoRun = 'small' | 'always' | 'never';

export function isAutoRun(v: unknown): v is AutoRun {
  return v === 'small' || v === 'always' || v === 'never';
}

/** Whether a benchmark of `bytes` is audited by itself when it loads. */
export function shouldAutoRun(mode: AutoRun, bytes: number, maxMB: number): boolean {
  if (mode === 'never') return false;
  if (mode === 'always') return true;
  return bytes <= Math.max(0, maxMB) * 1024 * 1024;
}

/** One fact of the audit's summary, shown as a tree row: `label` the row's name, `value` its description. */
export interface SummaryFact {
  label: string;
  value: string;
}

/** A benchmark's audit as the summary reads it. */
export interface SummarisedResult {
  scanned: AuditScanned;
  problems: string[];
  cancelled: boolean;
  findings: readonly { key: string }[];
  counts: readonly { placeholders: number }[];
}

/** "2026-12-06 02:10" in local time: when the audit ran. */
export function ranAtText(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ${p(at.getHours())}:${p(at.getMinutes())}`;
}

/**
 * One benchmark's audit, one fact per row (the summary was one run-on line): findings, each verdict's count (open
 * always, the others when not zero), placeholders, files scanned, what was skipped, and whether it was cancelled.
 */
export function summaryFacts(result: SummarisedResult, verdictOf: VerdictOf): SummaryFact[] {
  const t = tally(result.findings, verdictOf);
  const n = (x: number) => x.toLocaleString('en-US');
  const facts: SummaryFact[] = [];
  if (result.cancelled) facts.push({ label: 'Cancelled', value: 'partial results' });
  facts.push({ label: 'Findings', value: n(result.findings.length) });
  facts.push({ label: 'Open', value: `${n(t.unreviewed)} (no verdict yet)` });
  if (t.confirmed) facts.push({ label: 'Confirmed leaks', value: n(t.confirmed) });
  if (t.needsReview) facts.push({ label: 'Needs review', value: n(t.needsReview) });
  if (t.falsePositive) facts.push({ label: 'False positives', value: n(t.falsePositive) });
  facts.push({ label: 'Placeholders', value: n(result.counts.reduce((s, r) => s + r.placeholders, 0)) });
  facts.push({ label: 'Files scanned', value: n(result.scanned.files) });
  if (result.problems.length)
    facts.push({ label: 'Unreadable lines or files skipped', value: n(result.problems.length) });
  return facts;
}
