// Two runs of one split compared on the questions both answered: each run's accuracy, the difference B − A with a
// paired 95 % interval that resamples personas (a persona's questions share one history), overall and per question
// type, and the questions whose answer changed. Right or wrong is the run's score (score.ts), so the accuracies are
// the authors' figures restricted to the paired questions.
import type { BootstrapOptions } from '../stats/bootstrap';
import { pairedTexts, type PairedTexts } from '../stats/pairedTexts';
import { pairedShareDifference, type PairedShareDifference, type PairedUnit } from '../stats/pairedUnits';
import type { PmRunScore } from './score';
import { SKILL_HEADS, type PersonaMemBench } from './types';

export interface PmCompareRow extends PairedShareDifference {
  /** "overall" or the skill */
  slice: string;
  head: string;
}

/** lost: A right, B wrong; gained: B right, A wrong; changed: both wrong with another pick. */
export type PmChange = 'lost' | 'gained' | 'changed';

export interface PmDiffering {
  questionId: string;
  personaId: string;
  skill: string;
  topic: string;
  correctAnswer: string;
  pickA: string | null;
  pickB: string | null;
  change: PmChange;
}

export interface PmComparison {
  runA: string;
  runB: string;
  split: string;
  overall: PmCompareRow;
  /** per skill, in the order of B's score (the paper's order) */
  byType: PmCompareRow[];
  /** lost first, then gained, then changed, each in the split's order */
  differing: PmDiffering[];
  /** questions answered by one run only (left out of every figure here) */
  onlyA: number;
  onlyB: number;
}

const CHANGE_ORDER: Record<PmChange, number> = { lost: 0, gained: 1, changed: 2 };

/** How a change is said, on the compare page and by the CLI. */
export const PM_CHANGE_TEXT: Record<PmChange, string> = {
  lost: 'A right, B wrong',
  gained: 'B right, A wrong',
  changed: 'both wrong, another pick',
};

function unitsOf(byPersona: Map<string, PairedUnit>): PairedUnit[] {
  return [...byPersona.values()];
}

function addTo(m: Map<string, PairedUnit>, persona: string, rightA: boolean, rightB: boolean): void {
  const u = m.get(persona) ?? { items: 0, rightA: 0, rightB: 0 };
  u.items++;
  if (rightA) u.rightA++;
  if (rightB) u.rightB++;
  m.set(persona, u);
}

/** Why two runs cannot be compared, or undefined when they can (the same split). */
export function pmCompareProblem(a: PmRunScore, b: PmRunScore): string | undefined {
  if (a.name === b.name) return `${a.name} is compared with itself`;
  if (a.split !== b.split)
    return `${a.name} answers the ${a.split} split and ${b.name} the ${b.split} split: they share no question`;
  return undefined;
}

export function comparePersonaMemRuns(
  bench: PersonaMemBench,
  a: PmRunScore,
  b: PmRunScore,
  opts: BootstrapOptions = {},
): PmComparison {
  const questions = a.split === b.split ? (bench.splits.get(a.split)?.questions ?? []) : [];
  const overall = new Map<string, PairedUnit>();
  const bySkill = new Map<string, Map<string, PairedUnit>>();
  const differing: PmDiffering[] = [];
  let paired = 0;
  for (const q of questions) {
    const qa = a.perQuestion.get(q.questionId);
    const qb = b.perQuestion.get(q.questionId);
    if (!qa || !qb) continue;
    paired++;
    addTo(overall, q.personaId, qa.correct, qb.correct);
    const skill = bySkill.get(q.skill) ?? new Map<string, PairedUnit>();
    addTo(skill, q.personaId, qa.correct, qb.correct);
    bySkill.set(q.skill, skill);
    if (qa.correct === qb.correct && qa.pick === qb.pick) continue;
    differing.push({
      questionId: q.questionId,
      personaId: q.personaId,
      skill: q.skill,
      topic: q.topic,
      correctAnswer: q.correctAnswer,
      pickA: qa.pick ?? null,
      pickB: qb.pick ?? null,
      change: qa.correct ? 'lost' : qb.correct ? 'gained' : 'changed',
    });
  }
  const order = [...b.byType.keys(), ...a.byType.keys()].filter((s, i, all) => all.indexOf(s) === i);
  const row = (slice: string, head: string, units: PairedUnit[]): PmCompareRow => ({
    slice,
    head,
    ...pairedShareDifference(units, opts),
  });
  const rank = (d: PmDiffering) => CHANGE_ORDER[d.change];
  return {
    runA: a.name,
    runB: b.name,
    split: a.split,
    overall: row('overall', 'Overall', unitsOf(overall)),
    byType: order
      .filter((s) => bySkill.has(s))
      .map((s) => row(s, SKILL_HEADS[s] ?? s, unitsOf(bySkill.get(s) ?? new Map()))),
    differing: differing
      .map((d, i) => ({ d, i }))
      .sort((x, y) => rank(x.d) - rank(y.d) || x.i - y.i)
      .map((x) => x.d),
    onlyA: a.perQuestion.size - paired,
    onlyB: b.perQuestion.size - paired,
  };
}

/** How the compare view writes a row's figures: accuracy in %, B − A in percentage points, two decimals. */
export function pmCompareTexts(r: PairedShareDifference): PairedTexts {
  const figures = { a: r.shareA, b: r.shareB, diff: r.diff, low: r.low, high: r.high, units: r.units };
  return pairedTexts(figures, { unit: 'persona', digits: 2, scale: 100 });
}

/** Each change's count: "1 A right, B wrong · 2 B right, A wrong · 0 both wrong, another pick". */
export function pmChangeCountsText(m: PmComparison): string {
  return (['lost', 'gained', 'changed'] as const)
    .map((c) => `${m.differing.filter((d) => d.change === c).length} ${PM_CHANGE_TEXT[c]}`)
    .join(' · ');
}

/** What is compared and what is left out: the page's line under its title, and the CLI's. */
export function pmCompareScopeText(m: PmComparison): string {
  const only = [
    m.onlyA ? `${m.onlyA} question(s) answered by ${m.runA} only` : '',
    m.onlyB ? `${m.onlyB} by ${m.runB} only` : '',
  ].filter(Boolean);
  return (
    `${m.split} split · ${m.overall.items} questions both runs answered, of ${m.overall.units} personas` +
    (only.length ? ` · left out: ${only.join(', ')}` : '')
  );
}
