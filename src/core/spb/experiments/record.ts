// After an experiment's run (or a long-context baseline's): score it against the base run on the sample's steps (the
// qualifying users' last steps), read its cost from the journal, and record it in the experiment log. One function
// each for the CLI and the extension.
import { join } from 'node:path';
import { templateHash, templateId } from '../prompt/prompt';
import type { Benchmark } from '../types';
import { experimentCost, experimentFigures, type ExperimentFigures, type SampleUsers } from './experiment';
import { storedExperiment, type ExperimentInput } from './log';
import { logExperiment } from '../../experiments/log';
import { longContextFigures, type LongContextTable } from './longContext';
import { sampleSize } from './sample';
import type { Sample } from './sampleFile';

export { authorName } from '../../experiments/author';

export interface FinishedExperiment {
  /** loaded with the experiment's run and the base run */
  bench: Benchmark;
  sample: Sample;
  run: string;
  baseRun: string | undefined;
  template: string;
  /** the name the user knows it by (its file's name, or the built-in template's) */
  templateName: string;
  systemMessage: string;
  endpoint: ExperimentInput['endpoint'];
  personaMode: 'full' | 'none';
  author: string;
  now?: Date;
}

/** Scores and logs a finished experiment; throws when its run (or the base run) is not loaded. */
export function recordExperiment(e: FinishedExperiment): {
  figures: ExperimentFigures | null;
  entry: ExperimentInput;
  logPath: string;
} {
  const run = e.bench.runs.get(e.run);
  const base = e.baseRun ? e.bench.runs.get(e.baseRun) : undefined;
  if (!run) throw new Error(`the experiment's run ${e.run} could not be read back`);
  if (e.baseRun && !base) throw new Error(`the base run "${e.baseRun}" could not be read`);
  const figures = base ? experimentFigures(e.bench, base, run, e.sample.users) : null;
  const entry: ExperimentInput = {
    kind: 'template',
    createdAt: (e.now ?? new Date()).toISOString(),
    author: e.author,
    run: e.run,
    baseRun: e.baseRun ?? '',
    sample: { name: e.sample.name, seed: e.sample.seed, users: sampleSize(e.bench, e.sample.users).users },
    template: { id: templateId(e.template), hash: templateHash(e.template), text: e.template, name: e.templateName },
    systemMessage: e.systemMessage,
    endpoint: e.endpoint,
    personaMode: e.personaMode,
    figures,
    scopes: null,
    cost: experimentCost(join(e.bench.root, 'results', e.run), e.sample.users),
  };
  return { figures, entry, logPath: writeEntry(e.bench.root, entry) };
}

const writeEntry = (root: string, entry: ExperimentInput) => logExperiment(root, storedExperiment(entry));

export interface FinishedLongContext {
  /** loaded with the long-context run and the base run */
  bench: Benchmark;
  /** the sample it ran on, or null for the whole benchmark */
  sample: { name: string; seed: number } | null;
  /** the qualifying users (longContextPlan) */
  users: SampleUsers;
  run: string;
  baseRun: string;
  template: string;
  templateName: string;
  systemMessage: string;
  endpoint: ExperimentInput['endpoint'];
  author: string;
  now?: Date;
}

/** The sample column of a long-context row over the whole benchmark (as its run folder, longctx-all-…). */
export const WHOLE_BENCHMARK = 'all';

/**
 * Scores a finished long-context run beside the streaming base run on the same last steps (Table 7) and logs it as a
 * 'long-context' row; throws when either run is not loaded.
 */
export function recordLongContext(e: FinishedLongContext): {
  table: LongContextTable;
  entry: ExperimentInput;
  logPath: string;
} {
  const run = e.bench.runs.get(e.run);
  const base = e.bench.runs.get(e.baseRun);
  if (!run) throw new Error(`the long-context run ${e.run} could not be read back`);
  if (!base) throw new Error(`the base run "${e.baseRun}" could not be read`);
  const { table, figures } = longContextFigures(e.bench, base, run, e.users);
  const entry: ExperimentInput = {
    kind: 'long-context',
    createdAt: (e.now ?? new Date()).toISOString(),
    author: e.author,
    run: e.run,
    baseRun: e.baseRun,
    sample: {
      name: e.sample?.name ?? WHOLE_BENCHMARK,
      seed: e.sample?.seed ?? 0,
      users: sampleSize(e.bench, e.users).users,
    },
    template: { id: templateId(e.template), hash: templateHash(e.template), text: e.template, name: e.templateName },
    systemMessage: e.systemMessage,
    endpoint: e.endpoint,
    personaMode: 'none',
    figures,
    scopes: table.scopes,
    cost: experimentCost(join(e.bench.root, 'results', e.run), e.users),
  };
  return { table, entry, logPath: writeEntry(e.bench.root, entry) };
}
