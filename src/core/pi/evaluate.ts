// Precision and recall of the scanner on a labelled set (test/fixtures/pi-labelled.jsonl): one JSON object a line,
// {text, expect: [{category, text}]}. A finding counts when its category and its exact text match an expected one.
import { isPiCategory, PI_CATEGORIES, type PiCategory } from './placeholders';
import { scanText } from './scanner';
import { CONFIDENCE_RANK, type Confidence, type Finding } from './types';

export interface LabelledCase {
  line: number;
  text: string;
  expect: { category: PiCategory; text: string }[];
}

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

export interface Evaluation {
  cases: number;
  perCategory: Record<PiCategory, Tally>;
  overall: Tally;
  /** Wrong or missing findings, for the report. */
  errors: { line: number; kind: 'fp' | 'fn'; category: PiCategory; text: string }[];
}

/** Parses the labelled set; lines that are not a valid case are listed in `skipped`, never thrown. */
export function parseLabelled(content: string): { cases: LabelledCase[]; skipped: number[] } {
  const cases: LabelledCase[] = [];
  const skipped: number[] = [];
  content.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      skipped.push(i + 1);
      return;
    }
    const v = value as { text?: unknown; expect?: unknown };
    const expect = Array.isArray(v.expect) ? v.expect : null;
    const ok =
      typeof v.text === 'string' &&
      expect !== null &&
      expect.every((e: unknown) => {
        const x = e as { category?: unknown; text?: unknown } | null;
        return x !== null && typeof x === 'object' && isPiCategory(x.category) && typeof x.text === 'string';
      });
    if (!ok) skipped.push(i + 1);
    else cases.push({ line: i + 1, text: v.text as string, expect: expect as LabelledCase['expect'] });
  });
  return { cases, skipped };
}

const emptyTally = (): Tally => ({ tp: 0, fp: 0, fn: 0 });

export function evaluate(cases: readonly LabelledCase[], minConfidence: Confidence = 'low', now?: Date): Evaluation {
  const perCategory = {} as Record<PiCategory, Tally>;
  for (const c of PI_CATEGORIES) perCategory[c] = emptyTally();
  const overall = emptyTally();
  const errors: Evaluation['errors'] = [];
  for (const c of cases) {
    const found: Finding[] = scanText(c.text, { now }).filter(
      (f) => CONFIDENCE_RANK[f.confidence] >= CONFIDENCE_RANK[minConfidence],
    );
    const open = [...c.expect];
    for (const f of found) {
      const i = open.findIndex((e) => e.category === f.category && e.text === f.text);
      if (i >= 0) {
        open.splice(i, 1);
        perCategory[f.category].tp++;
        overall.tp++;
      } else {
        perCategory[f.category].fp++;
        overall.fp++;
        errors.push({ line: c.line, kind: 'fp', category: f.category, text: f.text });
      }
    }
    for (const e of open) {
      perCategory[e.category].fn++;
      overall.fn++;
      errors.push({ line: c.line, kind: 'fn', category: e.category, text: e.text });
    }
  }
  return { cases: cases.length, perCategory, overall, errors };
}

/** NaN when nothing was found (precision) or nothing was expected (recall). */
export const precision = (t: Tally): number => t.tp / (t.tp + t.fp);
export const recall = (t: Tally): number => t.tp / (t.tp + t.fn);
