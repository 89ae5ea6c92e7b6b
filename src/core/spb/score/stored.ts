// Figures a job takes from the index instead of computing them (a warm `score` that reads no rows): per results
// file, what scoreRun, runCoverage and failedRequests compute for its platform, and per tasks file the totals its
// coverage counts against. The index computed them with the same functions (format/figuresPage.ts), so they are
// the figures to the bit; they are attached to the maps they describe, as the pick tables are (table.ts).
import type { CoverageCount } from '../../coverage';
import type { User, UserResult } from '../types';
import type { AggregateScore } from './step';

/** What a results file gives the run's figures for its platform. */
export interface PlatformFigures {
  score: AggregateScore;
  coverage: { users: CoverageCount; items: CoverageCount; key: string };
  /** steps with the reference's error record, steps with a result, and R̄ without the former */
  failed: { failed: number; steps: number; recallExcludingFailed: number };
}

/** What a tasks file gives every run's coverage: its users with steps, and their steps. */
export interface PlatformTotals {
  users: number;
  steps: number;
}

const figures = new WeakMap<
  ReadonlyMap<string, UserResult>,
  { users: ReadonlyMap<string, User>; f: PlatformFigures }
>();
const totals = new WeakMap<ReadonlyMap<string, User>, PlatformTotals>();

export function attachFigures(
  results: ReadonlyMap<string, UserResult>,
  users: ReadonlyMap<string, User>,
  f: PlatformFigures,
): void {
  figures.set(results, { users, f });
}

export function attachTotals(users: ReadonlyMap<string, User>, t: PlatformTotals): void {
  totals.set(users, t);
}

/** The stored figures of a results map scored against these users, if the index gave them. */
export function figuresOf(
  results: ReadonlyMap<string, UserResult> | undefined,
  users: ReadonlyMap<string, User> | undefined,
): PlatformFigures | undefined {
  const got = results && figures.get(results);
  return got && got.users === users ? got.f : undefined;
}

export const totalsOf = (users: ReadonlyMap<string, User>): PlatformTotals | undefined => totals.get(users);
