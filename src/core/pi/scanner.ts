// The residual-PI scanner: every detector over a normalised copy of the text, overlaps resolved, spans mapped back.
import { patternCandidates } from './detectors';
import { normalize, toOriginal, FILL } from './normalize';
import { netGeoCandidates } from './netgeo';
import { numericCandidates } from './numeric';
import { PI_CATEGORIES, type PiCategory } from './placeholders';
import { selfCandidates } from './self';
import { CONFIDENCE_RANK, type Candidate, type Finding, type ScanOptions } from './types';

export type { Confidence, Finding, ScanOptions } from './types';

// Ties between equally confident, equally long overlapping candidates go to the more specific category.
const PRIORITY: Record<PiCategory, number> = {
  EMAIL: 10,
  ID: 9,
  BANK: 8,
  CONTACT: 7,
  DEVICE: 6,
  PHONE: 5,
  IP: 4,
  GEO: 3,
  PLATE: 2,
  SELF: 1,
};

/** Keeps the best of overlapping candidates: higher confidence, then longer, then more specific. */
export function resolveOverlaps<T extends Candidate>(cands: readonly T[]): T[] {
  const order = [...cands].sort(
    (a, b) =>
      CONFIDENCE_RANK[b.confidence] - CONFIDENCE_RANK[a.confidence] ||
      b.end - b.start - (a.end - a.start) ||
      PRIORITY[b.category] - PRIORITY[a.category] ||
      a.start - b.start,
  );
  const kept: T[] = [];
  for (const c of order) {
    if (kept.every((k) => c.end <= k.start || c.start >= k.end)) kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Scans one text. Never throws: anything that is not a string has no findings. */
export function scanText(text: string, opts: ScanOptions = {}): Finding[] {
  if (typeof text !== 'string' || text.length === 0) return [];
  const n = normalize(text);
  const now = opts.now ?? new Date();
  const wanted = new Set<PiCategory>(opts.categories ?? PI_CATEGORIES);
  const min = CONFIDENCE_RANK[opts.minConfidence ?? 'low'];
  const cands = [
    ...numericCandidates(n.text, n.lower, now),
    ...patternCandidates(n.text, n.lower),
    ...netGeoCandidates(n.text, n.lower),
    ...selfCandidates(n.text),
  ].filter(
    (c) =>
      wanted.has(c.category) &&
      CONFIDENCE_RANK[c.confidence] >= min &&
      c.end > c.start &&
      !n.text.slice(c.start, c.end).includes(FILL),
  );
  return resolveOverlaps(cands).map((c) => {
    const span = toOriginal(n, c.start, c.end);
    return { ...c, start: span.start, end: span.end, text: text.slice(span.start, span.end) };
  });
}
