// What the Benchmarks tree shows at each level, as plain data. No `vscode` import, so it is unit-tested;
// the node classes in nodes.ts only turn these rows into TreeItems.
import { resultFor, type PlatformScore, type RunScore } from '../../core/spb/score/run';
import { scoreStep, userF1ns, type UserScore } from '../../core/spb/score/step';
import { PLATFORM_LABELS } from '../../core/spb/tables';
import {
  PLATFORMS,
  type Benchmark,
  type Platform,
  type Run,
  type Step,
  type StepMetrics,
  type User,
} from '../../core/spb/types';

/** A fraction as a percentage with one decimal, or an em dash when undefined. */
export function pct(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? '—' : `${(100 * x).toFixed(1)}%`;
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

function metricsPart(recall: number, f1ns: number): string {
  return `R ${pct(recall)} · F1^NS ${pct(f1ns)}`;
}

export function platformRows(bench: Benchmark, score: RunScore | undefined): PlatformRow[] {
  const rows: PlatformRow[] = [];
  for (const platform of PLATFORMS) {
    const users = bench.users.get(platform);
    if (!users) continue;
    let steps = 0;
    for (const u of users.values()) steps += u.steps.length;
    const s = score?.platforms.get(platform);
    const parts = [count(users.size, 'user'), count(steps, 'step')];
    if (score) parts.push(s ? metricsPart(s.metrics.Recall, s.f1ns) : 'no results in run');
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

export interface UserRow {
  user: User;
  /** undefined: the run has no scored step for this user */
  score: UserScore | undefined;
  description: string;
}

/**
 * One row per user in file order. A platform may hold thousands of users, so this does nothing per user beyond
 * a Map lookup into the precomputed RunScore.userScores and some string formatting.
 */
export function userRows(
  users: ReadonlyMap<string, User>,
  score: PlatformScore | undefined,
  runSelected: boolean,
): UserRow[] {
  const rows: UserRow[] = new Array<UserRow>(users.size);
  let i = 0;
  for (const user of users.values()) {
    const s = score?.userScores.get(user.userId);
    const steps = count(user.steps.length, 'step');
    let description = steps;
    if (s) description = `${steps} · ${metricsPart(s.metrics.Recall, userF1ns(s))}`;
    else if (runSelected) description = `${steps} · not scored`;
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

export function stepRows(run: Run | undefined, user: User): StepRow[] {
  return user.steps.map((step) => {
    const result = resultFor(run, user, step.stepId);
    const metrics = result ? scoreStep(step.split, result.prediction) : undefined;
    let tail: string;
    if (!run) tail = '';
    else if (metrics === undefined) tail = ' · no result';
    else if (metrics === null) tail = ' · not scored';
    else tail = ` · R ${pct(metrics.Recall)}`;
    return {
      step,
      label: `step ${step.stepId}`,
      metrics,
      status: stepStatus(metrics),
      description: stepDates(step) + tail,
    };
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
