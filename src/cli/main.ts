// The headless CLI: the same core as the extension, no logic of its own beyond argument handling and printing.
import { parseArgs } from 'node:util';
import { runCommand, UsageError } from './commands';
import { AUDIT_OPTIONS, AUDIT_USAGE } from './audit';
import { RUN_OPTIONS, RUN_USAGE } from './run';
import { OMNI_RUN_USAGE } from './omniRun';
import { JUDGE_OPTIONS, JUDGE_USAGE } from './omniJudge';
import { TEMPLATE_USAGE } from './template';
import { DEMO_OPTIONS, DEMO_USAGE } from './demo';
import { SAMPLE_OPTIONS, SAMPLE_USAGE } from './sample';
import { EXPERIMENT_OPTIONS, EXPERIMENT_USAGE } from './experiment';
import { LONG_CONTEXT_USAGE } from './longContext';
import { StorageUnavailableError } from '../core/storage/sqlite';

const USAGE = `Usage: persona-lab <command> [options]

Commands:
  score <dir> [--run NAME]... [--json | --format latex|markdown|csv] [--write-reports] [--sample NAME] [--memory]
                                                           the paper's tables (or the JSON contract) per run; for an
                                                           OmniBehavior folder the per-field scores, components,
                                                           overall and bias diagnostics; --sample NAME: over the
                                                           users of .personalab/samples/NAME.json only; --memory:
                                                           each run's persona memory (missed T_keep tags forgotten,
                                                           ignored or never captured; D_decay picks carried over or
                                                           re-inferred), our reading, not the paper's figure
  validate <dir> [--json]                                  every located problem in the benchmark's files
                                                           (StreamProfileBench or OmniBehavior)
  baseline <dir> --method NAME --out NAME [--seed N]       write a deterministic baseline run (random,
                                                           history-frequency, recent-batch)
  glossary [--json]                                        every metric and term the views and this CLI print: its
                                                           short and long name, what it is and its unit
${RUN_USAGE}
${OMNI_RUN_USAGE}
${JUDGE_USAGE}
${TEMPLATE_USAGE}
${DEMO_USAGE}
${SAMPLE_USAGE}
${EXPERIMENT_USAGE}
${LONG_CONTEXT_USAGE}
${AUDIT_USAGE}

  labels export <db> [--out FILE] [--format jsonl|csv]    failure labels out of a label store
  labels import <db> FILE [--conflicts local|incoming|both] [--resolve N=...]... [--dry-run]
  labels summary <db> [--json]                            counts per label and platform, annotator agreement
  labels judge <omnibehavior dir> --run NAME [--json]     the LLM judge against people's scores, per dimension
                                                           (<db>: a label database, or a benchmark folder of either
                                                           format: its .personalab/labels.db, that benchmark's labels,
                                                           and with summary how many are fresh or stale)

Options for every command that opens a StreamProfileBench folder:
  --no-cache    read every file and leave the index alone (by default an unchanged file is read from
                <dir>/.personalab/index, which the extension shares; a changed file is read again)

Exit status: 0 clean, 1 when errors were found, 2 on a usage error or when this Node cannot run the label, verdict
and history stores (they need Node.js 22.14 or newer), 3 while label conflicts are unresolved,
4 when run's PI guard refused to send prompts with residual PI, 130 when a run was cancelled (run the same command again to resume).`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        run: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        'write-reports': { type: 'boolean' },
        memory: { type: 'boolean' },
        method: { type: 'string' },
        out: { type: 'string' },
        seed: { type: 'string' },
        format: { type: 'string' },
        conflicts: { type: 'string' },
        resolve: { type: 'string', multiple: true },
        'dry-run': { type: 'boolean' },
        'label-set': { type: 'string' },
        'no-cache': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...RUN_OPTIONS,
        ...JUDGE_OPTIONS,
        ...AUDIT_OPTIONS,
        ...DEMO_OPTIONS,
        ...SAMPLE_OPTIONS,
        ...EXPERIMENT_OPTIONS,
      },
    });
  } catch (err) {
    process.stderr.write(`persona-lab: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || !command) {
    process.stdout.write(USAGE + '\n');
    return command || parsed.values.help ? 0 : 2;
  }
  try {
    return await runCommand(command, rest, parsed.values);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`persona-lab: ${err.message}\n${USAGE}\n`);
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
