// `persona-lab sample`: draws a seeded, stratified sample of users and saves it under .personalab/samples/.
import { existsSync } from 'node:fs';
import { loadBenchmark } from '../../../core/spb/format/load';
import { drawSample, SAMPLE_BY, sampleSize, type SampleBy } from '../../../core/spb/experiments/sample';
import { checkSampleName, writeSample } from '../../../core/experiments/sampleFile';
import { newSample } from '../../../core/spb/experiments/sampleFile';
import { cacheOption } from '../../cacheOption';
import { print } from '../../output';

export const SAMPLE_OPTIONS = {
  users: { type: 'string' },
  by: { type: 'string' },
} as const;

export const SAMPLE_USAGE = `  sample <dir> --users N --out NAME [--seed S] [--by platform|signature] [--base-run RUN]
                                                           draw a seeded sample of N users, stratified by platform
                                                           (or by platform and failure signature in RUN: decay picks,
                                                           Recall-0 steps), into .personalab/samples/NAME.json`;

export interface SampleCliOptions {
  users?: string;
  seed?: string;
  by?: string;
  out?: string;
  'base-run'?: string;
  'no-cache'?: boolean;
}

function whole(name: string, value: string | undefined, min: number, usage: (m: string) => Error): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(n) || n < min)
    throw usage(`--${name}: expected a whole number ≥ ${min}, got ${value === undefined ? 'nothing' : `"${value}"`}`);
  return n;
}

export async function runSampleCommand(
  args: string[],
  opts: SampleCliOptions,
  usage: (message: string) => Error,
): Promise<number> {
  const [dir, extra] = args;
  if (!dir) throw usage('sample needs a benchmark folder');
  if (extra !== undefined) throw usage(`unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Error(`${dir}: no such file or folder`);
  if (!opts.out) throw usage('sample needs --out NAME (the sample file under .personalab/samples/)');
  const bad = checkSampleName(opts.out);
  if (bad) throw usage(`--out ${opts.out}: ${bad}`);
  const users = whole('users', opts.users, 1, usage);
  const seed = opts.seed === undefined ? 1 : whole('seed', opts.seed, 0, usage);
  const by = (opts.by ?? 'platform') as SampleBy;
  if (!SAMPLE_BY.includes(by)) throw usage(`--by: expected one of ${SAMPLE_BY.join(', ')}, got "${opts.by}"`);
  const baseName = opts['base-run'];
  if (by === 'signature' && !baseName) throw usage('--by signature needs --base-run RUN (whose scores give it)');
  const bench = await loadBenchmark(dir, { runs: baseName ? [baseName] : [], ...cacheOption(opts) });
  const baseRun = baseName ? bench.runs.get(baseName) : undefined;
  if (baseName && !baseRun) throw new Error(`--base-run: no run "${baseName}" under ${bench.root}/results`);
  const draw = drawSample(bench, { users, seed, by, baseRun: by === 'signature' ? baseRun : undefined });
  const sample = newSample(bench, opts.out, draw);
  const path = writeSample(bench.root, sample);
  const size = sampleSize(bench, sample.users);
  print(`wrote ${path}: ${size.users} users, ${size.steps} steps (seed ${seed}, by ${by})`);
  for (const s of sample.strata) print(`  ${s.key.padEnd(24)} ${String(s.drawn).padStart(5)} of ${s.population}`);
  return 0;
}
