// What a command of the CLI is (its spec: options, usage, examples) and what a format's own command adds (its place
// in the help and its run); spec.ts lists the shared commands, a format's folder under cli/formats/ its own.
import type { ParseArgsOptionsConfig } from 'node:util';
import type { Format } from '../core/formats';
import type { RunCliIo } from './runArgs';

export interface CommandSpec {
  /** `score`, or `labels summary` for a subcommand. */
  name: string;
  /** One line for the top-level help's list of the most used commands. */
  summary: string;
  usage: string;
  options: ParseArgsOptionsConfig;
  examples: readonly [string, string];
}

/** What the CLI hands a format's own command: its output, its usage errors, and how it reads a folder. */
export interface FormatCommandCli {
  io: RunCliIo;
  usage: (message: string) => Error;
  formatOf: (dir: string) => Format;
  /** The one folder argument the command takes (a usage error without it, an error when it does not exist). */
  needDir: (args: string[]) => string;
}

/** A command only one format has: its spec (usage, options, examples) and how it runs. */
export interface FormatCommand<O extends object = object> extends CommandSpec {
  /** Its place in the top-level help: every command is listed by rank (spec.ts ranks the shared ones). */
  rank: number;
  run(args: string[], opts: O, cli: FormatCommandCli): Promise<number> | number;
}
