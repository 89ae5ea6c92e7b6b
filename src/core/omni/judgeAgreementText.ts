// The judge-against-people table as printed by `persona-lab labels judge` and shown on the OmniBehavior dashboard:
// one row per dimension, the same cells in both. Types only from the core, so the webview bundle can use it.
import { pyFixed } from '../io/pyNumber';
import type { DimensionAgreement, JudgeAgreement } from './judgeAgreement';
import type { JudgeDimension } from './types';

export const JUDGE_AGREEMENT_HEAD = [
  'Dimension',
  'n (pairs)',
  'Answers',
  'People',
  'Spearman ρ',
  'Weighted κ',
  'Judge mean',
  'People mean',
] as const;

const fixed = (x: number | null, digits: number) => (x === null ? '—' : pyFixed(x, digits));

export function judgeAgreementCells(d: DimensionAgreement): string[] {
  return [
    DIMENSION_NAMES[d.dimension],
    String(d.n),
    String(d.answers),
    String(d.people),
    fixed(d.spearman, 3),
    fixed(d.kappa, 3),
    fixed(d.meanJudge, 2),
    fixed(d.meanPeople, 2),
  ];
}

/** Below this many pairs a dimension's ρ and κ are flagged as a first look (the labels' kappa uses the same bar). */
export const FEW_PAIRS = 10;

/** What the figures cover, in a few sentences. */
export function judgeAgreementNote(a: JudgeAgreement): string {
  const thin = a.dimensions.filter((d) => d.n > 0 && d.n < FEW_PAIRS);
  const few =
    thin.length === a.dimensions.length
      ? 'here: every dimension'
      : thin.map((d) => DIMENSION_NAMES[d.dimension].toLowerCase()).join(', ');
  const left = [
    a.stale ? `${a.stale} score(s) of an answer that changed since` : '',
    a.missing ? `${a.missing} score(s) of an answer the run does not hold` : '',
  ].filter(Boolean);
  return (
    `${a.scoredByPeople} answer(s) of run ${a.run} scored by people, ${a.judgedToo} of them judged too. ` +
    `A pair is one person's score and the judge's score of the same answer; ρ and κ (quadratic weights, 1–10) ` +
    `are "—" below 2 pairs or when one side never varies.` +
    (few
      ? ` With fewer than ${FEW_PAIRS} pairs (${few}) one score moves ρ and κ a long way: read them as a first look.`
      : '') +
    (left.length ? ` Left out: ${left.join(', ')}.` : '')
  );
}

/** The table as aligned text. */
export function formatJudgeAgreement(a: JudgeAgreement): string {
  const rows = [[...JUDGE_AGREEMENT_HEAD], ...a.dimensions.map(judgeAgreementCells)];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [`Judge against people, run ${a.run}`, ...rows.map(line), judgeAgreementNote(a)].join('\n');
}

/** The dimensions' names as people read them. */
export const DIMENSION_NAMES: Record<JudgeDimension, string> = {
  intent_fidelity: 'Intent fidelity',
  persona_mimicry: 'Persona mimicry',
  knowledge_boundary: 'Knowledge boundary',
  semantic_alignment: 'Semantic alignment',
};
