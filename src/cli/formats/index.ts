// The CLI's part of each format that brings commands of its own (its folder here, one line in CLI_FORMATS), as
// src/extension/benchmarks/contributions.ts lists the extension's.
import type { Format } from '../../core/formats';
import type { BatchRunCommand } from '../batchRun';
import type { CompareCommand } from '../compareReport';
import type { LabelsJudgeCommand } from '../labelsIo';
import type { FormatCommand } from '../commandSpec';
import { OMNI_COMMANDS, OMNI_SCORE_USAGE } from './omni/commands';
import { omniCompare } from './omni/compare';
import { omniLabelsJudge } from './omni/labelsJudge';
import { omniRun } from './omni/run';
import { SPB_COMMANDS, spbExperiment, spbExperiments, spbSample } from './spb/commands';
import { spbCompare } from './spb/compare';
import { SPB_HELP_NOTE, SPB_SCORE_USAGE } from './spb/help';
import { spbRun } from './spb/run';
import { personaMemCompare } from './personamem/compare';
import { personaMemExperiment, personaMemExperiments } from './personamem/experiment';
import { personaMemRun } from './personamem/run';
import { personaMemSample } from './personamem/sample';

export interface CliFormat {
  /** The format's id in the core registry. */
  readonly id: string;
  /** Its `persona-lab run`, when it runs its own requests. */
  readonly run?: BatchRunCommand;
  /** Its `persona-lab sample`: a seeded sample of its folder's items. */
  readonly sample?: BatchRunCommand;
  /** Its `persona-lab experiment`: a sample asked and compared with a base run. */
  readonly experiment?: BatchRunCommand;
  /** A paragraph of the top-level help: options only its folders read. */
  readonly helpNote?: string;
  /** Its `persona-lab experiments`: its rows of the experiment log. */
  readonly experiments?: BatchRunCommand;
  /** Its lines of `score --help`: what `score` gives for its folders, under the shared line. */
  readonly scoreUsage?: string;
  /** Its `persona-lab labels judge`, when people score its runs against an LLM judge. */
  readonly labelsJudge?: LabelsJudgeCommand;
  /** The commands only it has. */
  readonly commands?: readonly FormatCommand[];
  /** Its part of `persona-lab compare`, when its extension offers Compare Runs: the same figures. */
  readonly compare?: CompareCommand;
}

/** The commands a format may take over for a folder of its own. */
type OwnCommand = 'sample' | 'experiment' | 'experiments';

const CLI_FORMATS: readonly CliFormat[] = [
  {
    id: 'streamprofilebench',
    run: spbRun,
    sample: spbSample,
    experiment: spbExperiment,
    experiments: spbExperiments,
    helpNote: SPB_HELP_NOTE,
    scoreUsage: SPB_SCORE_USAGE,
    commands: SPB_COMMANDS,
    compare: spbCompare,
  },
  {
    id: 'omnibehavior',
    run: omniRun,
    scoreUsage: OMNI_SCORE_USAGE,
    labelsJudge: omniLabelsJudge,
    commands: OMNI_COMMANDS,
    compare: omniCompare,
  },
  {
    id: 'personamem',
    run: personaMemRun,
    sample: personaMemSample,
    experiment: personaMemExperiment,
    experiments: personaMemExperiments,
    compare: personaMemCompare,
  },
];

export function cliFormatOf(format: Format): CliFormat | undefined {
  return CLI_FORMATS.find((f) => f.id === format.id);
}

/**
 * The format's own command `command`, for a folder of that format; else the first format's that has one (for a
 * folder of no format, or of a format without it: its checks say what the folder lacks).
 */
export function formatCommand(format: Format | undefined, command: OwnCommand): BatchRunCommand {
  const own = format ? cliFormatOf(format)?.[command] : undefined;
  return own ?? CLI_FORMATS.find((f) => f[command])![command]!;
}

/** The format's part of `compare`, if it has one. */
export function formatCompare(format: Format): CompareCommand | undefined {
  return cliFormatOf(format)?.compare;
}

/** The ids of the formats that have a part of `compare`, in registry order. */
export const compareFormatIds = (): string[] => CLI_FORMATS.flatMap((f) => (f.compare ? [f.id] : []));

/** The commands only one format has, in registry order (spec.ts lists them by rank). */
export const FORMAT_COMMANDS: readonly FormatCommand[] = CLI_FORMATS.flatMap((f) => f.commands ?? []);

/** The formats' lines of `score --help`, in registry order. */
export const FORMAT_SCORE_USAGES: readonly string[] = CLI_FORMATS.flatMap((f) => (f.scoreUsage ? [f.scoreUsage] : []));

/** The formats' own usages and options of `sample`, `experiment` and `experiments`, for `--help` and parseArgs. */
export const FORMAT_COMMAND_USAGES = (command: OwnCommand): string[] =>
  CLI_FORMATS.flatMap((f) => (f[command] ? [f[command].usage] : []));
export const FORMAT_COMMAND_OPTIONS = (command: OwnCommand) =>
  Object.assign({}, ...CLI_FORMATS.map((f) => f[command]?.options ?? {})) as Readonly<
    Record<string, { type: 'string' | 'boolean' }>
  >;

/** The run of a folder no format detects: the first listed, whose checks say what the folder lacks. */
export const FALLBACK_RUN: BatchRunCommand = CLI_FORMATS.find((f) => f.run)!.run!;

/** The formats' paragraphs of the top-level help. */
export const FORMAT_HELP_NOTES: readonly string[] = CLI_FORMATS.flatMap((f) => (f.helpNote ? [f.helpNote] : []));

/** The batch runs' usages, for `run --help`. */
export const BATCH_RUN_USAGES: readonly string[] = CLI_FORMATS.flatMap((f) => (f.run ? [f.run.usage] : []));

/** Every option a format's run takes beyond the common ones, for parseArgs. */
export const BATCH_RUN_OPTIONS = Object.assign({}, ...CLI_FORMATS.map((f) => f.run?.options ?? {})) as Readonly<
  Record<string, { type: 'string' | 'boolean' }>
>;

/** The formats' `labels judge` commands: of `formats` (a folder's, in registry order), else of every format. */
export function labelsJudgeFormats(formats?: readonly Format[]): LabelsJudgeCommand[] {
  const of = formats ? formats.flatMap((f) => cliFormatOf(f) ?? []) : CLI_FORMATS;
  return of.flatMap((f) => (f.labelsJudge ? [f.labelsJudge] : []));
}
