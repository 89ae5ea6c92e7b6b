// The headless CLI: the same core as the extension, no logic of its own beyond argument handling and printing.
// Loaded by dist/cli.js (launch.ts), which has chosen the Node and restarted the process with its V8 flags by then.
import { runCommand, UsageError } from './commands';
import { COMMANDS, parseCli, specFor, commandHelp } from './spec';
import { StorageUnavailableError } from '../core/storage/sqlite';
import { FORMAT_HELP_NOTES } from './formats';

/** The five commands people use most, one line each, then every command's full usage. */
const USAGE = `Usage: persona-lab <command> [options]; persona-lab <command> --help lists its options, with two examples

Most used:
${COMMANDS.slice(0, 5)
  .map((c) => `  persona-lab ${c.summary}`)
  .join('\n')}

All commands:
${COMMANDS.map((c) => c.usage).join('\n')}

${FORMAT_HELP_NOTES.map((note) => `${note}\n\n`).join('')}Exit status: 0 clean, 1 when errors were found, 2 on a usage error (an option the command does not take, named) or
when this Node cannot run the label, verdict and history stores (they need Node.js 22.14 or newer), 3 while label
conflicts are unresolved, 4 when run's PI guard refused to send prompts with residual PI, 130 when a run was cancelled
(run the same command again to resume).`;

async function main(argv: string[]): Promise<number> {
  const parsed = parseCli(argv, USAGE);
  if (parsed.kind === 'help') {
    process.stdout.write(parsed.text + '\n');
    return argv.length ? 0 : 2;
  }
  if (parsed.kind === 'usage') {
    process.stderr.write(`persona-lab: ${parsed.message}\n${parsed.help}\n`);
    return 2;
  }
  const { command, args, values } = parsed;
  try {
    return await runCommand(command, args, values);
  } catch (err) {
    if (err instanceof UsageError) {
      const spec = specFor(command, args);
      process.stderr.write(`persona-lab: ${err.message}\n${spec ? commandHelp(spec) : USAGE}\n`);
      return 2;
    }
    if (err instanceof StorageUnavailableError) {
      process.stderr.write(`persona-lab: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`persona-lab: ${(err as Error).message}\n`);
    return 1;
  }
}

/**
 * Exits once stdout and stderr have flushed. A write to a pipe that is full (a slow reader, `| head`, a parent
 * process reading with spawn) is queued, and process.exit() alone would drop it: an export would lose its tail.
 */
function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(exitWhenFlushed, (err: unknown) => {
  process.stderr.write(`persona-lab: ${String(err)}\n`);
  exitWhenFlushed(1);
});
