#!/usr/bin/env node
// Seeded generator of a synthetic StreamProfileBench folder in the official layout: data/, one simulated model run
// (results/demo-llm/) and pi-manifest.json listing deliberately planted residual PI. Same seed + scale => same bytes.
//   node scripts/gen-sample.mjs [--out DIR] [--scale sample|paper] [--seed N] [--check]
// --check regenerates into a temp folder, requires byte equality with --out, then validates --out (invariants, planted
// PI at the manifest's lines, the run's metrics against the reference rules, sizes). Plain Node, no dependencies.
// The generator's parts are in scripts/gen-sample/, one module per stage (rng, banks, plants, vocab, plan, user, model,
// write, check); this file is the command line.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './gen-sample/write.mjs';
import { check } from './gen-sample/check.mjs';
import { parseFlags } from './lib/flags.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_SEED = 7451;
const USAGE = 'usage: node scripts/gen-sample.mjs [--out DIR] [--scale sample|paper] [--seed N] [--check]';

function parseArgs(argv) {
  const spec = { '--out': 'value', '--scale': 'value', '--seed': 'value', '--check': 'switch' };
  const { flags, fail } = parseFlags(argv, USAGE, spec);
  const o = {
    scale: flags['--scale'] ?? 'sample',
    seed: flags['--seed'] === undefined ? DEFAULT_SEED : Number(flags['--seed']),
    out: flags['--out'] ?? null,
    check: flags['--check'] === true,
  };
  if (o.scale !== 'sample' && o.scale !== 'paper') fail(`--scale must be sample or paper`);
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) fail('--seed must be a non-negative integer');
  o.out = path.resolve(o.out ?? path.join(ROOT, o.scale === 'paper' ? 'sample-paper' : 'sample'));
  return o;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.check) {
  process.exit(check(opts) ? 0 : 1);
} else {
  const t = generate(opts);
  const rel = path.relative(process.cwd(), opts.out) || '.';
  console.log(
    `gen-sample: scale=${opts.scale} seed=${opts.seed} users=${t.users} steps=${t.steps} (scored ${t.scored}) posts=${t.posts} ` +
      `bytes=${t.bytes} -> ${rel} in ${t.seconds.toFixed(2)}s`,
  );
}
