// The paper's bias diagnostics (spec "Scoring"): positive rates per scene (hyper-activity) and the intra-user /
// inter-user distance ratio over per-user vectors of positive rates (persona homogenisation).
import { binaryLabel, FIELDS, usablePrediction } from './fields';
import { SCENES } from './records';
import { mean, testActionsByKey } from './score';
import { type OmniBenchmark, type OmniRun, type Scene } from './types';

export interface SceneRates {
  scene: Scene;
  /** Binary questions with a usable truth. */
  n: number;
  realRate: number;
  /** Share answered Yes. Answers left out of the scores (no usable predicted value) are left out here too. */
  predictedRate: number;
}

export interface BiasDiagnostics {
  perScene: SceneRates[];
  distanceRatio: { real: number | undefined; predicted: number | undefined };
  reading: string;
}

/** Hyper-active: the pooled predicted positive rate is at least this far (absolute) above the real one. */
export const HYPER_ACTIVE_MARGIN = 0.05;
/** Homogenised: the predicted distance ratio is at least this many times the real one. */
export const HOMOGENISED_FACTOR = 1.5;

/** One binary question of a predicted test action, reduced to what the diagnostics need. */
interface Answer {
  field: string;
  real: 0 | 1;
  predicted: 0 | 1;
}

type RateVector = Map<string, number>;

export function biasDiagnostics(bench: OmniBenchmark, run: OmniRun): BiasDiagnostics {
  const actions = testActionsByKey(bench);
  const byUser = new Map<string, { index: number; answers: Answer[] }[]>();
  for (const [key, prediction] of run.predictions) {
    if (!actions.has(key)) continue;
    const answers: Answer[] = [];
    for (const q of prediction.questions) {
      const real = FIELDS[q.field]?.kind === 'binary' ? binaryLabel(q.trueValue) : undefined;
      if (real !== undefined && usablePrediction('binary', q.predictedValue))
        answers.push({ field: q.field, real, predicted: q.predictedLabel === 1 ? 1 : 0 });
    }
    const list = byUser.get(prediction.userId) ?? [];
    list.push({ index: prediction.index, answers });
    byUser.set(prediction.userId, list);
  }
  const all = [...byUser.values()].flatMap((list) => list.flatMap((a) => a.answers));

  const perScene: SceneRates[] = [];
  for (const scene of SCENES) {
    const here = all.filter((a) => FIELDS[a.field].scene === scene);
    if (here.length === 0) continue;
    perScene.push({ scene, n: here.length, realRate: rate(here, 'real'), predictedRate: rate(here, 'predicted') });
  }

  // The spec leaves "intra-user distance" open. Ours: each user's predicted test actions, in history order (`index`),
  // are split into an earlier half (the larger one when odd) and a later half; each half is a vector of positive
  // rates per binary field. The distance between two vectors is the root mean square difference over the fields
  // both have (none shared: no distance). Intra-user = mean over users of the distance between their two halves;
  // inter-user = mean distance over all pairs of halves of different users. Ratio = intra / inter.
  const halves = [...byUser.values()]
    .filter((list) => list.length >= 2)
    .map((list) => {
      const sorted = [...list].sort((a, b) => a.index - b.index);
      const cut = Math.ceil(sorted.length / 2);
      return [sorted.slice(0, cut), sorted.slice(cut)].map((half) => half.flatMap((a) => a.answers));
    });
  const ratio = (side: 'real' | 'predicted') => {
    const vectors = halves.map((pair) => pair.map((answers) => rateVector(answers, side)));
    const intra = defined(vectors.map(([a, b]) => distance(a, b)));
    const inter: number[] = [];
    for (let i = 0; i < vectors.length; i++) {
      for (let j = i + 1; j < vectors.length; j++) {
        for (const a of vectors[i]) for (const b of vectors[j]) inter.push(...defined([distance(a, b)]));
      }
    }
    if (intra.length === 0 || inter.length === 0 || mean(inter) === 0) return undefined;
    return mean(intra) / mean(inter);
  };
  const distanceRatio = { real: ratio('real'), predicted: ratio('predicted') };
  return { perScene, distanceRatio, reading: reading(all, perScene, distanceRatio) };
}

function rate(answers: readonly Answer[], side: 'real' | 'predicted'): number {
  return answers.reduce((s, a) => s + a[side], 0) / answers.length;
}

function rateVector(answers: readonly Answer[], side: 'real' | 'predicted'): RateVector {
  const byField = new Map<string, Answer[]>();
  for (const a of answers) {
    const list = byField.get(a.field);
    if (list) list.push(a);
    else byField.set(a.field, [a]);
  }
  return new Map([...byField].map(([field, list]) => [field, rate(list, side)]));
}

function distance(a: RateVector, b: RateVector): number | undefined {
  const shared = [...a.keys()].filter((k) => b.has(k));
  if (shared.length === 0) return undefined;
  return Math.sqrt(shared.reduce((s, k) => s + ((a.get(k) as number) - (b.get(k) as number)) ** 2, 0) / shared.length);
}

const defined = (xs: readonly (number | undefined)[]): number[] => xs.filter((x): x is number => x !== undefined);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function reading(all: readonly Answer[], perScene: readonly SceneRates[], r: BiasDiagnostics['distanceRatio']): string {
  if (all.length === 0) return 'No binary predictions to read.';
  const real = rate(all, 'real');
  const predicted = rate(all, 'predicted');
  const above = perScene.filter((s) => s.predictedRate > s.realRate).length;
  const rates = `predicted positive rate ${pct(predicted)} vs real ${pct(real)}, above it in ${above}/${perScene.length} scenes`;
  const first = predicted - real >= HYPER_ACTIVE_MARGIN ? `hyper-active (${rates})` : `not hyper-active (${rates})`;
  let second: string;
  if (r.real === undefined || r.predicted === undefined) {
    second = 'homogenisation not measurable (needs two users with two predicted test actions and shared fields)';
  } else {
    const ratios = `intra/inter distance ratio ${r.predicted.toFixed(2)} predicted vs ${r.real.toFixed(2)} real`;
    second = r.predicted >= HOMOGENISED_FACTOR * r.real ? `homogenised (${ratios})` : `not homogenised (${ratios})`;
  }
  return `${first}; ${second}.`;
}
