// The CLI's part of each format that brings commands of its own (its folder here, one line in CLI_FORMATS), as
// src/extension/benchmarks/contributions.ts lists the extension's. StreamProfileBench's run is the CLI's own `run`.
import type { Format } from '../../core/formats';
import type { BatchRunCommand } from '../batchRun';
import { omniRun } from './omni/run';
import { personaMemRun } from './personamem/run';

export interface CliFormat {
  /** The format's id in the core registry. */
  readonly id: string;
  /** Its `persona-lab run`, when it runs its own requests. */
  readonly run?: BatchRunCommand;
}

const CLI_FORMATS: readonly CliFormat[] = [
  { id: 'omnibehavior', run: omniRun },
  { id: 'personamem', run: personaMemRun },
];

export function cliFormatOf(format: Format): CliFormat | undefined {
  return CLI_FORMATS.find((f) => f.id === format.id);
}

/** The batch runs' usages, for `run --help`. */
export const BATCH_RUN_USAGES: readonly string[] = CLI_FORMATS.flatMap((f) => (f.run ? [f.run.usage] : []));

/** Every option a format's run takes beyond the common ones, for parseArgs. */
export const BATCH_RUN_OPTIONS = Object.assign({}, ...CLI_FORMATS.map((f) => f.run?.options ?? {})) as Readonly<
  Record<string, { type: 'string' | 'boolean' }>
>;
