import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, hasErrors } from '../core/io/diagnostics';
import { detectFormat, FORMATS, type Format } from '../core/formats';
import type { ScoreOption, ScoreOutput } from '../core/formats/descriptor';
import { storageUnavailableReason, StorageUnavailableError } from '../core/storage/sqlite';
import { TABLE_FORMATS, type TableFormat } from '../core/tables/format';
import { runAuditCommand, type AuditCliOptions } from './audit';
import { runCompareCommand } from './compare';
import { runLabelsCommand } from './labels';
import { runDemoEndpoint } from './demo';
import { FORMAT_COMMANDS, formatCommand } from './formats';
import { defaultIo, runRunCommand, type RunCliOptions } from './run';
import { exitFor, print } from './output';
import { cacheOption } from './cacheOption';
import { GLOSSARY, glossaryText } from '../core/glossary';
import { UsageError } from './usageError';

export { UsageError };

export interface CliOptions extends RunCliOptions, AuditCliOptions {
  run?: string[];
  sample?: string;
  json?: boolean;
  'write-reports'?: boolean;
  memory?: boolean;
  method?: string;
  out?: string;
  seed?: string;
  format?: string;
  conflicts?: string;
  resolve?: string[];
  'dry-run'?: boolean;
  'label-set'?: string;
  port?: string;
  /** The options of a format's own commands (cli/formats/), which that command reads. */
  [option: string]: unknown;
}

function needDir(args: string[], command: string): string {
  const [dir, extra] = args;
  if (!dir) throw new UsageError(`${command} needs a benchmark folder or tasks file`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Error(`${dir}: no such file or folder`);
  return dir;
}

function formatOf(dir: string): Format {
  const format = detectFormat(dir);
  if (!format) {
    throw new Error(`${dir}: not a benchmark folder (known formats: ${FORMATS.map((f) => f.label).join(', ')})`);
  }
  return format;
}

/** Commands that open a SQLite file: labels always, audit with --db, run with --history. */
function usesStorage(command: string, opts: CliOptions): boolean {
  return (
    command === 'labels' ||
    command === 'experiment' ||
    command === 'experiments' ||
    (command === 'audit' && Boolean(opts.db)) ||
    (command === 'run' && Boolean(opts.history))
  );
}

export async function runCommand(command: string, args: string[], opts: CliOptions): Promise<number> {
  const unavailable = usesStorage(command, opts) ? storageUnavailableReason() : undefined;
  if (unavailable) throw new StorageUnavailableError(unavailable);
  switch (command) {
    case 'score': {
      return score(needDir(args, command), opts);
    }
    case 'validate': {
      return validate(needDir(args, command), opts);
    }
    case 'run':
      return runRunCommand(args, opts);
    case 'audit':
      return runAuditCommand(args, opts);
    case 'compare':
      return runCompareCommand(needDir(args, command), opts);
    case 'labels':
      return runLabelsCommand(args, opts);
    case 'demo-endpoint':
      return runDemoEndpoint(args, opts, (message) => new UsageError(message));
    case 'sample':
    case 'experiment':
    case 'experiments': {
      // The folder's format's own command (cli/formats/), else the first format's.
      const format = args[0] && existsSync(args[0]) ? detectFormat(args[0]) : undefined;
      return formatCommand(format, command).run(args, opts, defaultIo());
    }
    case 'glossary':
      if (args.length) throw new UsageError(`unexpected argument "${args[0]}"`);
      print(opts.json ? JSON.stringify(GLOSSARY) : glossaryText());
      return 0;
    default: {
      // A command only one format has (cli/formats/).
      const own = FORMAT_COMMANDS.find((c) => c.name === command);
      if (!own) throw new UsageError(`unknown command "${command}"`);
      const usage = (message: string) => new UsageError(message);
      return own.run(args, opts, { io: defaultIo(), usage, formatOf, needDir: (a) => needDir(a, command) });
    }
  }
}

/**
 * `score --format`: the paper's tables (or the tables the format has) as LaTeX, Markdown or CSV; the dashboard's copy
 * buttons give the same text.
 */
function tableFormat(opts: CliOptions): TableFormat | undefined {
  if (opts.format === undefined) return undefined;
  if (opts.json) throw new UsageError('score takes --json or --format, not both');
  const format = TABLE_FORMATS.find((f) => f === opts.format);
  if (!format) throw new UsageError(`score --format ${opts.format}: expected one of ${TABLE_FORMATS.join(', ')}`);
  return format;
}

/** The formats whose score takes the option, by name ("A or B"). */
const offering = (option: ScoreOption): string =>
  FORMATS.filter((f) => f.scoreOptions.includes(option))
    .map((f) => f.label)
    .join(' or ');

/** `score` for any format: the run names checked, then the format's own report. */
async function score(dir: string, opts: CliOptions): Promise<number> {
  const output = scoreOutput(opts);
  const format = formatOf(dir);
  if (opts.sample !== undefined && !format.scoreOptions.includes('sample'))
    throw new UsageError(`score --sample: samples are of ${offering('sample')} users, not ${format.label}`);
  // Without --sample or --memory, score prints the runs' figures only: a warm job reads no rows.
  const figuresOnly = opts.sample === undefined && !opts.memory;
  const { opened } = await format.load(dir, { runs: opts.run, figuresOnly, ...cacheOption(opts) });
  for (const name of opts.run ?? []) {
    if (!opened.runNames.includes(name)) throw new Error(`no run "${name}" under ${join(opened.root, 'results')}`);
  }
  if (opts.sample !== undefined && opts['write-reports'])
    throw new UsageError('score --sample does not write eval reports (they are whole-benchmark figures)');
  // --write-reports is left out for a format that writes none.
  const writeReports = format.scoreOptions.includes('writeReports') && opts['write-reports'];
  if (opts.memory && !format.scoreOptions.includes('memory'))
    throw new UsageError(`score --memory: persona memory is of ${offering('memory')} runs, not ${format.label}`);
  const result = await opened.score({ output, sample: opts.sample, writeReports, memory: opts.memory });
  for (const line of result.warnings) process.stderr.write(`${line}\n`);
  print(result.text);
  return Math.max(exitFor(opened, !opts.json), result.failed ? 1 : 0);
}

function scoreOutput(opts: CliOptions): ScoreOutput {
  const format = tableFormat(opts);
  if (format) return { kind: 'table', format };
  return opts.json ? { kind: 'json' } : { kind: 'text' };
}

/** `validate` for any format: the format's figures, then every diagnostic. */
async function validate(dir: string, opts: CliOptions): Promise<number> {
  const { opened } = await formatOf(dir).load(dir, cacheOption(opts));
  const { json, summary } = opened.validate();
  if (opts.json) {
    print(JSON.stringify({ ...json, diagnostics: opened.diagnostics }));
  } else {
    for (const d of opened.diagnostics) print(formatDiagnostic(d));
    const errors = opened.diagnostics.filter((d) => d.severity === 'error').length;
    print(`${summary}; ${errors} error(s), ${opened.diagnostics.length - errors} warning(s)`);
  }
  return hasErrors(opened.diagnostics) ? 1 : 0;
}
