// `persona-lab experiment` on a PersonaMem folder: the sample's questions asked as `run` asks them (the same code,
// the checkout's request or our template, resumable, through the PI guard) into
// results/eval_results_<size>_exp-<sample>-<config>.csv, then compared with a base run on the sample's questions
// (accuracy overall and per question type, the paired difference with its interval over personas).
import { personaMem } from '../../../core/personamem/format';
import { pmExperimentRunName, pmFigureLines } from '../../../core/personamem/experiment/compare';
import {
  pmExperimentEntry,
  pmExperimentJson,
  pmExperimentRows,
  recordPmExperiment,
} from '../../../core/personamem/experiment/log';
import { pmExperimentsTable } from '../../../core/personamem/experiment/text';
import { personaMemRoot } from '../../../core/personamem/load';
import { authorName } from '../../../core/experiments/author';
import { checkPmSample, readPmSample } from '../../../core/personamem/experiment/sample';
import { samplePath } from '../../../core/experiments/sampleFile';
import { runNameProblem } from '../../../core/runner/runFolder';
import { parseBatchRun, parseOrUsage, type BatchRunCommand } from '../../batchRun';
import { Usage, type RunCliIo, type RunCliOptions } from '../../runArgs';
import { executePmRun, PM_CHECKOUT_RULE } from './run';

export const PM_EXPERIMENT_USAGE = `  experiment <personamem dir> --sample NAME --base-url URL --model NAME [--base-run RUN] [--out NAME]
      [--temperature T] [--concurrency N] [--timeout S] [--max-reply-mb N] [--pi-guard refuse|mask|send]
      [--pi-guard-loopback] [--reference DIR | --no-reference] [--python EXE] [--dry-run] [--json]
                                                           PersonaMem: asks the sample's questions (persona-lab
                                                           sample --questions N) as run does, into
                                                           results/eval_results_SIZE_exp-<sample>-<config>.csv
                                                           (resumes when re-run), and compares it with RUN (a run as
                                                           score names it, e.g. 32k_gpt-4o) on the sample's
                                                           questions: accuracy per question type, the paired
                                                           difference with its 95 % interval over personas; logged
                                                           in .personalab/experiments.db (--json: the logged entry,
                                                           the run's progress on stderr)`;

export const PM_EXPERIMENTS_USAGE = `  experiments <personamem dir> [--json]                    PersonaMem: the experiment log, newest first: each
                                                           experiment's sample, split and strata, base run, request
                                                           and paired figures per question type`;

interface PmExperimentOptions extends RunCliOptions {
  sample?: string;
  json?: boolean;
}

const OWN = ['sample', 'base-run', 'json'];

async function runPmExperiment(args: string[], opts: PmExperimentOptions, cli: RunCliIo): Promise<number> {
  // With --json, stdout holds the logged entry only: what the run says goes to stderr.
  const io = opts.json ? { ...cli, stdout: cli.stderr } : cli;
  const parsed = parseOrUsage(io, PM_EXPERIMENT_USAGE, () => {
    if (!opts.sample) throw new Usage('experiment needs --sample NAME (see persona-lab sample)');
    if (opts.user !== undefined) throw new Usage("experiment asks the sample's questions: --user does not apply");
    const common = parseBatchRun(args, opts, io.env, { rule: PM_CHECKOUT_RULE, own: OWN });
    const out =
      opts.out ??
      pmExperimentRunName(opts.sample, {
        model: common.model,
        temperature: common.temperature,
        checkout: common.checkout,
      });
    const problem = runNameProblem(out);
    if (problem) throw new Usage(problem);
    return { ...common, out, sample: opts.sample };
  });
  if (!parsed) return 2;
  const { bench } = await personaMem.load(parsed.dir, { runs: [] });
  const sample = readPmSample(bench.root, parsed.sample);
  const check = checkPmSample(bench, sample, samplePath(bench.root, sample.name));
  for (const w of check.warnings) io.stderr(`warning: ${w}\n`);
  if (check.errors.length) {
    for (const e of check.errors) io.stderr(`persona-lab: ${e}\n`);
    return 1;
  }
  const baseOption = opts['base-run'];
  // A run as score names it (32k_gpt-4o), or its results name within the sample's split (gpt-4o).
  const candidates = baseOption === undefined ? [] : [baseOption, `${sample.size}_${baseOption}`];
  const runs = candidates.length ? (await personaMem.load(parsed.dir, { runs: candidates })).bench.runs : new Map();
  const baseRun = candidates.find((c) => runs.has(c));
  if (baseOption !== undefined && baseRun === undefined) {
    const known = [...(await personaMem.load(parsed.dir)).bench.runs.keys()].sort().join(', ');
    io.stderr(`persona-lab: --base-run ${baseOption}: no such run (runs: ${known || 'none'})\n`);
    return 1;
  }
  const baseSplit = baseRun === undefined ? undefined : runs.get(baseRun)?.split;
  if (baseSplit !== undefined && baseSplit !== sample.size) {
    // Its questions are not the sample's: the figures would be over no paired question.
    io.stderr(
      `persona-lab: --base-run ${baseOption}: a run of the ${baseSplit} split; sample ${sample.name} is of ${sample.size}\n` +
        `Usage:\n${PM_EXPERIMENT_USAGE}\n`,
    );
    return 2;
  }
  const run = `${sample.size}_${parsed.out}`;
  if (run === baseRun) {
    io.stderr(`persona-lab: --out ${parsed.out} is the base run\nUsage:\n${PM_EXPERIMENT_USAGE}\n`);
    return 2;
  }
  io.stderr(
    `experiment ${parsed.out}: sample ${sample.name} (${sample.questions.length} questions of ${sample.size})\n`,
  );
  const scope = { size: sample.size, selection: { questionIds: new Set(sample.questions) }, out: parsed.out };
  const outcome = await executePmRun(parsed, scope, io);
  if (outcome.code !== 0 || !outcome.summary) return outcome.code;
  const scored = await personaMem.load(parsed.dir, { runs: baseRun ? [baseRun, run] : [run] });
  const base = baseRun === undefined ? undefined : scored.bench.runs.get(baseRun);
  const mine = scored.bench.runs.get(run);
  if (!mine || (baseRun !== undefined && !base)) {
    io.stderr(`persona-lab: ${mine ? baseRun : run} could not be read back\n`);
    return 1;
  }
  const entry = pmExperimentEntry({ bench: scored.bench, sample, run: mine, base, author: authorName(bench.root) });
  const logPath = recordPmExperiment(bench.root, entry);
  if (opts.json) {
    cli.stdout(`${JSON.stringify(pmExperimentJson(entry))}\n`);
    return 0;
  }
  const lines = [
    ...(entry.figures ? pmFigureLines(entry.figures) : ['  no base run: pass --base-run RUN to compare']),
    `  figures over sample ${sample.name} (${sample.questions.length} questions of the ${sample.size} split), not the benchmark's`,
    `  logged in ${logPath}`,
  ];
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}

async function runPmExperiments(args: string[], opts: PmExperimentOptions, io: RunCliIo): Promise<number> {
  const [dir, extra] = args;
  const root = dir === undefined ? undefined : personaMemRoot(dir);
  if (!root || extra !== undefined) {
    io.stderr(
      `persona-lab: ${root ? `unexpected argument "${extra}"` : 'experiments needs a PersonaMem folder'}\nUsage:\n${PM_EXPERIMENTS_USAGE}\n`,
    );
    return 2;
  }
  const rows = pmExperimentRows(root);
  io.stdout(`${opts.json ? JSON.stringify(rows.map(pmExperimentJson)) : pmExperimentsTable(rows)}\n`);
  return 0;
}

/** `persona-lab experiment` on a PersonaMem folder (listed in cli/formats/index.ts). */
export const personaMemExperiment: BatchRunCommand<PmExperimentOptions> = {
  usage: PM_EXPERIMENT_USAGE,
  options: {
    reference: { type: 'string' },
    'no-reference': { type: 'boolean' },
    python: { type: 'string' },
    json: { type: 'boolean' },
  },
  run: runPmExperiment,
};

/** `persona-lab experiments` on a PersonaMem folder: its rows of the experiment log. */
export const personaMemExperiments: BatchRunCommand<PmExperimentOptions> = {
  usage: PM_EXPERIMENTS_USAGE,
  options: { json: { type: 'boolean' } },
  run: runPmExperiments,
};
