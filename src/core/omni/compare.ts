// Two OmniBehavior runs compared on the test actions both answered: for every answer both runs gave a usable, scorable
// value, each run's figures as score.ts computes them (F1 per binary field and scene, NMAE, the judge's mean, the six
// components and the overall), B − A with a paired 95 % interval that resamples users (a user's test actions share
// one history), wins / ties / losses by user, and the answers whose outcome changed. What is left out, and why, is
// counted in `scope`: a figure here is over the paired answers only, never over a whole run unless both cover it.
import { pyFixed } from '../io/pyNumber';
import type { BootstrapOptions } from '../stats/bootstrap';
import { pairedTexts, type PairedTexts } from '../stats/pairedTexts';
import { pairedFigureDifference, type PairedFigureDifference } from '../stats/pairedUnits';
import { BINARY_COMPONENT_SCENE, COMPONENT_LABELS, COMPONENTS, FIELD_NAMES, FIELDS } from './fields';
import { actionsInOrder, usersInOrder } from './order';
import { newTally, questionNormaliser, questionVerdict, scoreTallies, tallyAnswer, type Tally } from './score';
import {
  predictionKey,
  type ComponentId,
  type FieldKind,
  type OmniBenchmark,
  type OmniRun,
  type Question,
} from './types';

export type OmniCompareLevel = 'overall' | 'component' | 'field';

export interface OmniCompareRow extends PairedFigureDifference {
  /** "overall", a component id or a field */
  slice: string;
  head: string;
  level: OmniCompareLevel;
  /** the question kind the row scores; the overall mixes them */
  kind: FieldKind | 'mixed';
  /** what the figure is, as the page's column says it */
  measure: string;
  lowerIsBetter: boolean;
  /** paired answers in the row's figure */
  answers: number;
}

/**
 * lost / gained: a right-or-wrong answer (binary, search_keyword) that B got wrong / right where A did the opposite;
 * worse / better: a graded answer (a watch time's error, the judge's score) that moved; outA / outB: that run gave no
 * usable value where the other did.
 */
export type OmniChange = 'lost' | 'worse' | 'outB' | 'gained' | 'better' | 'outA';

export const OMNI_CHANGES: readonly OmniChange[] = ['lost', 'worse', 'outB', 'gained', 'better', 'outA'];

export interface OmniChanged {
  userId: string;
  index: number;
  scene: string;
  field: string;
  kind: FieldKind;
  truth: string;
  /** each run's predicted value as its file writes it; "" for none */
  a: string;
  b: string;
  /** a graded answer's error (% of the video's duration) or judge score (1–10); null where there is none */
  gradeA: number | null;
  gradeB: number | null;
  change: OmniChange;
}

export interface OmniCompareScope {
  /** test actions each run has a prediction for, and both */
  actionsA: number;
  actionsB: number;
  paired: number;
  /** users with a paired test action */
  users: number;
  /** users with a prediction in one run only (left out) */
  usersOnlyA: number;
  usersOnlyB: number;
  /** questions of the paired test actions asked in both runs */
  questions: number;
  /** of them, in the figures: both runs gave a usable value that can be scored */
  answers: number;
  /** left out: no usable predicted value in A only, in B only, in both */
  noneA: number;
  noneB: number;
  noneBoth: number;
  /** left out: no usable truth, no normaliser (ad and live watch times) or no judge score on one side */
  unscored: number;
}

export interface OmniComparison {
  runA: string;
  runB: string;
  /** the overall, then per kind: its components, then its fields */
  rows: OmniCompareRow[];
  /** in OMNI_CHANGES' order, then the benchmark's */
  changed: OmniChanged[];
  scope: OmniCompareScope;
}

/** One user's tallies of the paired answers, per field, for each run. */
interface UserTallies {
  a: Map<string, Tally>;
  b: Map<string, Tally>;
}

const TIE = 1e-12;

/** Why two runs cannot be compared, or undefined when they share a test action. */
export function omniCompareProblem(a: OmniRun, b: OmniRun): string | undefined {
  if (a.name === b.name) return `${a.name} is compared with itself`;
  for (const key of a.predictions.keys()) if (b.predictions.has(key)) return undefined;
  return `${a.name} and ${b.name} share no test action: they predict ${a.predictions.size} and ${b.predictions.size} other ones`;
}

const valueText = (q: Question) =>
  q.predictedValue === null
    ? ''
    : q.type === 'binary' && q.predictedLabel !== null
      ? q.predictedLabel
        ? 'Yes'
        : 'No'
      : String(q.predictedValue);

export function compareOmniRuns(
  bench: OmniBenchmark,
  runA: OmniRun,
  runB: OmniRun,
  opts: BootstrapOptions = {},
): OmniComparison {
  const scope: OmniCompareScope = {
    actionsA: 0,
    actionsB: 0,
    paired: 0,
    users: 0,
    usersOnlyA: 0,
    usersOnlyB: 0,
    questions: 0,
    answers: 0,
    noneA: 0,
    noneB: 0,
    noneBoth: 0,
    unscored: 0,
  };
  const perUser = new Map<string, UserTallies>();
  const changed: OmniChanged[] = [];
  for (const user of usersInOrder(bench)) {
    let inA = false;
    let inB = false;
    for (const action of actionsInOrder(user)) {
      const key = predictionKey(action.userId, action.index);
      const pa = runA.predictions.get(key);
      const pb = runB.predictions.get(key);
      if (pa) scope.actionsA++;
      if (pb) scope.actionsB++;
      inA ||= pa !== undefined;
      inB ||= pb !== undefined;
      if (!pa || !pb) continue;
      scope.paired++;
      const tallies = perUser.get(user.userId) ?? { a: new Map(), b: new Map() };
      perUser.set(user.userId, tallies);
      for (const qa of pa.questions) {
        const qb = pb.questions.find((q) => q.field === qa.field);
        const info = FIELDS[qa.field];
        if (!qb || !info) continue;
        scope.questions++;
        const norms = { a: questionNormaliser(qa, action), b: questionNormaliser(qb, action) };
        const va = questionVerdict(qa, norms.a);
        const vb = questionVerdict(qb, norms.b);
        const outA = va.verdict === 'left-out';
        const outB = vb.verdict === 'left-out';
        const grade = (q: Question, v: typeof va) =>
          v.verdict !== 'graded' ? null : v.error !== undefined ? v.error * 100 : (q.judgeScore ?? null);
        const note = (change: OmniChange) =>
          changed.push({
            userId: user.userId,
            index: action.index,
            scene: action.scene,
            field: qa.field,
            kind: info.kind,
            truth: qa.trueValue === null ? '' : String(qa.trueValue),
            a: valueText(qa),
            b: valueText(qb),
            gradeA: grade(qa, va),
            gradeB: grade(qb, vb),
            change,
          });
        if (outA || outB) {
          if (outA && outB) scope.noneBoth++;
          else if (outA) scope.noneA++;
          else scope.noneB++;
          if (outA !== outB) note(outA ? 'outA' : 'outB');
          continue;
        }
        if (va.verdict === 'unscored' || vb.verdict === 'unscored') {
          scope.unscored++;
          continue;
        }
        scope.answers++;
        for (const [side, q, v] of [
          ['a', qa, va],
          ['b', qb, vb],
        ] as const) {
          const m = tallies[side];
          const t = m.get(qa.field) ?? newTally();
          m.set(qa.field, t);
          tallyAnswer(t, q, v.verdict as 'correct' | 'incorrect' | 'graded', v.error, norms[side]);
        }
        if (va.verdict !== vb.verdict) note(va.verdict === 'correct' ? 'lost' : 'gained');
        else if (va.verdict === 'graded') {
          const [ga, gb] = [grade(qa, va), grade(qb, vb)];
          if (ga !== null && gb !== null && Math.abs(gb - ga) > TIE) {
            const bBetter = info.kind === 'continuous' ? gb < ga : gb > ga;
            note(bBetter ? 'better' : 'worse');
          }
        }
      }
    }
    if (inA && !inB) scope.usersOnlyA++;
    if (inB && !inA) scope.usersOnlyB++;
  }
  scope.users = perUser.size;
  const rank = (c: OmniChange) => OMNI_CHANGES.indexOf(c);
  return {
    runA: runA.name,
    runB: runB.name,
    rows: compareRows([...perUser.values()], opts),
    changed: changed
      .map((d, i) => ({ d, i }))
      .sort((x, y) => rank(x.d.change) - rank(y.d.change) || x.i - y.i)
      .map((x) => x.d),
    scope,
  };
}

/** The figure of one row from the fields' summed tallies (score.ts' own rules). */
type FigureOf = (tallies: ReadonlyMap<string, Tally>) => number | undefined;

interface RowSpec extends Pick<OmniCompareRow, 'slice' | 'head' | 'level' | 'kind' | 'measure' | 'lowerIsBetter'> {
  fields: readonly string[];
  pick: FigureOf;
}

function sumTallies(users: readonly UserTallies[], side: 'a' | 'b', fields: readonly string[]): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const u of users) {
    for (const f of fields) {
      const t = u[side].get(f);
      if (!t) continue;
      const s = out.get(f) ?? newTally();
      out.set(f, s);
      for (const k of Object.keys(s) as (keyof Tally)[]) s[k] += t[k];
    }
  }
  return out;
}

/** The fields a component is made of (score.ts' componentsOf). */
function componentFields(c: ComponentId): string[] {
  if (c === 'videoContinuous') return ['video_watch_seconds'];
  if (c === 'shopText') return ['next_user_message'];
  const scene = BINARY_COMPONENT_SCENE[c];
  return FIELD_NAMES.filter((f) => FIELDS[f].kind === 'binary' && FIELDS[f].scene === scene);
}

function fieldSpec(field: string): RowSpec {
  const kind = FIELDS[field].kind;
  const base = { slice: field, head: field, level: 'field' as const, kind, fields: [field] };
  const of = (t: ReadonlyMap<string, Tally>) => scoreTallies(t).fields.find((f) => f.field === field);
  if (kind === 'binary') return { ...base, measure: 'F1, %', lowerIsBetter: false, pick: (t) => mul100(of(t)?.f1) };
  if (kind === 'continuous')
    return { ...base, measure: 'NMAE, % of duration', lowerIsBetter: true, pick: (t) => of(t)?.nmae };
  if (field === 'next_user_message')
    return { ...base, measure: 'judge, 1–10', lowerIsBetter: false, pick: (t) => of(t)?.judgeMean };
  return { ...base, measure: 'exact match, %', lowerIsBetter: false, pick: (t) => mul100(of(t)?.accuracy) };
}

const mul100 = (x: number | undefined) => (x === undefined ? undefined : 100 * x);

const COMPONENT_KIND: Record<ComponentId, FieldKind> = {
  videoBinary: 'binary',
  liveBinary: 'binary',
  adsBinary: 'binary',
  shopBinary: 'binary',
  videoContinuous: 'continuous',
  shopText: 'text',
};

function rowSpecs(): RowSpec[] {
  const specs: RowSpec[] = [
    {
      slice: 'overall',
      head: 'Overall',
      level: 'overall',
      kind: 'mixed',
      measure: 'mean of the six components',
      lowerIsBetter: false,
      fields: FIELD_NAMES,
      pick: (t) => scoreTallies(t).overall,
    },
  ];
  for (const kind of ['binary', 'continuous', 'text'] as const) {
    for (const c of COMPONENTS.filter((x) => COMPONENT_KIND[x] === kind)) {
      specs.push({
        slice: c,
        head: COMPONENT_LABELS[c],
        level: 'component',
        kind,
        measure: 'points of 100',
        lowerIsBetter: false,
        fields: componentFields(c),
        pick: (t) => scoreTallies(t).components[c],
      });
    }
    specs.push(...FIELD_NAMES.filter((f) => FIELDS[f].kind === kind).map(fieldSpec));
  }
  return specs;
}

function compareRows(users: readonly UserTallies[], opts: BootstrapOptions): OmniCompareRow[] {
  return rowSpecs().flatMap((spec) => {
    const units = users.filter((u) => spec.fields.some((f) => (u.a.get(f)?.n ?? 0) > 0));
    if (units.length === 0) return [];
    const answers = spec.fields.reduce((s, f) => s + units.reduce((n, u) => n + (u.a.get(f)?.n ?? 0), 0), 0);
    const diff = pairedFigureDifference(
      units,
      { figure: (us, side) => spec.pick(sumTallies(us, side, spec.fields)) ?? NaN, lowerIsBetter: spec.lowerIsBetter },
      opts,
    );
    const { slice, head, level, kind, lowerIsBetter } = spec;
    const missing = level === 'overall' && diff.diff === null ? '; none: a component has no paired answer' : '';
    return [{ slice, head, level, kind, measure: spec.measure + missing, lowerIsBetter, ...diff, answers }];
  });
}

/** How the compare view writes a row's figures, in the figure's own unit, two decimals (the page and its tests). */
export function omniCompareTexts(r: OmniCompareRow): PairedTexts {
  const figures = { a: r.figureA, b: r.figureB, diff: r.diff, low: r.low, high: r.high, units: r.units };
  return pairedTexts(figures, { unit: 'user', digits: 2 });
}

/** How a change is said, on the compare page and by the CLI. */
export const OMNI_CHANGE_TEXT: Record<OmniChange, string> = {
  lost: 'A right, B wrong',
  worse: 'B graded worse',
  outB: 'no usable value from B',
  gained: 'B right, A wrong',
  better: 'B graded better',
  outA: 'no usable value from A',
};

/** The changes' counts, the commonest kind of change first as OMNI_CHANGES orders them: "2 A right, B wrong · …". */
export function omniChangeCountsText(m: OmniComparison): string {
  const counts = OMNI_CHANGES.map((c) => [c, m.changed.filter((d) => d.change === c).length] as const)
    .filter(([, n]) => n > 0)
    .map(([c, n]) => `${n} ${OMNI_CHANGE_TEXT[c]}`);
  return counts.join(' · ') || 'None';
}

/** The heads of the summary's sections, one per question kind. */
export const OMNI_KIND_HEADS: Record<FieldKind, string> = {
  binary: 'Binary questions',
  continuous: 'Continuous questions',
  text: 'Text questions',
};

/** A changed answer's change: its grades A → B where both have one, else the change's words. */
export function omniChangeText(c: OmniChanged): string {
  if (c.gradeA === null || c.gradeB === null) return OMNI_CHANGE_TEXT[c.change];
  return c.kind === 'continuous'
    ? `error ${pyFixed(c.gradeA, 1)} % → ${pyFixed(c.gradeB, 1)} %`
    : `judge ${pyFixed(c.gradeA, 1)} → ${pyFixed(c.gradeB, 1)}`;
}

/** What is compared and what is left out, and why: the page's line under its title, and the CLI's. */
export function omniCompareScopeText(m: OmniComparison): string {
  const s = m.scope;
  const out = [
    s.actionsA - s.paired ? `${s.actionsA - s.paired} test action(s) predicted by ${m.runA} only` : '',
    s.actionsB - s.paired ? `${s.actionsB - s.paired} by ${m.runB} only` : '',
    s.usersOnlyA ? `${s.usersOnlyA} user(s) only in ${m.runA}` : '',
    s.usersOnlyB ? `${s.usersOnlyB} user(s) only in ${m.runB}` : '',
    s.noneA ? `${s.noneA} answer(s) without a usable value from A` : '',
    s.noneB ? `${s.noneB} from B` : '',
    s.noneBoth ? `${s.noneBoth} from both` : '',
    s.unscored ? `${s.unscored} without a truth, normaliser or judge score to score them by` : '',
  ].filter(Boolean);
  return (
    `${s.paired} test actions both runs answered, of ${s.users} users; ${s.answers} of their ${s.questions} answers in the figures` +
    (out.length ? ` · left out: ${out.join(', ')}` : '')
  );
}

/** Rows whose interval is over fewer resamples: the others drew no user with that figure (the overall's components). */
export function omniFewerResamplesText(m: OmniComparison): string {
  const rows = m.rows.filter((r) => r.diff !== null && r.units > 1 && r.defined < r.resamples);
  if (rows.length === 0) return '';
  const list = rows.map((r) => `${r.head} over ${r.defined}`).join(', ');
  return ` Some intervals are over fewer resamples, since the others drew no user with the figure: ${list}.`;
}
