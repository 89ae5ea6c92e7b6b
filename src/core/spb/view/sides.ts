// Two answers to one step side by side: each side's picks marked against the pool, the tags that flipped between
// them, the metric deltas and the persona diff. The re-run comparison (an attempt against the selected run) and the
// compare view (run B against run A) are both this. Pure and JSON-safe (numbers are finite or null).
import { scoreStep } from '../score/step';
import { wordDiff, type DiffPart } from './stepModel';
import { formatMetric, GROUP_LABELS, METRIC_INFO } from './stepText';
import { METRIC_KEYS, POOL_CLASSES, type MetricKey, type PoolClass, type Step } from '../types';

/** How a tag differs between the two sides: a positive B picked and A did not is `gained`, and so on. */
export type FlipKind = 'gained' | 'lost' | 'newWrong' | 'fixedWrong';

export interface PickChip {
  tag: string;
  /** pool group label (T_keep, …, D_random), or null for a pick outside the pool */
  group: string | null;
  mark: 'hit' | 'wrongPick' | 'outside';
  /** how this pick differs from the other side; null when both picked it (or it is outside the pool) */
  flip: FlipKind | null;
}

export interface FlippedTag {
  tag: string;
  group: string;
  positive: boolean;
  kind: FlipKind;
}

export interface SideModel {
  hasResult: boolean;
  /** distinct string picks, in the order given */
  picks: PickChip[];
  /** length of the prediction as returned */
  predicted: number;
  /** the persona this side received; null when it got none (the prompt's cold-start text) */
  personaIn: string | null;
  personaWritten: string;
  reasoning: string;
}

export interface MetricDelta {
  key: MetricKey;
  label: string;
  tooltip: string;
  before: number | null;
  after: number | null;
  /** after − before, null when either is undefined */
  delta: number | null;
  beforeText: string;
  afterText: string;
  /** in percentage points, e.g. "+25.0 pp" */
  deltaText: string;
  /** recalls up and errors down are better */
  trend: 'better' | 'worse' | 'same' | 'na';
}

/** What one side answered; `prediction` null: it has no result for the step. */
export interface SideInput {
  prediction: readonly unknown[] | null;
  /** the persona it received ('' or null for none) */
  personaIn: string | null;
  personaWritten: string;
  reasoning: string;
}

export interface SidesCompared {
  before: SideModel;
  after: SideModel;
  /** positives first (gains, then losses), then distractor changes, each in pool-class order */
  flipped: FlippedTag[];
  /** the step has positives (metrics are defined) */
  scored: boolean;
  metrics: MetricDelta[];
  /** before's written persona → after's; null when either is empty (nothing to compare) */
  personaDiff: DiffPart[] | null;
}

export function finite(v: number | undefined): number | null {
  return v !== undefined && Number.isFinite(v) ? v : null;
}

/** Pool class of each tag (first class wins when the task file lists a tag twice). */
function classes(step: Step): Map<string, PoolClass> {
  const of = new Map<string, PoolClass>();
  for (const cls of POOL_CLASSES) for (const t of step.split[cls]) if (!of.has(t)) of.set(t, cls);
  return of;
}

const isPositive = (cls: PoolClass) => cls === 'tKeep' || cls === 'tNew';

function picksOf(prediction: readonly unknown[]): string[] {
  return [...new Set(prediction.filter((p): p is string => typeof p === 'string'))];
}

/** One side's picks; `flip` is filled in once both sides are known. */
function side(s: SideInput, of: Map<string, PoolClass>): SideModel {
  const prediction = s.prediction ?? [];
  const picks = picksOf(prediction).map((tag): PickChip => {
    const cls = of.get(tag);
    if (!cls) return { tag, group: null, mark: 'outside', flip: null };
    return { tag, group: GROUP_LABELS[cls], mark: isPositive(cls) ? 'hit' : 'wrongPick', flip: null };
  });
  return {
    hasResult: s.prediction !== null,
    picks,
    predicted: prediction.length,
    personaIn: s.personaIn || null,
    personaWritten: s.personaWritten,
    reasoning: s.reasoning,
  };
}

function delta(key: MetricKey, before: number | null, after: number | null): MetricDelta {
  const info = METRIC_INFO[key];
  const d = before !== null && after !== null ? after - before : null;
  const up = key.startsWith('Recall');
  let trend: MetricDelta['trend'] = 'na';
  if (d !== null) trend = Math.abs(d) < 1e-12 ? 'same' : d > 0 === up ? 'better' : 'worse';
  const deltaText =
    d === null ? '—' : Math.abs(d) < 1e-12 ? '±0.0 pp' : `${d > 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)} pp`;
  return {
    key,
    label: info.label,
    tooltip: info.tooltip,
    before,
    after,
    delta: d,
    beforeText: formatMetric(key, before),
    afterText: formatMetric(key, after),
    deltaText,
    trend,
  };
}

const FLIP_ORDER: readonly FlipKind[] = ['gained', 'lost', 'newWrong', 'fixedWrong'];

/** `after` against `before` on one step. */
export function compareSides(step: Step, before: SideInput, after: SideInput): SidesCompared {
  const of = classes(step);
  const was = new Set(picksOf(before.prediction ?? []));
  const now = new Set(picksOf(after.prediction ?? []));
  const b = side(before, of);
  const a = side(after, of);
  const flipped: FlippedTag[] = [];
  for (const [tag, cls] of of) {
    if (was.has(tag) === now.has(tag)) continue;
    const positive = isPositive(cls);
    const kind: FlipKind = positive ? (now.has(tag) ? 'gained' : 'lost') : now.has(tag) ? 'newWrong' : 'fixedWrong';
    flipped.push({ tag, group: GROUP_LABELS[cls], positive, kind });
  }
  const flipOf = new Map(flipped.map((f) => [f.tag, f.kind]));
  for (const chip of [...b.picks, ...a.picks]) chip.flip = flipOf.get(chip.tag) ?? null;
  flipped.sort((x, y) => FLIP_ORDER.indexOf(x.kind) - FLIP_ORDER.indexOf(y.kind));

  const mBefore = before.prediction ? scoreStep(step.split, before.prediction) : null;
  const mAfter = after.prediction ? scoreStep(step.split, after.prediction) : null;
  return {
    before: b,
    after: a,
    flipped,
    scored: scoreStep(step.split, []) !== null,
    metrics: METRIC_KEYS.map((key) => delta(key, finite(mBefore?.[key]), finite(mAfter?.[key]))),
    personaDiff:
      before.personaWritten !== '' && after.personaWritten !== ''
        ? wordDiff(before.personaWritten, after.personaWritten)
        : null,
  };
}
