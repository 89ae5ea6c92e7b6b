// `persona-lab compare <dir> --a RUN --b RUN`: run B against run A as the extension's Compare Runs shows them, for
// every format whose CLI part offers it (cli/formats/<format>/compare.ts). This file checks the options, hands the
// folder to its format's part and prints what it gives; the part computes every figure.
import { join } from 'node:path';
import { detectFormat, FORMATS } from '../core/formats';
import { compareFormatIds, formatCompare } from './formats';
import { reportCsv, reportMarkdown, reportText } from './compareReport';
import { print } from './output';
import { UsageError } from './usageError';

export const COMPARE_USAGE = `  compare <dir> --a RUN --b RUN [--json | --format markdown|csv] [--limit N]
                                                           run B against run A as Compare Runs shows them: each
                                                           run's figures on the items both answered, B − A with its
                                                           95 % bootstrap interval, wins / ties / losses, what was
                                                           left out and why, then the first N items that changed
                                                           (20 unless --limit; all of them with --json)`;

const COMPARE_FORMATS = ['markdown', 'csv'] as const;
const DEFAULT_LIMIT = 20;

export interface CompareCliOptions {
  a?: string;
  b?: string;
  json?: boolean;
  format?: string;
  limit?: string;
  'no-cache'?: boolean;
}

function limitOf(opts: CompareCliOptions): number {
  if (opts.limit === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(opts.limit))
    throw new UsageError(`compare --limit ${opts.limit}: expected a whole number, 0 or more`);
  return Number(opts.limit);
}

function outputOf(opts: CompareCliOptions): 'text' | 'json' | (typeof COMPARE_FORMATS)[number] {
  if (opts.format === undefined) return opts.json ? 'json' : 'text';
  if (opts.json) throw new UsageError('compare takes --json or --format, not both');
  const format = COMPARE_FORMATS.find((f) => f === opts.format);
  if (!format) throw new UsageError(`compare --format ${opts.format}: expected one of ${COMPARE_FORMATS.join(', ')}`);
  return format;
}

const labels = (ids: readonly string[]) =>
  FORMATS.filter((f) => ids.includes(f.id))
    .map((f) => f.label)
    .join(', ');

export async function runCompareCommand(dir: string, opts: CompareCliOptions): Promise<number> {
  const { a, b } = opts;
  if (a === undefined || b === undefined)
    throw new UsageError(`compare needs --a RUN (the reference) and --b RUN (compared against it)`);
  if (a === b) throw new UsageError(`compare: ${a} is compared with itself (--a and --b name the same run)`);
  const output = outputOf(opts);
  const limit = limitOf(opts);
  const format = detectFormat(dir);
  if (!format)
    throw new Error(`${dir}: not a benchmark folder (known formats: ${FORMATS.map((f) => f.label).join(', ')})`);
  const part = formatCompare(format);
  if (!part)
    throw new UsageError(
      `compare: ${dir} is a ${format.label} folder, which has no Compare Runs (${labels(compareFormatIds())} do)`,
    );
  const found = await part.compare(dir, { pair: { a, b }, limit }, opts);
  if ('missing' in found) {
    const runs = found.runs.length ? found.runs.join(', ') : 'none';
    const names = found.missing.map((r) => `"${r}"`).join(' and ');
    throw new UsageError(`compare: no run ${names} in ${join(dir, 'results')} (its runs: ${runs})`);
  }
  if ('problem' in found) throw new UsageError(`compare: ${dir}: ${found.problem}`);
  const { report } = found;
  if (output === 'json') print(JSON.stringify(report.json));
  else if (output === 'markdown') process.stdout.write(reportMarkdown(report));
  else if (output === 'csv') process.stdout.write(reportCsv(report));
  else print(reportText(report));
  return 0;
}
