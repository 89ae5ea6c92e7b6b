// The judge against people: per dimension, how the LLM judge's 1–10 scores of a run's next_user_message answers agree
// with the scores people gave the same answers (core/labels/scores.ts). A pair is one person's score of one answer
// and the judge's score of it; with several people on one answer there are several pairs.
// - Spearman's rho: Pearson's correlation of the two lists' ranks, ties given their mean rank (as scipy.stats.spearmanr).
// - Cohen's kappa, quadratic weights: 1 − Σ w·O / Σ w·E with w = (i − j)² over the 1–10 scale, O the pairs' table
//   and E the table of the margins' products (as sklearn's cohen_kappa_score(weights="quadratic", labels=1..10)).
// Either is null when it is undefined: fewer than 2 pairs, or one side gives a single value throughout.
// A person's score of an answer the run no longer holds (its text changed since) is stale and not paired.
import { utteranceHash, type ScoreRow } from '../labels/scores';
import {
  isJudgeDimension,
  JUDGE_DIMENSIONS,
  predictionKey,
  type JudgeDimension,
  type OmniRun,
  type Question,
} from './types';

export interface DimensionAgreement {
  dimension: JudgeDimension;
  /** pairs (person, answer) with both scores */
  n: number;
  /** answers among them, and people */
  answers: number;
  people: number;
  spearman: number | null;
  kappa: number | null;
  meanJudge: number | null;
  meanPeople: number | null;
}

export interface JudgeAgreement {
  run: string;
  dimensions: DimensionAgreement[];
  /** answers people scored (any dimension), and among them those the judge scored too */
  scoredByPeople: number;
  judgedToo: number;
  /** people's scores left out: of an answer whose text changed since, or of an answer the run does not hold */
  stale: number;
  missing: number;
}

/** The run's next_user_message answer at a test action, when it has one. */
export function utteranceAt(run: OmniRun, userId: string, index: number): Question | undefined {
  return run.predictions.get(predictionKey(userId, index))?.questions.find((q) => q.field === 'next_user_message');
}

/** The text people score: the predicted utterance, '' when there is none. */
export const utteranceText = (q: Question | undefined): string =>
  typeof q?.predictedValue === 'string' ? q.predictedValue : '';

export function judgeAgreement(run: OmniRun, rows: readonly ScoreRow[]): JudgeAgreement {
  const pairs = new Map<JudgeDimension, { judge: number[]; people: number[]; answers: Set<string>; who: Set<string> }>(
    JUDGE_DIMENSIONS.map((d) => [d, { judge: [], people: [], answers: new Set(), who: new Set() }]),
  );
  const scored = new Set<string>();
  const judged = new Set<string>();
  let stale = 0;
  let missing = 0;
  for (const r of rows) {
    if (r.run !== run.name || !isJudgeDimension(r.dimension)) continue;
    const q = utteranceAt(run, r.userId, r.index);
    if (!q) {
      missing++;
      continue;
    }
    if (r.contentHash && r.contentHash !== utteranceHash(utteranceText(q))) {
      stale++;
      continue;
    }
    const answer = predictionKey(r.userId, r.index);
    scored.add(answer);
    const judge = q.judgeScores?.[r.dimension];
    if (judge === undefined) continue;
    judged.add(answer);
    const p = pairs.get(r.dimension)!;
    p.judge.push(judge);
    p.people.push(r.score);
    p.answers.add(answer);
    p.who.add(r.author);
  }
  const dimensions = JUDGE_DIMENSIONS.map((dimension): DimensionAgreement => {
    const p = pairs.get(dimension)!;
    return {
      dimension,
      n: p.judge.length,
      answers: p.answers.size,
      people: p.who.size,
      spearman: spearman(p.judge, p.people),
      kappa: quadraticKappa(p.judge, p.people),
      meanJudge: mean(p.judge),
      meanPeople: mean(p.people),
    };
  });
  return { run: run.name, dimensions, scoredByPeople: scored.size, judgedToo: judged.size, stale, missing };
}

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;

/** Ranks 1..n, ties sharing their mean rank. */
export function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) out[order[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

function pearson(a: readonly number[], b: readonly number[]): number | null {
  const ma = mean(a);
  const mb = mean(b);
  if (ma === null || mb === null || a.length < 2) return null;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) ** 2;
    sbb += (b[i] - mb) ** 2;
  }
  return saa === 0 || sbb === 0 ? null : sab / Math.sqrt(saa * sbb);
}

export function spearman(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length) throw new Error('spearman: lists of different lengths');
  return pearson(ranks(a), ranks(b));
}

/** Cohen's kappa with quadratic weights over the scores both lists use (the weights' scale cancels out). */
export function quadraticKappa(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length) throw new Error('quadraticKappa: lists of different lengths');
  const n = a.length;
  if (n < 2) return null;
  const margin = (xs: readonly number[]) => {
    const m = new Map<number, number>();
    for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
    return m;
  };
  const ma = margin(a);
  const mb = margin(b);
  let observed = 0;
  for (let i = 0; i < n; i++) observed += (a[i] - b[i]) ** 2;
  let expected = 0;
  for (const [x, cx] of ma) for (const [y, cy] of mb) expected += ((x - y) ** 2 * cx * cy) / n;
  return expected === 0 ? null : 1 - observed / expected;
}
