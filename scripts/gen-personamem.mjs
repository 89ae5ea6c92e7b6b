#!/usr/bin/env node
// A synthetic PersonaMem folder (scripts/gen-personamem/generate.mjs): the small sample, or --scale 1M for a split
// the size of the paper's 1M-token one (about a million tokens per context), for `npm run bench`.
//   node scripts/gen-personamem.mjs --out DIR [--seed N] [--scale sample|1M]
import { generatePersonaMem } from './gen-personamem/generate.mjs';
import { parseFlags } from './lib/flags.mjs';

const USAGE = 'usage: node scripts/gen-personamem.mjs --out DIR [--seed N] [--scale sample|1M]';
const { flags, fail } = parseFlags(process.argv.slice(2), USAGE, {
  '--out': 'value',
  '--seed': 'value',
  '--scale': 'value',
});
if (typeof flags['--out'] !== 'string') fail('--out is required');
const seed = Number(flags['--seed'] ?? 2026);
const scale = flags['--scale'] ?? 'sample';
if (scale !== 'sample' && scale !== '1M') fail(`--scale ${scale}: expected sample or 1M`);
const models = [
  { name: 'demo-strong', skill: 0.8, answered: 1 },
  { name: 'demo-weak', skill: 0.35, answered: 0.85 },
];
const counts =
  scale === 'sample'
    ? generatePersonaMem(flags['--out'], {
        seed,
        size: '32k',
        personas: 3,
        sessions: 4,
        turns: 3,
        questions: 6,
        models,
      })
    : generatePersonaMem(flags['--out'], {
        seed,
        size: '1M',
        personas: 20,
        sessions: 60,
        turns: 430,
        questions: 30,
        models,
      });
console.log(JSON.stringify(counts));
