// `persona-lab run`: the folder's format chooses its own run (cli/formats/index.ts lists each format's); what every
// run shares is in batchRun.ts and runArgs.ts.
import { detectFormat } from '../core/formats';
import { BATCH_RUN_OPTIONS, cliFormatOf, FALLBACK_RUN } from './formats';
import { article } from './output';
import { defaultIo, type RunCliIo, type RunCliOptions } from './runArgs';

export { defaultIo, usageFailure, type RunCliIo, type RunCliOptions } from './runArgs';
export { EXIT_PI_REFUSED } from './batchRun';

/** Every option of `run`, for parseArgs: those of each format's run (cli/formats/). */
export const RUN_OPTIONS = BATCH_RUN_OPTIONS;

/**
 * Runs the folder's format's own run; its exit status (each says what its statuses mean). A folder no format detects
 * goes to the first listed run, whose checks say what the folder lacks. `ioIn` absent: the CLI's own process.
 */
export async function runRunCommand<O extends RunCliOptions>(
  args: string[],
  // a format's own run reads its own options too (cli/formats/): O keeps them
  opts: O,
  ioIn?: RunCliIo,
): Promise<number> {
  const io = ioIn ?? defaultIo();
  const target = args[0];
  const format = target === undefined ? undefined : detectFormat(target);
  const own = format && cliFormatOf(format)?.run;
  if (own) return own.run(args, opts, io, ioIn === undefined);
  if (format && !format.capabilities.includes('rerun')) {
    io.stderr(
      `persona-lab: ${target}: ${article(format.label)} ${format.label} folder; run needs a format that sends its prompts\n`,
    );
    return 1;
  }
  return FALLBACK_RUN.run(args, opts, io, ioIn === undefined);
}
