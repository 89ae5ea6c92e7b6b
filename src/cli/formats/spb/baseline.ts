// `persona-lab baseline <dir> --method NAME --out NAME [--seed N]`: a deterministic baseline run of a
// StreamProfileBench folder (any other folder is a one-line error).
import { BASELINES, isBaselineMethod, writeBaselineRun } from '../../../core/spb/baselines/baselines';
import { streamProfileBench, type Format } from '../../../core/formats';
import type { LoadOptions } from '../../../core/spb/format/load';
import type { Benchmark } from '../../../core/spb/types';
import { cacheOption } from '../../cacheOption';
import { article, exitFor, print } from '../../output';

export interface BaselineCliOptions {
  method?: string;
  out?: string;
  seed?: string;
  'no-cache'?: boolean;
}

/** How the CLI reads a folder's format (an error for a folder of none) and makes a usage error. */
export interface BaselineCli {
  formatOf: (dir: string) => Format;
  usage: (message: string) => Error;
}

/** Loads a StreamProfileBench folder through its descriptor; any other folder is a one-line error. */
async function openBenchmark(dir: string, cli: BaselineCli, opts?: LoadOptions): Promise<Benchmark> {
  const format = cli.formatOf(dir);
  if (format.id !== streamProfileBench.id)
    throw new Error(
      `${dir}: ${article(format.label)} ${format.label} folder; this command reads StreamProfileBench only`,
    );
  return (await streamProfileBench.load(dir, opts)).bench;
}

export async function runBaselineCommand(dir: string, opts: BaselineCliOptions, cli: BaselineCli): Promise<number> {
  if (!isBaselineMethod(opts.method)) {
    throw cli.usage(`baseline needs --method, one of: ${Object.keys(BASELINES).join(', ')}`);
  }
  if (!opts.out) throw cli.usage('baseline needs --out NAME (the run folder under results/)');
  const bench = await openBenchmark(dir, cli, { runs: [], ...cacheOption(opts) });
  const written = await writeBaselineRun(bench, opts.method, opts.out, { seed: opts.seed });
  for (const path of written) print(`wrote ${path}`);
  return exitFor(bench, true);
}
