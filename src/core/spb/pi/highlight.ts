// The step view's PI marks, computed in the extension host: every placeholder and every residual finding of the
// texts the view shows (bio, posts, pool tags and picks outside the pool, personas received and written with their
// diff, reasoning), and of two answers side by side (a re-run and its original, two runs in the compare view).
import type { RerunComparison } from '../rerun/attemptCompare';
import type { SideModel } from '../view/sides';
import type { DiffPart, StepModel } from '../view/stepModel';
import { findPlaceholders, PI_CATEGORIES, type PiCategory } from '../../pi/placeholders';
import { scanText } from '../../pi/scanner';
import { fieldKey, type PiMark, type StepPiMarks } from '../../pi/spans';
import type { Confidence } from '../../pi/types';

export interface MarkOptions {
  /** findings below this confidence are left out (default: all) */
  minConfidence?: Confidence;
}

/** Placeholders and findings of one text, in order. The scanner never reports a placeholder, so they never overlap. */
export function piMarks(text: string, opts: MarkOptions = {}): PiMark[] {
  if (typeof text !== 'string' || text === '') return [];
  const marks: PiMark[] = [
    ...findPlaceholders(text).map((p): PiMark => ({
      kind: 'placeholder',
      category: p.category,
      start: p.start,
      end: p.end,
      confidence: null,
      reason: '',
    })),
    ...scanText(text, { minConfidence: opts.minConfidence }).map((f): PiMark => ({
      kind: 'finding',
      category: f.category,
      start: f.start,
      end: f.end,
      confidence: f.confidence,
      reason: f.reason,
    })),
  ];
  return marks.sort((a, b) => a.start - b.start);
}

/** Marks of two answers side by side: each side's personas and reasoning (keyed by `sides`' keys), and the diff. */
export function sidesPiMarks(
  sides: Readonly<Record<string, SideModel>>,
  diff: readonly DiffPart[] | null,
  opts: MarkOptions = {},
): Record<string, PiMark[]> {
  const out: Record<string, PiMark[]> = {};
  const add = (key: string, text: string | null) => {
    const marks = piMarks(text ?? '', opts);
    if (marks.length) out[key] = marks;
  };
  for (const [side, m] of Object.entries(sides)) {
    add(fieldKey.cmp(side, 'personaIn'), m.personaIn);
    add(fieldKey.cmp(side, 'personaWritten'), m.personaWritten);
    add(fieldKey.cmp(side, 'reasoning'), m.reasoning);
  }
  diff?.forEach((d, i) => add(fieldKey.cmpDiff(i), d.text));
  return out;
}

/** Marks of the re-run comparison: sides 'original' and 'rerun'. */
export function comparisonPiMarks(c: RerunComparison | null, opts: MarkOptions = {}): Record<string, PiMark[]> {
  return c ? sidesPiMarks({ original: c.original, rerun: c.rerun }, c.personaDiff, opts) : {};
}

export function stepPiMarks(model: StepModel, opts: MarkOptions = {}): StepPiMarks {
  const fields: Record<string, PiMark[]> = {};
  const counts = new Map<PiCategory, { placeholders: number; findings: number }>();
  const add = (key: string, text: string, counted = true) => {
    const marks = piMarks(text, opts);
    if (marks.length === 0) return;
    fields[key] = marks;
    if (!counted) return;
    for (const m of marks) {
      const c = counts.get(m.category) ?? { placeholders: 0, findings: 0 };
      if (m.kind === 'placeholder') c.placeholders++;
      else c.findings++;
      counts.set(m.category, c);
    }
  };
  add(fieldKey.bio, model.header.bio);
  if (model.postsOk) {
    model.posts.forEach((p, i) => {
      add(fieldKey.postContent(i), p.content);
      p.fields.forEach((f, j) => add(fieldKey.postField(i, j), f.value));
    });
  } else {
    add(fieldKey.postsRaw, model.postsRaw);
  }
  add(fieldKey.personaReceived, model.persona.received);
  add(fieldKey.personaWritten, model.persona.written);
  // The diff repeats both personas: marked, not counted again.
  model.persona.diff?.forEach((d, i) => add(fieldKey.diff(i), d.text, false));
  add(fieldKey.reasoning, model.reasoning);
  const tags = new Set([...model.pool.groups.flatMap((g) => g.tags.map((t) => t.tag)), ...model.pool.outOfPool]);
  for (const tag of tags) add(fieldKey.tag(tag), tag);
  const legend = PI_CATEGORIES.flatMap((category) => {
    const c = counts.get(category);
    return c ? [{ category, ...c }] : [];
  });
  return {
    fields,
    legend,
    placeholders: legend.reduce((n, r) => n + r.placeholders, 0),
    findings: legend.reduce((n, r) => n + r.findings, 0),
  };
}
