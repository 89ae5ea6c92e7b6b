// The long-context baseline of the paper's appendix E (Table 7): for users with at least four steps, one request per
// user with the posts of every step before the last concatenated under "--- <date> ---" headers (each batch's
// date_input) and no persona, predicting on the last step's pool, scored against the last step's split. The
// reference code has no long-context runner; this follows the paper's text as we read it.
// The run goes through the ordinary runner (retries, journal, resume) on a view of the benchmark that holds only each
// qualifying user's last step, so its folder is a normal results folder; the comparison is the paired one of
// *Compare Runs* (compareRuns + pairedSummary) on exactly those last steps.
import { userPostsReader } from '../format/load';
import { COMPARE_RESAMPLES, COMPARE_SEED, pairedSummary, type PairedSummaryRow } from '../score/pairedSummary';
import { compareRuns, type RunComparison } from '../score/runCompare';
import { templateId } from '../prompt/prompt';
import { PLATFORMS, type Benchmark, type Platform, type Run, type Step, type User, type UserResult } from '../types';
import { tallyFlips, type ExperimentFigures, type SampleUsers } from './experiment';
import { METRIC_NAMES, METRIC_VIEW_ORDER } from '../names';
import { pyFixed } from '../../io/pyNumber';
import { MISSING } from '../../glossary';

/** How the baseline is named wherever it shows: it is our reading of the paper's text, not the authors' code. */
export const LONG_CONTEXT_READING =
  'long-context baseline, our reading of appendix E: users with ≥ 4 steps, one request each with the earlier steps\' posts under "--- <date_input> ---" headers and no persona, on the last step\'s pool and split';

/** Users with fewer steps than this are left out (the paper: "users with at least four steps"). */
export const LONG_CONTEXT_MIN_STEPS = 4;

/**
 * F1^NS is left out of the comparison: it is computed per user over the steps of a chain (from the user's mean
 * R_nov and R_stab), and a long-context run has one step per user, so it would be that one step's harmonic mean, a
 * different figure from the paper's F1^NS.
 */
export const LONG_CONTEXT_METRICS = METRIC_VIEW_ORDER;

/** The run folder: longctx-<sample name, or "all">-<template id>. */
export function longContextRunName(sample: string | null, template: string): string {
  return `longctx-${sample ?? 'all'}-${templateId(template)}`;
}

/** Qualifying users (≥ 4 steps) per platform, in file order; among `among` when given (a sample), else all. */
export function longContextUsers(bench: Benchmark, among?: SampleUsers): Partial<Record<Platform, string[]>> {
  const out: Partial<Record<Platform, string[]>> = {};
  for (const platform of PLATFORMS) {
    const only = among ? new Set(among[platform] ?? []) : null;
    const ids = [...(bench.users.get(platform)?.values() ?? [])]
      .filter((u) => (!only || only.has(u.userId)) && u.steps.length >= LONG_CONTEXT_MIN_STEPS)
      .map((u) => u.userId);
    if (ids.length) out[platform] = ids;
  }
  return out;
}

/** The posts of every step before the user's last, each under "--- <date_input> ---", oldest first. */
export function longContextPosts(user: User, read: (user: User, step: Step) => string): string {
  return user.steps
    .slice(0, -1)
    .map((s) => `--- ${s.dateInput} ---\n${read(user, s)}`)
    .join('\n\n');
}

/**
 * The benchmark as the long-context run sees it: the qualifying users only, each with its last step only (same
 * step id, index, pool and split). The original users stay reachable through `original`.
 */
export function longContextBench(bench: Benchmark, users: SampleUsers): Benchmark {
  const view = new Map<Platform, Map<string, User>>();
  for (const [platform, ids] of Object.entries(users) as [Platform, string[]][]) {
    const byId = new Map<string, User>();
    for (const id of ids) {
      const u = bench.users.get(platform)?.get(id);
      if (u && u.steps.length >= LONG_CONTEXT_MIN_STEPS) byId.set(id, { ...u, steps: [u.steps[u.steps.length - 1]] });
    }
    if (byId.size) view.set(platform, byId);
  }
  return { ...bench, users: view };
}

/**
 * The posts reader for the long-context run: a step of the view gets the concatenated posts of the original user's
 * earlier steps (the template's posts slot), whatever step it is asked for.
 */
export function longContextReader(
  bench: Benchmark,
  read: (user: User, step: Step) => string = userPostsReader(),
): (user: User, step: Step) => string {
  return (user) => {
    const original = bench.users.get(user.platform)?.get(user.userId);
    return original ? longContextPosts(original, read) : '';
  };
}

/** The run restricted to the qualifying users' last steps (the steps both rows of the table are scored on). */
export function lastStepsOf(bench: Benchmark, run: Run, users: SampleUsers): Run {
  const results: Run['results'] = new Map();
  for (const [platform, byUser] of run.results) {
    const ids = new Set(users[platform] ?? []);
    const kept = new Map<string, UserResult>();
    for (const [id, r] of byUser) {
      const u = bench.users.get(platform)?.get(id);
      if (!ids.has(id) || !u || u.steps.length < LONG_CONTEXT_MIN_STEPS) continue;
      const last = u.steps[u.steps.length - 1].stepId;
      const step = r.steps.get(last);
      if (step) kept.set(id, { ...r, steps: new Map([[last, step]]) });
    }
    if (kept.size) results.set(platform, kept);
  }
  return { name: run.name, results, files: run.files };
}

export interface LongContextTable {
  baseRun: string;
  run: string;
  /** last steps scored in both runs, and their users (one step per user) */
  pairedSteps: number;
  usersByPlatform: Partial<Record<Platform, number>>;
  /** qualifying last steps scored in only one of the runs */
  onlyBase: number;
  onlyRun: number;
  /** per platform with paired users, then "all" (the mean over platforms, the table's Avg.) */
  scopes: { scope: Platform | 'all'; rows: PairedSummaryRow[] }[];
}

/** What the extension and the CLI run: the qualifying users, the view they run on, its posts and its folder. */
export interface LongContextPlan {
  users: Partial<Record<Platform, string[]>>;
  /** qualifying users in all */
  count: number;
  /** the benchmark as the run sees it (longContextBench) */
  view: Benchmark;
  readPosts: (user: User, step: Step) => string;
  /** the run folder (longContextRunName) */
  name: string;
}

/** The plan for a sample (or the whole benchmark when `sample` is absent); `count` 0 when no user qualifies. */
export function longContextPlan(
  bench: Benchmark,
  template: string,
  sample?: { name: string; users: SampleUsers },
): LongContextPlan {
  const users = longContextUsers(bench, sample?.users);
  return {
    users,
    count: Object.values(users).reduce((a, ids) => a + (ids?.length ?? 0), 0),
    view: longContextBench(bench, users),
    readPosts: longContextReader(bench),
    name: longContextRunName(sample?.name ?? null, template),
  };
}

/** The streaming base run (A) against the long-context run (B) on the qualifying users' last steps. */
export function longContextComparison(bench: Benchmark, base: Run, run: Run, users: SampleUsers): RunComparison {
  return compareRuns(bench, lastStepsOf(bench, base, users), lastStepsOf(bench, run, users));
}

export function longContextTable(bench: Benchmark, base: Run, run: Run, users: SampleUsers): LongContextTable {
  return tableOf(longContextComparison(bench, base, run, users), base.name, run.name);
}

/**
 * The table and the experiment log's figures of one long-context run: `figures.summary` is the table's Avg. rows,
 * `flips` the tags that flipped on the paired last steps (one comparison for both).
 */
export function longContextFigures(
  bench: Benchmark,
  base: Run,
  run: Run,
  users: SampleUsers,
): { table: LongContextTable; figures: ExperimentFigures } {
  const cmp = longContextComparison(bench, base, run, users);
  const table = tableOf(cmp, base.name, run.name);
  return {
    table,
    figures: {
      baseRun: base.name,
      run: run.name,
      pairedSteps: table.pairedSteps,
      pairedUsers: cmp.users.length,
      usersByPlatform: table.usersByPlatform,
      onlyBase: table.onlyBase,
      onlyRun: table.onlyRun,
      summary: table.scopes.find((s) => s.scope === 'all')?.rows ?? [],
      flips: tallyFlips(cmp, 20),
    },
  };
}

/** The table back from a logged long-context row (its figures and its per-platform rows). */
export function longContextTableOf(
  figures: ExperimentFigures | null,
  scopes: LongContextTable['scopes'] | null,
): LongContextTable | null {
  if (!figures || !scopes) return null;
  return {
    baseRun: figures.baseRun,
    run: figures.run,
    pairedSteps: figures.pairedSteps,
    usersByPlatform: figures.usersByPlatform,
    onlyBase: figures.onlyBase,
    onlyRun: figures.onlyRun,
    scopes,
  };
}

function tableOf(cmp: RunComparison, baseRun: string, run: string): LongContextTable {
  const usersByPlatform: Partial<Record<Platform, number>> = {};
  for (const u of cmp.users) usersByPlatform[u.platform] = (usersByPlatform[u.platform] ?? 0) + 1;
  const keep = (rows: PairedSummaryRow[]) =>
    rows.filter((r) => (LONG_CONTEXT_METRICS as readonly string[]).includes(r.metric));
  const opts = { resamples: COMPARE_RESAMPLES, seed: COMPARE_SEED };
  const platforms = PLATFORMS.filter((p) => usersByPlatform[p]);
  return {
    baseRun,
    run,
    pairedSteps: cmp.steps.length,
    usersByPlatform,
    onlyBase: cmp.onlyA,
    onlyRun: cmp.onlyB,
    scopes: [
      ...platforms.map((p) => ({ scope: p, rows: keep(pairedSummary(cmp, p, opts)) })),
      ...(platforms.length ? [{ scope: 'all' as const, rows: keep(pairedSummary(cmp, 'all', opts)) }] : []),
    ],
  };
}

const pct = (x: number) => (Number.isFinite(x) ? pyFixed(100 * x, 1) : MISSING);
/** Table 7's layout: per platform and Avg., the streaming row and the long-context row side by side, in %. */
export function longContextLines(t: LongContextTable): string[] {
  const head = ['', 'run', ...LONG_CONTEXT_METRICS.map((m) => METRIC_NAMES[m].short)];
  const rows: string[][] = [head];
  for (const { scope, rows: summary } of t.scopes) {
    const by = new Map(summary.map((r) => [r.metric, r]));
    const name = scope === 'all' ? 'Avg.' : scope;
    const n = scope === 'all' ? t.pairedSteps : (t.usersByPlatform[scope] ?? 0);
    rows.push([`${name} (${n})`, 'streaming', ...LONG_CONTEXT_METRICS.map((m) => pct(by.get(m)?.meanA ?? NaN))]);
    rows.push(['', 'long-context', ...LONG_CONTEXT_METRICS.map((m) => pct(by.get(m)?.meanB ?? NaN))]);
  }
  const widths = head.map((_, i) => Math.max(...rows.map((r) => [...r[i]].length)));
  const text = rows.map((r) =>
    r
      .map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd(),
  );
  return [
    `${LONG_CONTEXT_READING}.`,
    `long-context ${t.run} vs streaming ${t.baseRun}: the last step of ${t.pairedSteps} users with ≥ ${LONG_CONTEXT_MIN_STEPS} steps, the same split`,
    ...text.map((l) => `  ${l}`),
    '  Avg. is the mean over platforms; F1^NS is left out: it is per user over a chain, and this run has one step per user.',
    ...(t.onlyBase || t.onlyRun
      ? [`  not paired: ${t.onlyBase} last steps only in ${t.baseRun}, ${t.onlyRun} only in ${t.run}`]
      : []),
  ];
}
