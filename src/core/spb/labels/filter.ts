// Step filters for the Benchmarks tree, j/k in the step view and "next unlabelled step": label criteria, failure
// signatures of a run's result, and the runs they are judged in. Pure TypeScript.
import { pickSet, scoreStep } from '../score/step';
import { PLATFORMS, type Benchmark, type Platform, type Step, type StepResult, type User } from '../types';
import { suggestLabels } from './suggest';
import { isErrorRecord } from '../score/failedRequests';
import { findAround } from '../../labels/walk';

export type FailureSignature = 'decayPick' | 'recallZero' | 'formatError' | 'failedRequest';
export const FAILURE_SIGNATURES: readonly FailureSignature[] = [
  'decayPick',
  'recallZero',
  'formatError',
  'failedRequest',
];

export const SIGNATURE_TEXT: Record<FailureSignature, { label: string; detail: string }> = {
  decayPick: { label: 'Any decay pick', detail: 'the prediction holds at least one D_decay tag' },
  recallZero: { label: 'R = 0', detail: 'a scored step where no positive (T_keep ∪ T_new) was picked' },
  formatError: {
    label: 'Format error',
    detail: 'runner error, wrong count, duplicates, non-strings or out-of-pool picks',
  },
  failedRequest: {
    label: 'Failed request',
    detail: "the reference's error record: no usable reply after three tries, scored as the reference scores it",
  },
};

/**
 * Criteria are ANDed across groups and ORed inside a group. An empty group does not restrict. `runs` names the runs
 * whose labels and results are looked at (empty: the selected run); a step matches when it matches in one of them.
 */
export interface StepFilter {
  /** Steps carrying any of these label ids. */
  labels: string[];
  /** Also (OR) steps with no label at all. */
  unlabelled: boolean;
  signatures: FailureSignature[];
  runs: string[];
}

export const EMPTY_FILTER: StepFilter = { labels: [], unlabelled: false, signatures: [], runs: [] };

export function isFilterActive(f: StepFilter): boolean {
  return f.labels.length > 0 || f.unlabelled || f.signatures.length > 0 || f.runs.length > 0;
}

/** A filter read back from storage or a command argument; anything malformed is dropped. */
export function normalizeFilter(v: unknown): StepFilter {
  const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  const strings = (x: unknown) =>
    Array.isArray(x) ? [...new Set(x.filter((s): s is string => typeof s === 'string' && s !== ''))] : [];
  return {
    labels: strings(o.labels),
    unlabelled: o.unlabelled === true,
    signatures: strings(o.signatures).filter((s): s is FailureSignature =>
      (FAILURE_SIGNATURES as readonly string[]).includes(s),
    ),
    runs: strings(o.runs),
  };
}

/** One line for the tree's message, e.g. "label D_decay pick or unlabelled · R = 0 · run demo-llm". */
export function describeFilter(f: StepFilter, names: ReadonlyMap<string, string> = new Map()): string {
  const parts: string[] = [];
  const labels = f.labels.map((l) => names.get(l) ?? l);
  if (f.unlabelled) labels.push('unlabelled');
  if (labels.length) parts.push(f.labels.length ? `label ${labels.join(' or ')}` : labels.join(' or '));
  if (f.signatures.length) parts.push(f.signatures.map((s) => SIGNATURE_TEXT[s].label).join(' or '));
  if (f.runs.length) parts.push(`${f.runs.length === 1 ? 'run' : 'runs'} ${f.runs.join(', ')}`);
  return parts.join(' · ') || 'no filter';
}

/** The failure signatures of a run's result for a step (none without a result). */
export function signaturesOf(step: Step, result: StepResult | undefined): Set<FailureSignature> {
  const out = new Set<FailureSignature>();
  if (!result) return out;
  const picks = pickSet(result.prediction);
  if (step.split.dDecay.some((t) => picks.has(t))) out.add('decayPick');
  const metrics = scoreStep(step.split, result.prediction);
  if (metrics && metrics.Recall === 0) out.add('recallZero');
  const suggestions = suggestLabels({
    split: step.split,
    pool: step.pool,
    prediction: result.prediction,
    reasoning: result.reasoning,
  });
  if (suggestions.some((s) => s.labelId === 'format-error')) out.add('formatError');
  if (isErrorRecord(result)) out.add('failedRequest');
  return out;
}

/** What a filter needs to know about labels and results; `run` is a results folder name ('' for none). */
export interface FilterSource {
  selectedRun: string;
  labelsOf(run: string, user: User, step: Step): readonly string[];
  resultOf(run: string, user: User, step: Step): StepResult | undefined;
}

export function matchesFilter(f: StepFilter, src: FilterSource, user: User, step: Step): boolean {
  const runs = f.runs.length ? f.runs : [src.selectedRun];
  return runs.some((run) => {
    if (f.labels.length || f.unlabelled) {
      const labels = src.labelsOf(run, user, step);
      const ok = (f.unlabelled && labels.length === 0) || f.labels.some((l) => labels.includes(l));
      if (!ok) return false;
    }
    if (f.signatures.length) {
      const sig = signaturesOf(step, src.resultOf(run, user, step));
      if (!f.signatures.some((s) => sig.has(s))) return false;
    }
    return true;
  });
}

export interface StepAt {
  platform: Platform;
  userId: string;
  stepId: number;
}

export interface OrderedStep {
  user: User;
  step: Step;
}

/** Every step in tree order: platforms in the spec's order, users in file order, steps in order. */
/** Every step, platform by platform, users in the order `usersOf` gives (the tree's; file order by default). */
export function orderedSteps(
  bench: Benchmark,
  usersOf: (platform: Platform) => Iterable<string> = (p) => bench.users.get(p)?.keys() ?? [],
): OrderedStep[] {
  const out: OrderedStep[] = [];
  for (const platform of PLATFORMS) {
    const users = bench.users.get(platform);
    for (const userId of usersOf(platform)) {
      const user = users?.get(userId);
      if (user) for (const step of user.steps) out.push({ user, step });
    }
  }
  return out;
}

export function indexOfStep(order: readonly OrderedStep[], at: StepAt): number {
  return order.findIndex(
    (o) => o.user.platform === at.platform && o.user.userId === at.userId && o.step.stepId === at.stepId,
  );
}

/**
 * The first step after (delta 1) or before (delta -1) `from` that satisfies `pred`, in tree order. With `wrap` the
 * search goes round once (the start itself comes last); without it, it stops at the ends. No `from`: from the start.
 */
export function findStep(
  order: readonly OrderedStep[],
  from: StepAt | undefined,
  delta: 1 | -1,
  pred: (o: OrderedStep) => boolean,
  wrap: boolean,
): OrderedStep | undefined {
  return findAround(order, from ? indexOfStep(order, from) : -1, delta, pred, wrap);
}
