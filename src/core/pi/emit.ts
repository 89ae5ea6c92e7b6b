// How the pattern detectors report what they find: an `emit` callback, and the regex-match shortcuts they share.
import { distanceTo } from './context';
import type { Candidate, Confidence } from './types';

export type Emit = (
  category: Candidate['category'],
  confidence: Confidence,
  start: number,
  end: number,
  reason: string,
) => void;

/** The candidates that `detect` emits, in order. */
export function collect(detect: (emit: Emit) => void): Candidate[] {
  const out: Candidate[] = [];
  detect((category, confidence, start, end, reason) => out.push({ category, confidence, start, end, reason }));
  return out;
}

/** Reports a regex match (or a part of it) as a candidate. */
type EmitMatch = (
  emit: Emit,
  category: Candidate['category'],
  confidence: Confidence,
  m: RegExpExecArray,
  reason: string,
) => void;

/** Emits the whole match. */
export const emitMatch: EmitMatch = (emit, category, confidence, m, reason) =>
  emit(category, confidence, m.index, m.index + m[0].length, reason);

/** Emits the match's first group only (its last place in the match), so that a trigger word before it stays. */
export const emitGroup: EmitMatch = (emit, category, confidence, m, reason) => {
  const start = m.index + m[0].lastIndexOf(m[1]);
  emit(category, confidence, start, start + m[1].length, reason);
};

/** Whether one of `words` stands within `before` characters before the match or `after` characters after it. */
export function nearMatch(lower: string, m: RegExpExecArray, words: readonly string[], before: number, after: number) {
  return distanceTo(lower, m.index, m.index + m[0].length, words, before, after) < Infinity;
}
