// Builds what the dashboard shows: the tables, each run's figure data, and filtered step lists. Pure (no vscode).
import {
  ERROR_KEYS,
  constraintSegment,
  isoF1Curve,
  operatingPoint,
  platformFigures,
  recallByStep,
  runTable,
  get,
  type StepPoint,
} from '../../../../core/spb/score/figures';
import type { RunScore } from '../../../../core/spb/score/run';
import { coverageNote, isWhole, type Coverage } from '../../../../core/coverage';
import { PLATFORM_LABELS } from '../../../../core/spb/score/tables';
import { PLATFORMS, type Platform } from '../../../../core/spb/types';
import {
  METRIC_LABELS,
  num,
  type DashboardMemory,
  type DashboardModel,
  type DashboardSample,
  type DashboardSampleChoice,
  type RunFigures,
  type Scope,
  type ScopeFigures,
  type StepFilter,
  type StepRow,
  type TableModel,
} from '../../../../shared/spb/dashboardProtocol';
import { tableModels } from '../../../../core/spb/score/paperTables';

export const ISO_LEVELS = [0.2, 0.4, 0.6, 0.8];

/** Platforms that have scored steps in any of the runs, in the paper's order. */
export function presentPlatforms(points: ReadonlyMap<string, readonly StepPoint[]>): Platform[] {
  const seen = new Set<Platform>();
  for (const list of points.values()) for (const p of list) seen.add(p.platform);
  return PLATFORMS.filter((p) => seen.has(p));
}

export function runFigures(run: string, points: readonly StepPoint[], scopes: readonly Scope[]): RunFigures {
  const out: RunFigures['scopes'] = {};
  const table = runTable(points);
  for (const scope of scopes) {
    const op = operatingPoint(table, scope);
    if (op.steps === 0) continue;
    const figures: ScopeFigures = {
      op: {
        budget: num(op.budget),
        ratio: num(op.ratio),
        alpha: num(op.alpha),
        rStab: num(op.rStab),
        rNov: num(op.rNov),
        f1: num(op.f1),
        steps: op.steps,
        ratioSteps: op.ratioSteps,
        segment: constraintSegment(op.alpha, op.budget),
        contour: isoF1Curve(op.f1),
      },
      byStep: recallByStep(points, scope).map((s) => ({ stepId: s.stepId, recall: num(s.recall), steps: s.steps })),
    };
    out[scope] = figures;
  }
  return {
    run,
    scopes: out,
    platforms: platformFigures(table).map((p) => ({
      platform: p.platform,
      errors: {
        Error_Decay: num(p.errors.Error_Decay),
        Error_Peer: num(p.errors.Error_Peer),
        Error_Viral: num(p.errors.Error_Viral),
        Error_Random: num(p.errors.Error_Random),
      },
      alpha: num(p.alpha),
      steps: p.steps,
    })),
  };
}

export interface DashboardInput {
  benchmark: string;
  runs: readonly string[];
  selected: readonly string[];
  focus: string;
  scores: readonly RunScore[];
  /** scored steps per selected run */
  points: ReadonlyMap<string, readonly StepPoint[]>;
  /** figure data computed before, reused when its points and scopes are the same */
  cache?: FiguresCache;
  /** the benchmark's samples, and the one `scores` and `points` are over (none: the whole benchmark) */
  samples?: readonly DashboardSampleChoice[];
  sample?: DashboardSample;
  /** run -> what made it (core/spb/prompt/runOrigin), for the runs Persona Lab made */
  marks?: Readonly<Record<string, string>>;
  /** run -> its failed requests (core/spb/score/failedRequests failedLine), for the selected runs that have any */
  failed?: Readonly<Record<string, string>>;
  memory?: Readonly<Record<string, DashboardMemory>>;
  /** every run's coverage of what the figures are on (the benchmark or the sample); default: the scored runs' */
  coverages?: ReadonlyMap<string, Coverage>;
}

/** Run name -> figure data, with the points array and scopes it was computed from. */
export type FiguresCache = Map<string, { points: readonly StepPoint[]; scopes: string; figures: RunFigures }>;

function cachedFigures(
  run: string,
  points: readonly StepPoint[],
  scopes: readonly Scope[],
  cache: FiguresCache | undefined,
): RunFigures {
  const key = scopes.join(',');
  const hit = cache?.get(run);
  if (hit && hit.points === points && hit.scopes === key) return hit.figures;
  const figures = runFigures(run, points, scopes);
  cache?.set(run, { points, scopes: key, figures });
  return figures;
}

/**
 * The paper's tables of the shown runs as the dashboard shows and copies them: best / second marks only among runs of
 * the same coverage (core/spb/score/coverageRanks.ts).
 */
export function dashboardTables(scores: readonly RunScore[], on?: string): TableModel[] {
  return tableModels(scores, on);
}

/**
 * The runs ticked when the user has not chosen: the runs that cover the whole benchmark (or the whole sample) when
 * there are any, so that a run of a few users is never shown beside them as if comparable; else every run.
 */
export function defaultRuns(runs: readonly string[], coverageOf: (run: string) => Coverage | undefined): string[] {
  const whole = runs.filter((r) => {
    const c = coverageOf(r);
    return c !== undefined && isWhole(c);
  });
  return whole.length ? whole : [...runs];
}

/** Run -> "over 1 of 10 users, 2 of 17 steps", for the runs whose figures cover part of what they are computed on. */
export function coverageNotes(coverages: Iterable<[string, Coverage]>): Record<string, string> {
  return Object.fromEntries(
    [...coverages].flatMap(([run, c]) => {
      const note = coverageNote(c);
      return note ? [[run, note]] : [];
    }),
  );
}

export function dashboardModel(input: DashboardInput): DashboardModel {
  const platforms = presentPlatforms(input.points);
  const scopes: Scope[] = ['all', ...platforms];
  const coverage = coverageNotes(input.coverages ?? input.scores.map((s) => [s.name, s.coverage.total]));
  const partial = input.selected.filter((run) => coverage[run]).length;
  return {
    benchmark: input.benchmark,
    runs: [...input.runs],
    selected: [...input.selected],
    focus: input.focus,
    scopes,
    tables: dashboardTables(input.scores, input.sample?.label),
    coverage,
    // "Whole benchmark" (or the sample) only when every shown run's figures are over all of it
    scopeLabel: `${input.sample ? `Sample ${input.sample.name} (${input.sample.users} users)` : 'Whole benchmark'}${partial ? ` (${partial} run${partial === 1 ? '' : 's'} over part of it)` : ''}`,
    figures: input.selected.map((run) => cachedFigures(run, input.points.get(run) ?? [], scopes, input.cache)),
    isoLevels: ISO_LEVELS.map((f1) => ({ f1, curve: isoF1Curve(f1) })),
    samples: [...(input.samples ?? [])],
    sample: input.sample ?? null,
    marks: { ...(input.marks ?? {}) },
    failed: { ...(input.failed ?? {}) },
    memory: { ...(input.memory ?? {}) },
  };
}

function stepRow(p: StepPoint): StepRow {
  const m = p.metrics;
  return {
    platform: p.platform,
    userId: p.userId,
    stepId: p.stepId,
    recall: num(m.Recall),
    rStab: num(m.Recall_Stability),
    rNov: num(m.Recall_Novelty),
    errors: ERROR_KEYS.map((k) => num(m[k])),
    budget: num(p.diag.budget),
    alpha: num(p.diag.alpha),
    ratio: num(get.ratio(p)),
  };
}

const SORT_KEY: Record<NonNullable<StepFilter['sort']>, (r: StepRow) => number | null> = {
  budget: (r) => r.budget,
  ratio: (r) => r.ratio,
  alpha: (r) => r.alpha,
  recall: (r) => r.recall,
  Error_Decay: (r) => (r.errors[0] === null ? null : -r.errors[0]),
  Error_Peer: (r) => (r.errors[1] === null ? null : -r.errors[1]),
  Error_Viral: (r) => (r.errors[2] === null ? null : -r.errors[2]),
  Error_Random: (r) => (r.errors[3] === null ? null : -r.errors[3]),
};

/**
 * The steps matching a filter, sorted ascending by the sort key (error rates: highest first) with undefined keys
 * last, ties in benchmark order. Error filters keep the steps where that error rate is above zero.
 */
export function filterSteps(points: readonly StepPoint[], filter: StepFilter): StepRow[] {
  const rows = points
    .filter(
      (p) =>
        (filter.scope === 'all' || p.platform === filter.scope) &&
        (filter.stepId === undefined || p.stepId === filter.stepId),
    )
    .filter((p) => !filter.errorKey || p.metrics[filter.errorKey] > 0)
    .map(stepRow);
  const key = SORT_KEY[filter.sort ?? 'recall'];
  return rows
    .map((r, i) => ({ r, i, k: key(r) }))
    .sort((x, y) => (x.k === null ? 1 : 0) - (y.k === null ? 1 : 0) || (x.k ?? 0) - (y.k ?? 0) || x.i - y.i)
    .map((x) => x.r);
}

export function scopeLabel(scope: Scope): string {
  return scope === 'all' ? 'all platforms' : PLATFORM_LABELS[scope];
}

/** The list's heading, e.g. "demo-llm · Weibo · step 2" or "random · Zhihu · Err peer > 0". */
export function filterTitle(filter: StepFilter): string {
  const parts = [filter.run, scopeLabel(filter.scope)];
  if (filter.stepId !== undefined) parts.push(`step ${filter.stepId}`);
  if (filter.errorKey) parts.push(`${METRIC_LABELS[filter.errorKey]} > 0`);
  return parts.join(' · ');
}
