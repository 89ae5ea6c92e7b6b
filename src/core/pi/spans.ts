// PI marks of the texts an item view shows: placeholders (<PHONE>, ...) and residual findings, as spans the extension
// host computes (each format's marks, with the scanner) and the webview cuts its text nodes by. No scanner here:
// webviews import this module.
import { object, oneOf, str } from '../guards';
import { PI_CATEGORIES, type PiCategory } from './placeholders';
import type { Confidence } from './types';

export interface PiMark {
  kind: 'placeholder' | 'finding';
  category: PiCategory;
  /** UTF-16 offsets into the field's text */
  start: number;
  end: number;
  /** a finding's confidence; null for placeholders */
  confidence: Confidence | null;
  /** a finding's reason, e.g. "mainland mobile number"; '' for placeholders */
  reason: string;
  /** a persona's finding: the chain of its value through the user's personas (its format's chain sentence) */
  chain?: string;
}

export interface PiLegendRow {
  category: PiCategory;
  placeholders: number;
  findings: number;
}

/** The marks of one step, by field key (fieldKey), and the legend of the categories present. */
export interface StepPiMarks {
  fields: Record<string, PiMark[]>;
  /** categories with a placeholder or finding, in PI_CATEGORIES order */
  legend: PiLegendRow[];
  placeholders: number;
  findings: number;
}

export const EMPTY_PI: StepPiMarks = { fields: {}, legend: [], placeholders: 0, findings: 0 };

/** Keys of the texts the step view marks. */
export const fieldKey = {
  bio: 'bio',
  postsRaw: 'postsRaw',
  postContent: (post: number) => `post/${post}/content`,
  postField: (post: number, field: number) => `post/${post}/field/${field}`,
  personaReceived: 'persona/received',
  personaWritten: 'persona/written',
  /** a part of the persona's word diff */
  diff: (part: number) => `persona/diff/${part}`,
  reasoning: 'reasoning',
  /** a tag of the candidate pool, or a pick outside it (by its text: a tag shows once per step) */
  tag: (tag: string) => `tag/${tag}`,
  /** the texts of two answers side by side, per side ('original' / 'rerun', or run 'a' / 'b') */
  cmp: (side: string, text: 'personaIn' | 'personaWritten' | 'reasoning') => `cmp/${side}/${text}`,
  cmpDiff: (part: number) => `cmp/diff/${part}`,
} as const;

export interface Segment {
  text: string;
  mark: PiMark | null;
  /** the segment holds the mark's first character (where a finding's icon goes) */
  first: boolean;
}

/**
 * Cuts text[from, to) by the marks. Marks out of range, not integer, empty or overlapping an earlier one are
 * ignored (the text is kept as plain text); a mark that crosses from/to is clipped.
 */
export function segmentText(text: string, marks: readonly PiMark[] | undefined, from = 0, to = text.length): Segment[] {
  const lo = Math.max(0, from);
  const hi = Math.min(text.length, to);
  const out: Segment[] = [];
  if (hi <= lo) return out;
  const valid = (marks ?? [])
    .filter(
      (m) =>
        Number.isInteger(m.start) && Number.isInteger(m.end) && m.start >= 0 && m.end <= text.length && m.start < m.end,
    )
    .sort((a, b) => a.start - b.start);
  let pos = lo;
  let last = 0;
  for (const m of valid) {
    if (m.start < last) continue;
    last = m.end;
    const s = Math.max(m.start, lo);
    const e = Math.min(m.end, hi);
    if (e <= s) continue;
    if (s > pos) out.push({ text: text.slice(pos, s), mark: null, first: false });
    out.push({ text: text.slice(s, e), mark: m, first: s === m.start });
    pos = e;
  }
  if (pos < hi) out.push({ text: text.slice(pos, hi), mark: null, first: false });
  return out;
}

// ---- an audit finding shown in a view

/**
 * Where a view shows a finding's text. Step view: the bio, the posts, the persona written, the reasoning, a tag
 * (pool or pick). Trace view: the profile, a history record (its text below the timeline), the test action's own
 * record (the scene context), the prediction.
 */
export const PI_AREAS = [
  'bio',
  'posts',
  'persona',
  'reasoning',
  'tag',
  'profile',
  'record',
  'action',
  'prediction',
] as const;
export type PiArea = (typeof PI_AREAS)[number];

/** The finding a view highlights (outlined and scrolled into view): its audit key, where it is, and its text. */
export interface PiHighlight {
  key: string;
  area: PiArea;
  category: PiCategory;
  text: string;
}

export const isPiHighlight = object({ key: str, area: oneOf(PI_AREAS), category: oneOf(PI_CATEGORIES), text: str });
