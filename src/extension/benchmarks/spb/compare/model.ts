// Builds the compare view's model from a RunComparison. Pure (no vscode), unit-tested.
import type { PairedSummaryRow } from '../../../../core/spb/score/pairedSummary';
import {
  higherIsBetter,
  sortStepDeltas,
  type RunComparison,
  type StepDelta,
} from '../../../../core/spb/score/runCompare';
import { METRIC_KEYS, type MetricKey } from '../../../../core/spb/types';
import { compareCoverage, SPB_COMPARE_BOOTSTRAP } from '../../../../core/spb/view/compare';
import type { RunCoverage } from '../../../../core/spb/score/coverage';
import {
  num,
  type CompareModel,
  type CompareRow,
  type Scope,
  type SortOrder,
  type SummaryRow,
} from '../../../../shared/spb/dashboardProtocol';

export const RESAMPLES = SPB_COMPARE_BOOTSTRAP.resamples;
export const SEED = SPB_COMPARE_BOOTSTRAP.seed;

export function summaryRows(rows: readonly PairedSummaryRow[]): SummaryRow[] {
  return rows.map((r) => ({
    metric: r.metric,
    meanA: num(r.meanA),
    meanB: num(r.meanB),
    diff: num(r.diff),
    ciLow: num(r.ciLow),
    ciHigh: num(r.ciHigh),
    users: r.users,
    userWtl: [r.userWtl.win, r.userWtl.tie, r.userWtl.loss],
    stepWtl: r.stepWtl ? [r.stepWtl.win, r.stepWtl.tie, r.stepWtl.loss] : null,
    higherIsBetter: higherIsBetter(r.metric),
  }));
}

function compareRow(s: StepDelta): CompareRow {
  return {
    platform: s.platform,
    userId: s.userId,
    stepId: s.stepId,
    a: METRIC_KEYS.map((k) => num(s.a[k])),
    b: METRIC_KEYS.map((k) => num(s.b[k])),
    delta: METRIC_KEYS.map((k) => num(s.delta[k])),
    gained: s.flips.gained,
    lost: s.flips.lost,
    newWrong: s.flips.newWrong,
    droppedWrong: s.flips.droppedWrong,
  };
}

export interface CompareOptions {
  scope: Scope;
  sortMetric: MetricKey;
  order: SortOrder;
}

export function compareModel(
  cmp: RunComparison,
  summary: readonly PairedSummaryRow[],
  runs: readonly string[],
  scopes: readonly Scope[],
  opts: CompareOptions,
  marks: Record<string, string> = {},
  coverage?: { a: RunCoverage; b: RunCoverage },
): CompareModel {
  const steps = cmp.steps.filter((s) => opts.scope === 'all' || s.platform === opts.scope);
  return {
    coverage: coverage ? compareCoverage(cmp, coverage, opts.scope) : null,
    runA: cmp.runA,
    runB: cmp.runB,
    marks: Object.fromEntries(Object.entries(marks).filter(([run]) => run === cmp.runA || run === cmp.runB)),
    runs: [...runs],
    scope: opts.scope,
    scopes: [...scopes],
    sortMetric: opts.sortMetric,
    order: opts.order,
    summary: summaryRows(summary),
    rows: sortStepDeltas(steps, opts.sortMetric, opts.order).map(compareRow),
    paired: steps.length,
    onlyA: cmp.onlyA,
    onlyB: cmp.onlyB,
    resamples: RESAMPLES,
    seed: SEED,
  };
}

/** Keys "platform/userId/stepId" of the steps where B's Recall is below A's (the tree's compare-mode badges). */
export function regressedSteps(cmp: RunComparison): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of cmp.steps)
    if (s.delta.Recall < -1e-12) out.set(`${s.platform}/${s.userId}/${s.stepId}`, s.delta.Recall);
  return out;
}
