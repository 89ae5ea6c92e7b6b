// `persona-lab experiment`: a template over a sample's users (the runner, as `run` does: persona threaded, resumable,
// through the PI guard), scored against a base run on the sample's steps, and recorded in the experiment log.
// `persona-lab experiments`: the log, newest first.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { experimentRunName } from '../../../core/spb/experiments/experiment';
import { EXPERIMENTS_DB, ExperimentLog } from '../../../core/spb/experiments/log';
import { authorName, recordExperiment } from '../../../core/spb/experiments/record';
import { checkSample, readSample } from '../../../core/spb/experiments/sampleFile';
import { sampleSize } from '../../../core/spb/experiments/sample';
import { DEFAULT_SYSTEM_MESSAGE } from '../../../core/spb/prompt/prompt';
import { loadBenchmark } from '../../../core/spb/format/load';
import { cacheOption } from '../../cacheOption';
import { executeRun } from './run';
import { Usage, usageFailure, type RunCliIo, type RunCliOptions } from '../../runArgs';
import { parseRunArgs } from './runArgs';
import { experimentsJson, experimentsTable, figureLines } from '../../../core/spb/experiments/text';
import { benchmarkSize, experimentCoverage } from '../../../core/spb/experiments/coverage';
import { coverageNote } from '../../../core/coverage';

export const EXPERIMENT_OPTIONS = {
  sample: { type: 'string' },
} as const;

export const EXPERIMENT_USAGE = `  experiment <dir> --template FILE --sample NAME --base-url URL --model NAME [--base-run RUN] [--out NAME]
      [--persona full|none] [--concurrency N] [--timeout S] [--max-reply-mb N] [--temperature T] [--max-tokens N]
      [--system-message FILE] [--pi-guard refuse|mask|send] [--pi-guard-loopback]
      [--input-per-mtok PRICE] [--output-per-mtok PRICE] [--dry-run]
                                                           run a template over a sample's users into
                                                           results/exp-<sample>-<template id>-<config>/ (resumes
                                                           when re-run), compare it with RUN (default: the sample's
                                                           base run) on the sample's steps as Compare Runs does, and
                                                           log it in .personalab/experiments.db
  experiments <dir> [--json]                               the experiment log, newest first, with the paired deltas`;

export interface ExperimentCliOptions extends RunCliOptions {
  sample?: string;
  json?: boolean;
}

/** Exit status as `run`'s: 0 done, 1 failed, 2 usage, 4 refused by the PI guard, 130 cancelled (run again to resume). */
export async function runExperimentCommand(
  args: string[],
  opts: ExperimentCliOptions,
  io: RunCliIo,
  ownSignals: boolean,
): Promise<number> {
  if (opts.json)
    return usageFailure(
      io,
      EXPERIMENT_USAGE,
      '--json does not apply to a StreamProfileBench experiment (experiments --json lists the log)',
    );
  if (!opts.template) return usageFailure(io, EXPERIMENT_USAGE, 'experiment needs --template FILE');
  if (!opts.sample)
    return usageFailure(io, EXPERIMENT_USAGE, 'experiment needs --sample NAME (see persona-lab sample)');
  for (const o of ['platform', 'user', 'from-step', 'history'] as const)
    if (opts[o] !== undefined)
      return usageFailure(io, EXPERIMENT_USAGE, `experiment runs the sample's users: --${o} does not apply`);
  const baseOption = opts['base-run'];
  let parsed;
  try {
    // --base-run is the run compared with here, not the start persona of `run`: every chain starts at step 1.
    parsed = parseRunArgs(args, { ...opts, 'base-run': undefined }, io.env, 'experiment');
  } catch (e) {
    if (e instanceof Usage) return usageFailure(io, EXPERIMENT_USAGE, e.message);
    throw e;
  }
  const bench = await loadBenchmark(parsed.dir, { runs: [], ...cacheOption(opts) });
  const sample = readSample(bench.root, opts.sample);
  const check = checkSample(bench, sample);
  for (const w of check.warnings) io.stderr(`warning: ${w}\n`);
  if (check.errors.length) {
    for (const e of check.errors) io.stderr(`persona-lab: ${e}\n`);
    return 1;
  }
  const baseRun = baseOption ?? sample.baseRun ?? undefined;
  if (baseRun && !existsSync(join(bench.root, 'results', baseRun)))
    throw new Error(`--base-run: no run "${baseRun}" under ${join(bench.root, 'results')}`);
  const systemMessage = parsed.systemMessage ?? DEFAULT_SYSTEM_MESSAGE;
  parsed.users = sample.users;
  parsed.out =
    opts.out ??
    experimentRunName(sample.name, parsed.template, {
      model: parsed.model,
      temperature: parsed.temperature,
      maxTokens: parsed.maxTokens ?? null,
      systemMessage,
      personaMode: parsed.persona,
    });
  if (parsed.out === baseRun) return usageFailure(io, EXPERIMENT_USAGE, `--out ${parsed.out} is the base run`);
  const size = sampleSize(bench, sample.users);
  io.stderr(`experiment ${parsed.out}: sample ${sample.name} (${size.users} users, ${size.steps} steps)\n`);
  const result = await executeRun(parsed, bench, opts, io, ownSignals);
  if (result.code !== 0 || !result.summary) return result.code;

  const scored = await loadBenchmark(parsed.dir, {
    runs: baseRun ? [parsed.out, baseRun] : [parsed.out],
    ...cacheOption(opts),
  });
  const { figures, logPath, entry } = recordExperiment({
    bench: scored,
    sample,
    run: parsed.out,
    baseRun,
    template: parsed.template,
    templateName: parsed.templateName,
    systemMessage,
    endpoint: {
      baseURL: parsed.baseURL,
      model: parsed.model,
      temperature: parsed.temperature,
      maxTokens: parsed.maxTokens ?? null,
    },
    personaMode: parsed.persona,
    author: authorName(bench.root),
  });
  const over = coverageNote(experimentCoverage({ ...entry, id: 0 }, benchmarkSize(scored)));
  const lines = [
    ...(figures
      ? figureLines(figures)
      : ['  no base run: pass --base-run RUN to compare (the sample was drawn without one)']),
    ...(over ? [`  figures ${over} (the sample's, not the benchmark's)`] : []),
  ];
  io.stdout(`${lines.join('\n')}\n  logged in ${logPath}\n`);
  return 0;
}

export async function runExperimentsCommand(args: string[], opts: ExperimentCliOptions, io: RunCliIo): Promise<number> {
  const [dir, extra] = args;
  if (!dir) return usageFailure(io, EXPERIMENT_USAGE, 'experiments needs a benchmark folder');
  if (extra !== undefined) return usageFailure(io, EXPERIMENT_USAGE, `unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Error(`${dir}: no such file or folder`);
  const bench = await loadBenchmark(dir, { runs: [], ...cacheOption(opts) });
  const path = join(bench.root, EXPERIMENTS_DB);
  if (!existsSync(path)) {
    io.stdout(opts.json ? '[]\n' : `No experiments yet (${path} does not exist).\n`);
    return 0;
  }
  const log = ExperimentLog.open(path, { mustExist: true });
  try {
    const rows = log.list();
    const size = benchmarkSize(bench);
    io.stdout((opts.json ? JSON.stringify(experimentsJson(rows, size)) : experimentsTable(rows, size)) + '\n');
  } finally {
    log.close();
  }
  return 0;
}
