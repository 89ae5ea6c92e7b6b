import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BASELINES, isBaselineMethod, writeBaselineRun } from '../core/spb/baselines';
import { formatDiagnostic, hasErrors } from '../core/io/diagnostics';
import { writeFileInside, WriteRefused } from '../core/io/safeFs';
import { detectFormat, FORMATS, type FormatAdapter } from '../core/formats';
import type { LoadOptions } from '../core/spb/load';
import { scoreRun } from '../core/spb/score/run';
import { loadSampleScope } from '../core/experiments/sampleScope';
import { storageUnavailableReason, StorageUnavailableError } from '../core/storage/sqlite';
import { evalReport, paperTables, scoreJson } from '../core/spb/tables';
import { tableModels } from '../core/spb/paperTables';
import { formatTable, TABLE_FORMATS, type TableFormat } from '../core/tables/format';
import type { Benchmark } from '../core/spb/types';
import { runAuditCommand, type AuditCliOptions } from './audit';
import { runLabelsCommand } from './labels';
import { runTemplateCommand } from './template';
import { runDemoEndpoint } from './demo';
import { runSampleCommand, type SampleCliOptions } from './sample';
import { runLongContextCommand } from './longContext';
import { runExperimentCommand, runExperimentsCommand, type ExperimentCliOptions } from './experiment';
import { defaultIo, runRunCommand, type RunCliOptions } from './run';
import { scoreOmni, validateOmni } from './omni';
import { exitFor, print } from './output';
import { cacheOption } from './cacheOption';

export class UsageError extends Error {}

export interface CliOptions extends RunCliOptions, AuditCliOptions, SampleCliOptions, ExperimentCliOptions {
  run?: string[];
  json?: boolean;
  'write-reports'?: boolean;
  method?: string;
  out?: string;
  seed?: string;
  format?: string;
  conflicts?: string;
  resolve?: string[];
  'dry-run'?: boolean;
  'label-set'?: string;
  port?: string;
}

function needDir(args: string[], command: string): string {
  const [dir, extra] = args;
  if (!dir) throw new UsageError(`${command} needs a benchmark folder or tasks file`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Error(`${dir}: no such file or folder`);
  return dir;
}

function formatOf(dir: string): FormatAdapter {
  const format = detectFormat(dir);
  if (!format) {
    throw new Error(`${dir}: not a benchmark folder (known formats: ${FORMATS.map((f) => f.label).join(', ')})`);
  }
  return format;
}

/** Loads a StreamProfileBench folder through its adapter; any other folder is a one-line error. */
export async function openBenchmark(dir: string, opts?: LoadOptions): Promise<Benchmark> {
  const format = formatOf(dir);
  const loaded = await format.load(dir, opts);
  if (loaded.format !== 'streamprofilebench')
    throw new Error(`${dir}: an ${format.label} folder; this command reads StreamProfileBench only`);
  return loaded.bench;
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
      const dir = needDir(args, command);
      const format = tableFormat(opts);
      if (formatOf(dir).id !== 'omnibehavior') return score(dir, opts);
      if (opts.sample !== undefined) throw new UsageError('score --sample: samples are of StreamProfileBench users');
      return scoreOmni(dir, { ...opts, format });
    }
    case 'validate': {
      const dir = needDir(args, command);
      return formatOf(dir).id === 'omnibehavior' ? validateOmni(dir, opts) : validate(dir, opts);
    }
    case 'baseline':
      return baseline(needDir(args, command), opts);
    case 'run':
      return runRunCommand(args, opts);
    case 'audit':
      return runAuditCommand(args, opts);
    case 'labels':
      return runLabelsCommand(args, opts);
    case 'template':
      return runTemplateCommand(args, (message) => new UsageError(message));
    case 'demo-endpoint':
      return runDemoEndpoint(args, opts, (message) => new UsageError(message));
    case 'sample':
      return runSampleCommand(args, opts, (message) => new UsageError(message));
    case 'experiment':
      return runExperimentCommand(args, opts, defaultIo(), true);
    case 'experiments':
      return runExperimentsCommand(args, opts, defaultIo());
    case 'long-context':
      return runLongContextCommand(args, opts, defaultIo(), true);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/**
 * `score --format`: the paper's tables (an OmniBehavior folder: its components table) as LaTeX, Markdown or CSV; the
 * dashboard's copy buttons give the same text.
 */
function tableFormat(opts: CliOptions): TableFormat | undefined {
  if (opts.format === undefined) return undefined;
  if (opts.json) throw new UsageError('score takes --json or --format, not both');
  const format = TABLE_FORMATS.find((f) => f === opts.format);
  if (!format) throw new UsageError(`score --format ${opts.format}: expected one of ${TABLE_FORMATS.join(', ')}`);
  return format;
}

async function score(dir: string, opts: CliOptions): Promise<number> {
  const format = tableFormat(opts);
  const bench = await openBenchmark(dir, { runs: opts.run, ...cacheOption(opts) });
  for (const name of opts.run ?? []) {
    if (!bench.runs.has(name)) throw new Error(`no run "${name}" under ${join(bench.root, 'results')}`);
  }
  // --sample: the same scoring over the sample's users, named as the sample's figures wherever they print.
  const scope = opts.sample === undefined ? undefined : loadSampleScope(bench, opts.sample);
  for (const problem of scope?.problems ?? []) process.stderr.write(`warning: ${problem}\n`);
  if (scope && opts['write-reports'])
    throw new UsageError('score --sample does not write eval reports (they are whole-benchmark figures)');
  const scores = [...bench.runs.values()].map((run) => scoreRun(bench, run, scope?.users));
  let refused = false;
  if (opts['write-reports']) {
    for (const s of scores) {
      const run = bench.runs.get(s.name);
      for (const [platform, rel] of run?.files ?? []) {
        const text = evalReport(s, platform);
        try {
          if (text) writeFileInside(bench.root, join(bench.root, dirname(rel), `eval_report_${platform}.txt`), text);
        } catch (err) {
          if (!(err instanceof WriteRefused)) throw err;
          process.stderr.write(`persona-lab: ${err.message}\n`);
          refused = true;
        }
      }
    }
  }
  if (opts.json) print(JSON.stringify(scoreJson(scores, scope && { name: scope.name, users: scope.size })));
  else if (scores.length === 0) print(`No runs under ${join(bench.root, 'results')}.`);
  else if (format)
    print(
      tableModels(scores, scope?.label)
        .map((t) => formatTable(t, format))
        .join('\n'),
    );
  else {
    if (scope) print(`On ${scope.label}, not the whole benchmark:\n`);
    print(paperTables(scores));
  }
  return Math.max(exitFor(bench, !opts.json), refused ? 1 : 0);
}

async function validate(dir: string, opts: CliOptions): Promise<number> {
  const bench = await openBenchmark(dir, cacheOption(opts));
  const users = [...bench.users.values()].reduce((n, m) => n + m.size, 0);
  const steps = [...bench.users.values()].reduce(
    (n, m) => n + [...m.values()].reduce((k, u) => k + u.steps.length, 0),
    0,
  );
  if (opts.json) {
    print(JSON.stringify({ users, steps, diagnostics: bench.diagnostics }));
  } else {
    for (const d of bench.diagnostics) print(formatDiagnostic(d));
    const errors = bench.diagnostics.filter((d) => d.severity === 'error').length;
    print(
      `${users} users, ${steps} steps, ${bench.runs.size} runs; ${errors} error(s), ${bench.diagnostics.length - errors} warning(s)`,
    );
  }
  return hasErrors(bench.diagnostics) ? 1 : 0;
}

async function baseline(dir: string, opts: CliOptions): Promise<number> {
  if (!isBaselineMethod(opts.method)) {
    throw new UsageError(`baseline needs --method, one of: ${Object.keys(BASELINES).join(', ')}`);
  }
  if (!opts.out) throw new UsageError('baseline needs --out NAME (the run folder under results/)');
  const bench = await openBenchmark(dir, { runs: [], ...cacheOption(opts) });
  const written = await writeBaselineRun(bench, opts.method, opts.out, { seed: opts.seed });
  for (const path of written) print(`wrote ${path}`);
  return exitFor(bench, true);
}
