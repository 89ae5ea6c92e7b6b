// An experiment: a template run over a sample's users into its own run folder, scored against a base run on exactly
// the sample's steps with the paired comparison of *Compare Runs* (compareRuns + pairedSummary, the same bootstrap
// resamples and seed), and what it cost, read back from the run's journal.
import { join } from 'node:path';
import { readJournalSteps } from '../../runner/journal';
import { JOURNAL_FILE } from '../../runner/runFolder';
import { templateId } from '../prompt/prompt';
import { COMPARE_RESAMPLES, COMPARE_SEED, pairedSummary, type PairedSummaryRow } from '../score/pairedSummary';
import { compareRuns, type FlippedTag, type RunComparison } from '../score/runCompare';
import { isPlatform, type Benchmark, type Platform, type Run } from '../types';
import { crypto } from '../../io/builtins';

export type SampleUsers = Partial<Record<Platform, readonly string[]>>;

/** What makes two tries of one template on one sample different runs (the run name carries its hash). */
export interface ExperimentConfig {
  model: string;
  temperature: number;
  maxTokens: number | null;
  systemMessage: string;
  personaMode: 'full' | 'none';
}

/**
 * The run folder of an experiment: exp-<sample>-<template id>-<config hash>. The same command gives the same name, so
 * running it again resumes the run instead of starting another.
 */
export function experimentRunName(sample: string, template: string, config: ExperimentConfig): string {
  const c = crypto()
    .createHash('sha256')
    .update(
      JSON.stringify([config.model, config.temperature, config.maxTokens, config.systemMessage, config.personaMode]),
    )
    .digest('hex')
    .slice(0, 6);
  return `exp-${sample}-${templateId(template)}-${c}`;
}

/** The run with the sample's users only (the steps an experiment is scored on). */
export function restrictRun(run: Run, users: SampleUsers): Run {
  const results: Run['results'] = new Map();
  for (const [platform, byUser] of run.results) {
    const ids = new Set(users[platform] ?? []);
    const kept = new Map([...byUser].filter(([id]) => ids.has(id)));
    if (kept.size) results.set(platform, kept);
  }
  return { name: run.name, results, files: run.files };
}

export interface FlipCount extends FlippedTag {
  kind: 'gained' | 'lost' | 'newWrong' | 'droppedWrong';
  /** steps where this tag flipped this way */
  steps: number;
}

export interface ExperimentFigures {
  baseRun: string;
  run: string;
  pairedSteps: number;
  pairedUsers: number;
  /** paired users per platform: the bootstrap resamples within platforms, so one user there adds no spread */
  usersByPlatform: Partial<Record<Platform, number>>;
  /** sample steps scored in only one of the runs (an unfinished experiment, a base run missing users) */
  onlyBase: number;
  onlyRun: number;
  /** Recall, the three other recalls, the four error rates and F1NS: paired difference run − base, 95 % CI */
  summary: PairedSummaryRow[];
  flips: { gained: number; lost: number; newWrong: number; droppedWrong: number; top: FlipCount[] };
}

const FLIP_KINDS = ['gained', 'lost', 'newWrong', 'droppedWrong'] as const;

/** The tags that flipped on the paired steps, in all and the `top` most frequent (tag, class, kind). */
export function tallyFlips(cmp: RunComparison, top: number): ExperimentFigures['flips'] {
  const totals = { gained: 0, lost: 0, newWrong: 0, droppedWrong: 0 };
  const byTag = new Map<string, FlipCount>();
  for (const s of cmp.steps) {
    for (const kind of FLIP_KINDS) {
      for (const f of s.flips[kind]) {
        totals[kind]++;
        const key = `${kind}\u0000${f.cls}\u0000${f.tag}`;
        const c = byTag.get(key) ?? { ...f, kind, steps: 0 };
        c.steps++;
        byTag.set(key, c);
      }
    }
  }
  const sorted = [...byTag.values()].sort((a, b) => b.steps - a.steps || a.tag.localeCompare(b.tag));
  return { ...totals, top: sorted.slice(0, top) };
}

/** The paired comparison of the experiment's run against the base run, on the sample's users only. */
export function experimentComparison(bench: Benchmark, base: Run, run: Run, users: SampleUsers): RunComparison {
  return compareRuns(bench, restrictRun(base, users), restrictRun(run, users));
}

export function experimentFigures(
  bench: Benchmark,
  base: Run,
  run: Run,
  users: SampleUsers,
  topFlips = 20,
): ExperimentFigures {
  const cmp = experimentComparison(bench, base, run, users);
  const usersByPlatform: Partial<Record<Platform, number>> = {};
  for (const u of cmp.users) usersByPlatform[u.platform] = (usersByPlatform[u.platform] ?? 0) + 1;
  return {
    baseRun: base.name,
    run: run.name,
    pairedSteps: cmp.steps.length,
    pairedUsers: cmp.users.length,
    usersByPlatform,
    onlyBase: cmp.onlyA,
    onlyRun: cmp.onlyB,
    summary: pairedSummary(cmp, 'all', { resamples: COMPARE_RESAMPLES, seed: COMPARE_SEED }),
    flips: tallyFlips(cmp, topFlips),
  };
}

/**
 * Platforms with a single paired user: the interval resamples users within each platform, so such a platform adds
 * no spread and the interval is too narrow (a point when every platform has one user).
 */
/** Every platform of the pairing has one user: resampling users within platforms draws the same users each time. */
export function intervalCannotVary(f: ExperimentFigures): boolean {
  const n = Object.values(f.usersByPlatform ?? {});
  return n.length > 0 && n.every((x) => (x ?? 0) < 2);
}

export function thinPlatforms(f: ExperimentFigures): Platform[] {
  return (Object.entries(f.usersByPlatform ?? {}) as [Platform, number][]).filter(([, n]) => n < 2).map(([p]) => p);
}

export interface ExperimentCost {
  /** HTTP attempts, over every session of the run */
  requests: number;
  steps: number;
  promptTokens: number;
  completionTokens: number;
  /** summed over the attempts, ms (not wall time: users run concurrently) */
  latencyMs: number;
  /** steps recorded before the journal kept tokens (their usage is unknown) */
  unknownUsage: number;
}

/** The cost of a run's steps for the sample's users, from its journal (every session, resumes included). */
export function experimentCost(runDir: string, users: SampleUsers): ExperimentCost {
  const cost = { requests: 0, steps: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0, unknownUsage: 0 };
  const wanted = new Set(
    Object.entries(users).flatMap(([platform, ids]) => (ids ?? []).map((id) => `${platform}\u0000${id}`)),
  );
  for (const e of readJournalSteps(join(runDir, JOURNAL_FILE), isPlatform).values()) {
    if (!wanted.has(`${e.platform}\u0000${e.user}`)) continue;
    cost.steps++;
    cost.requests += e.attempts;
    if (e.prompt_tokens === undefined) cost.unknownUsage++;
    cost.promptTokens += e.prompt_tokens ?? 0;
    cost.completionTokens += e.completion_tokens ?? 0;
    cost.latencyMs += e.latency_ms ?? 0;
  }
  return cost;
}
