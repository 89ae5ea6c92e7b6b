// What the Benchmarks tree shows at each level, as plain data. No `vscode` import, so it is unit-tested;
// the node classes in nodes.ts only turn these rows into TreeItems.
import { resultFor, type PlatformScore, type RunScore } from '../../../core/spb/score/run';
import { scoreStep, type UserScore } from '../../../core/spb/score/step';
import { totalsOf } from '../../../core/spb/score/stored';
import { PLATFORM_LABELS } from '../../../core/spb/score/tables';
import {
  SPB_FIGURE_KEYS,
  SPB_ORDER_INFO,
  spbUserFigure,
  type SpbFigureKey,
  type SpbOrderKey,
} from '../../../core/spb/view/userOrder';
import type { UserOrder } from '../../../core/userOrder';
import { MISSING } from '../../../core/glossary';
import { coverageNote } from '../../../core/coverage';
import { METRIC_NAMES } from '../../../core/spb/names';
import type { UserSubset } from '../../../core/spb/score/userSubset';
import {
  PLATFORMS,
  type Benchmark,
  type Platform,
  type Run,
  type Step,
  type StepMetrics,
  type User,
} from '../../../core/spb/types';

/** What the rows of an early tree (the index worker's first figures, no users yet) add to their text. */
export const READING_USERS = 'reading users…';

/** A fraction as a percentage with one decimal, or MISSING ("—") when undefined. */
export function pct(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? MISSING : `${(100 * x).toFixed(1)}%`;
}

const count = (n: number, one: string, many = one + 's') => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** TreeItem ids: stable across reloads so VS Code keeps the expanded state and the selection. */
export const nodeId = {
  benchmark: (): string => 'benchmark',
  platform: (p: Platform): string => `platform/${p}`,
  user: (p: Platform, userId: string): string => `user/${p}/${userId}`,
  step: (p: Platform, userId: string, stepId: number): string => `step/${p}/${userId}/${stepId}`,
};

export interface PlatformRow {
  platform: Platform;
  label: string;
  users: number;
  steps: number;
  /** undefined when no run is selected or the run has no results file for this platform */
  score: PlatformScore | undefined;
  description: string;
}

/**
 * The benchmark row's text: the selected run's Avg. R first (a side bar cuts the end of a row), said to be the
 * sample's when filtered to one, then the run.
 */
export function benchmarkDescription(run: Run | undefined, score: RunScore | undefined, sample?: string): string {
  if (!run) return sample ? `no run · ${sample}` : 'no run';
  // A run over part of the benchmark says so right after its figure, in the core's words.
  const note = score && coverageNote(score.coverage.total);
  const avg = `Avg. R ${pct(score?.avg.Recall)}${note ? ` ${note}` : ''}`;
  return `${sample ? `${avg} on ${sample}` : avg} · run: ${run.name}`;
}

/** A platform's users in file order, only those of the sample when the tree is filtered to one. */
export function usersShown(
  bench: Benchmark,
  platform: Platform,
  sample: UserSubset | undefined,
): ReadonlyMap<string, User> {
  const users = bench.users.get(platform) ?? new Map<string, User>();
  if (!sample) return users;
  const ids = sample.get(platform);
  return new Map([...users].filter(([id]) => ids?.has(id)));
}

/** One row per platform with users; with a sample, per platform with users of the sample, counting those. */
export function platformRows(bench: Benchmark, score: RunScore | undefined, sample?: UserSubset): PlatformRow[] {
  const rows: PlatformRow[] = [];
  for (const platform of PLATFORMS) {
    const all = bench.users.get(platform);
    if (!all) continue;
    const users = usersShown(bench, platform, sample);
    if (users.size === 0) continue;
    // A figures-only benchmark (the worker's first read) keeps its users' totals, not their steps.
    const totals = sample ? undefined : totalsOf(all);
    let steps = totals?.steps ?? 0;
    if (!totals) for (const u of users.values()) steps += u.steps.length;
    const s = score?.platforms.get(platform);
    const parts = [
      sample ? `${users.size.toLocaleString('en-US')} of ${count(all.size, 'user')}` : count(users.size, 'user'),
    ];
    if (!score) parts.push(count(steps, 'step'));
    else if (!s) parts.push('no results in run');
    else {
      // A figure over part of the platform (a chain run, a run of some users) says so before anything else.
      const coverage = score.coverage.platforms.get(platform);
      const note = coverage && coverageNote(coverage);
      if (note) parts.splice(0, 1, `R ${pct(s.metrics.Recall)} ${note}`);
      else parts.push(`R ${pct(s.metrics.Recall)}`);
    }
    rows.push({
      platform,
      label: PLATFORM_LABELS[platform],
      users: users.size,
      steps,
      score: s,
      description: parts.join(' · '),
    });
  }
  return rows;
}

/** What the platform row says of the user order: nothing for the default (as in the file). */
export function orderNote(order: UserOrder<SpbOrderKey>): string | undefined {
  if (order.key === 'file') return order.direction === 'ascending' ? undefined : 'file order reversed';
  if (order.key === 'id') return order.direction === 'ascending' ? 'by id A → Z' : 'by id Z → A';
  if (order.key === 'labelled') return order.direction === 'descending' ? 'labelled first' : 'unlabelled first';
  return `by ${SPB_ORDER_INFO[order.key].label} ${order.direction === 'ascending' ? '↑' : '↓'}`;
}

/** The figure a user row shows: the one the users are sorted by, else R. */
export function shownFigure(order: UserOrder<SpbOrderKey>): SpbFigureKey {
  return order.key === 'file' || order.key === 'id' || order.key === 'labelled' ? 'Recall' : order.key;
}

export interface UserRow {
  user: User;
  /** undefined: the run has no scored step for this user */
  score: UserScore | undefined;
  description: string;
}

/**
 * One row per user in file order, showing one figure (`shown`). A platform may hold thousands of users, so this
 * does nothing per user beyond a Map lookup into the precomputed RunScore.userScores and some string formatting.
 */
export function userRows(
  users: ReadonlyMap<string, User>,
  score: PlatformScore | undefined,
  runSelected: boolean,
  shown: SpbFigureKey = 'Recall',
): UserRow[] {
  const rows: UserRow[] = new Array<UserRow>(users.size);
  const label = SPB_ORDER_INFO[shown].label;
  let i = 0;
  for (const user of users.values()) {
    const s = score?.userScores.get(user.userId);
    let description: string;
    if (s) description = `${label} ${pct(spbUserFigure(shown, s))}`;
    else if (runSelected) description = 'not scored';
    else description = count(user.steps.length, 'step');
    rows[i++] = { user, score: s, description };
  }
  return rows;
}

export type StepStatus = 'all' | 'some' | 'none' | 'unscored';

export function stepStatus(metrics: StepMetrics | null | undefined): StepStatus {
  if (!metrics || Number.isNaN(metrics.Recall)) return 'unscored';
  if (metrics.Recall >= 1) return 'all';
  return metrics.Recall > 0 ? 'some' : 'none';
}

export const STATUS_TEXT: Record<StepStatus, string> = {
  all: 'all positives hit',
  some: 'some positives hit',
  none: 'no positive hit',
  unscored: 'not scored',
};

export function stepDates(step: Step): string {
  if (!step.dateTarget || step.dateTarget === step.dateInput) return step.dateInput || '(no date)';
  return `${step.dateInput || '?'} → ${step.dateTarget}`;
}

export interface StepRow {
  step: Step;
  label: string;
  /** null: the step is not scored (no positives); undefined: the run has no result for it */
  metrics: StepMetrics | null | undefined;
  status: StepStatus;
  description: string;
}

/** Each step's Recall in the selected run (its dates without one; the tooltip has both). */
export function stepRows(run: Run | undefined, user: User): StepRow[] {
  return user.steps.map((step) => {
    const result = resultFor(run, user, step.stepId);
    const metrics = result ? scoreStep(step.split, result.prediction) : undefined;
    let description: string;
    if (!run) description = stepDates(step);
    else if (metrics === undefined) description = 'no result';
    else if (metrics === null) description = 'not scored';
    else description = `R ${pct(metrics.Recall)}`;
    return { step, label: `step ${step.stepId}`, metrics, status: stepStatus(metrics), description };
  });
}

/** Parses "we_16d82b9a92", "we_16d82b9a92 3", "we_16d82b9a92#3" or "we_16d82b9a92:3" (user id, optional step). */
export function parseUserQuery(text: string): { userId: string; stepId?: number } | undefined {
  const m = /^\s*([^\s#:/]+)(?:\s*[\s#:/]\s*(?:step\s*)?(\d+))?\s*$/i.exec(text);
  if (!m) return undefined;
  return m[2] === undefined ? { userId: m[1] } : { userId: m[1], stepId: Number(m[2]) };
}

/** The user with this id on any platform (ids carry a platform prefix, but the files are not trusted to agree). */
export function findUser(bench: Benchmark, userId: string): User | undefined {
  for (const users of bench.users.values()) {
    const user = users.get(userId);
    if (user) return user;
  }
  return undefined;
}

/**
 * The full figures as a Markdown table, each named by its symbol and in words ("Recall (R)") with its glossary
 * sentence (src/core/glossary.ts); keys left out of `values` are not listed, undefined or NaN show as MISSING ("—").
 * Only numbers and fixed names: no dataset text.
 */
export function figuresTable(values: Partial<Record<SpbFigureKey, number | undefined>>): string {
  const lines = ['| Figure | Value | What it is |', '|---|---:|---|'];
  for (const key of SPB_FIGURE_KEYS) {
    if (!(key in values)) continue;
    const info = SPB_ORDER_INFO[key];
    lines.push(`| ${info.name} (${info.label}) | ${pct(values[key])} | ${METRIC_NAMES[key].definition} |`);
  }
  return lines.join('\n');
}

/** The figures of a user's score (or a platform's M̄), for figuresTable. */
export function userFigures(score: UserScore): Record<SpbFigureKey, number | undefined> {
  const out = {} as Record<SpbFigureKey, number | undefined>;
  for (const key of SPB_FIGURE_KEYS) out[key] = spbUserFigure(key, score);
  return out;
}
