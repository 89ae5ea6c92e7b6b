// StreamProfileBench's part of the CLI's commands: its default sample, experiment and experiments (for its folders,
// and for a folder whose format has none of its own), and the commands only it has (baseline, template,
// long-context), each with its usage, options, examples and place in the top-level help.
import type { BatchRunCommand } from '../../batchRun';
import type { FormatCommand } from '../../commandSpec';
import { flag, NO_CACHE, text } from '../../optionTypes';
import { UsageError } from '../../usageError';
import { runBaselineCommand } from './baseline';
import { EXPERIMENT_USAGE, runExperimentCommand, runExperimentsCommand } from './experiment';
import { LONG_CONTEXT_USAGE, runLongContextCommand } from './longContext';
import { runSampleCommand, SAMPLE_OPTIONS, SAMPLE_USAGE } from './sample';
import { runTemplateCommand, TEMPLATE_USAGE } from './template';

/** Options of `run` that `experiment` and `long-context` also take (they run the same way, on chosen users). */
const SENDING = {
  'base-url': text,
  model: text,
  template: text,
  out: text,
  concurrency: text,
  timeout: text,
  'max-reply-mb': text,
  temperature: text,
  'max-tokens': text,
  'system-message': text,
  'pi-guard': text,
  'pi-guard-loopback': flag,
  'input-per-mtok': text,
  'output-per-mtok': text,
  'dry-run': flag,
  ...NO_CACHE,
} as const;

const [EXPERIMENT_ONE_USAGE, EXPERIMENTS_REST = ''] = EXPERIMENT_USAGE.split('\n  experiments ');

export const spbSample: BatchRunCommand = {
  usage: SAMPLE_USAGE,
  options: SAMPLE_OPTIONS,
  run: (args, opts) => runSampleCommand(args, opts, (message) => new UsageError(message)),
};

// The CLI calls these itself, so a run that stops on SIGINT / SIGTERM listens for them.
export const spbExperiment: BatchRunCommand = {
  usage: EXPERIMENT_ONE_USAGE!,
  options: { ...SENDING, persona: text },
  run: (args, opts, io) => runExperimentCommand(args, opts, io, true),
};

export const spbExperiments: BatchRunCommand = {
  usage: `  experiments ${EXPERIMENTS_REST}`,
  options: { json: flag },
  run: runExperimentsCommand,
};

export const SPB_COMMANDS: readonly FormatCommand[] = [
  {
    name: 'baseline',
    rank: 70,
    summary: 'baseline <dir> --method NAME --out NAME: a deterministic baseline run',
    usage: `  baseline <dir> --method NAME --out NAME [--seed N]       write a deterministic baseline run (random,
                                                           history-frequency, recent-batch)`,
    options: { method: text, out: text, seed: text, ...NO_CACHE },
    examples: [
      'baseline sample --method history-frequency --out history-frequency',
      'baseline sample --method random --seed 7 --out random-7',
    ],
    run: (args, opts, cli) => runBaselineCommand(cli.needDir(args), opts, cli),
  },
  {
    name: 'template',
    rank: 90,
    summary: 'template init [FILE]: the built-in prompt template, to edit',
    usage: TEMPLATE_USAGE,
    options: {},
    examples: ['template init', 'template init my.plprompt'],
    run: (args, _opts, cli) => runTemplateCommand(args, cli.usage),
  },
  {
    name: 'long-context',
    rank: 140,
    summary: 'long-context <dir> --base-run RUN ...: the long-context baseline',
    usage: LONG_CONTEXT_USAGE,
    options: { ...SENDING, 'base-run': text, sample: text },
    examples: [
      'long-context sample --base-run demo-llm --base-url http://127.0.0.1:8000/v1 --model m',
      'long-context sample --base-run demo-llm --sample s40 --base-url http://127.0.0.1:8000/v1 --model m --dry-run',
    ],
    run: (args, opts, cli) => runLongContextCommand(args, opts, cli.io, true),
  },
];
