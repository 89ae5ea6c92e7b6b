// `persona-lab long-context`: the paper's long-context baseline (appendix E, Table 7). One request per qualifying
// user (≥ 4 steps) with the earlier steps' posts concatenated and no persona, on the last step's pool, run as `run`
// does (estimate, PI guard, retries, resumable), then shown beside the streaming base run on the same last steps and
// logged in the experiment log as a 'long-context' row (recordLongContext, as the extension does).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { longContextLines, longContextPlan } from '../../../core/spb/experiments/longContext';
import { authorName, recordLongContext } from '../../../core/spb/experiments/record';
import { checkSample, readSample, type Sample } from '../../../core/spb/experiments/sampleFile';
import { loadBenchmark } from '../../../core/spb/format/load';
import { DEFAULT_SYSTEM_MESSAGE } from '../../../core/spb/prompt/prompt';
import { cacheOption } from '../../cacheOption';
import { executeRun } from './run';
import { Usage, usageFailure, type RunCliIo } from '../../runArgs';
import { parseRunArgs } from './runArgs';
import type { ExperimentCliOptions } from './experiment';

export const LONG_CONTEXT_USAGE = `  long-context <dir> --base-run RUN --base-url URL --model NAME [--sample NAME] [--template FILE] [--out NAME]
      [--concurrency N] [--timeout S] [--max-reply-mb N] [--temperature T] [--max-tokens N] [--system-message FILE]
      [--pi-guard refuse|mask|send] [--pi-guard-loopback] [--input-per-mtok PRICE] [--output-per-mtok PRICE]
      [--dry-run]                                          the long-context baseline (paper, appendix E): for users
                                                           with ≥ 4 steps (of the sample, or all), one request with
                                                           the earlier steps' posts under "--- <date> ---" headers,
                                                           no persona, on the last step's pool, into
                                                           results/longctx-<sample|all>-<template id>/ (resumes when
                                                           re-run); printed beside RUN's last steps (Table 7) and
                                                           logged in .personalab/experiments.db`;

/** Exit status as `run`'s: 0 done, 1 failed, 2 usage, 4 refused by the PI guard, 130 cancelled (run again to resume). */
export async function runLongContextCommand(
  args: string[],
  opts: ExperimentCliOptions,
  io: RunCliIo,
  ownSignals: boolean,
): Promise<number> {
  const baseRun = opts['base-run'];
  if (!baseRun)
    return usageFailure(
      io,
      LONG_CONTEXT_USAGE,
      'long-context needs --base-run RUN (the streaming run it is shown beside)',
    );
  for (const o of ['platform', 'user', 'from-step', 'history'] as const)
    if (opts[o] !== undefined)
      return usageFailure(io, LONG_CONTEXT_USAGE, `long-context runs the qualifying users: --${o} does not apply`);
  if (opts.persona !== undefined)
    return usageFailure(io, LONG_CONTEXT_USAGE, 'long-context sends no persona: --persona does not apply');
  let parsed;
  try {
    // --base-run is the streaming run compared with, not a start persona: the request carries none.
    parsed = parseRunArgs(args, { ...opts, 'base-run': undefined, persona: 'none' }, io.env, 'long-context');
  } catch (e) {
    if (e instanceof Usage) return usageFailure(io, LONG_CONTEXT_USAGE, e.message);
    throw e;
  }
  const bench = await loadBenchmark(parsed.dir, { runs: [], ...cacheOption(opts) });
  if (!existsSync(join(bench.root, 'results', baseRun)))
    throw new Error(`--base-run: no run "${baseRun}" under ${join(bench.root, 'results')}`);
  let sample: Sample | undefined;
  if (opts.sample) {
    sample = readSample(bench.root, opts.sample);
    const check = checkSample(bench, sample);
    for (const w of check.warnings) io.stderr(`warning: ${w}\n`);
    if (check.errors.length) {
      for (const e of check.errors) io.stderr(`persona-lab: ${e}\n`);
      return 1;
    }
  }
  const plan = longContextPlan(bench, parsed.template, sample);
  const { users, count: n } = plan;
  if (n === 0) {
    io.stderr(`persona-lab: no user ${opts.sample ? `of sample ${opts.sample} ` : ''}has 4 or more steps\n`);
    return 1;
  }
  parsed.users = users;
  parsed.out = opts.out ?? plan.name;
  if (parsed.out === baseRun) return usageFailure(io, LONG_CONTEXT_USAGE, `--out ${parsed.out} is the base run`);
  io.stderr(
    `long-context ${parsed.out}: ${n} users with ≥ 4 steps${opts.sample ? ` of sample ${opts.sample}` : ''}, one request each (their last step)\n`,
  );
  const result = await executeRun(parsed, plan.view, opts, io, ownSignals, {
    readPosts: plan.readPosts,
    oneStepPerUser: true,
  });
  if (result.code !== 0 || !result.summary) return result.code;

  const scored = await loadBenchmark(parsed.dir, { runs: [parsed.out, baseRun], ...cacheOption(opts) });
  const { table, logPath } = recordLongContext({
    bench: scored,
    sample: sample ? { name: sample.name, seed: sample.seed } : null,
    users,
    run: parsed.out,
    baseRun,
    template: parsed.template,
    templateName: parsed.templateName,
    systemMessage: parsed.systemMessage ?? DEFAULT_SYSTEM_MESSAGE,
    endpoint: {
      baseURL: parsed.baseURL,
      model: parsed.model,
      temperature: parsed.temperature,
      maxTokens: parsed.maxTokens ?? null,
    },
    author: authorName(bench.root),
  });
  io.stdout(`${longContextLines(table).join('\n')}\n  logged in ${logPath}\n`);
  return 0;
}
