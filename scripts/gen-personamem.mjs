#!/usr/bin/env node
// A synthetic PersonaMem folder (scripts/gen-personamem/generate.mjs): the small sample (by default into
// sample/personamem), or --scale 1M for a split the size of the paper's 1M-token one (about a million tokens per
// context), for `npm run bench`.
//   node scripts/gen-personamem.mjs [--out DIR] [--seed N] [--scale sample|1M] [--check]
// --check regenerates into a temp folder and requires byte equality with --out (README.md aside), so that the
// committed sample is what the generator writes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePersonaMem } from './gen-personamem/generate.mjs';
import { parseFlags } from './lib/flags.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: node scripts/gen-personamem.mjs [--out DIR] [--seed N] [--scale sample|1M] [--check]';
const { flags, fail } = parseFlags(process.argv.slice(2), USAGE, {
  '--out': 'value',
  '--seed': 'value',
  '--scale': 'value',
  '--check': 'switch',
});
const seed = Number(flags['--seed'] ?? 2026);
if (!Number.isSafeInteger(seed) || seed < 0) fail('--seed must be a non-negative integer');
const scale = flags['--scale'] ?? 'sample';
if (scale !== 'sample' && scale !== '1M') fail(`--scale ${scale}: expected sample or 1M`);
if (typeof flags['--out'] !== 'string' && scale !== 'sample') fail('--out is required with --scale 1M');
const out = typeof flags['--out'] === 'string' ? path.resolve(flags['--out']) : path.join(ROOT, 'sample', 'personamem');
const models = [
  { name: 'demo-strong', skill: 0.8, answered: 1 },
  { name: 'demo-weak', skill: 0.35, answered: 0.85 },
];
const options =
  scale === 'sample'
    ? { seed, size: '32k', personas: 3, sessions: 4, turns: 3, questions: 6, models, plant: true }
    : { seed, size: '1M', personas: 20, sessions: 60, turns: 430, questions: 30, models };

function listFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)))
    .filter((f) => f !== 'README.md')
    .sort();
}

/** The generated files of `dir`, removed before a new generation so that no stale run stays behind. */
function clean(dir) {
  if (!fs.existsSync(dir)) return;
  for (const f of listFiles(dir)) fs.rmSync(path.join(dir, f));
}

if (flags['--check'] === true) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-personamem-'));
  try {
    const counts = generatePersonaMem(tmp, options);
    const want = listFiles(tmp);
    const have = fs.existsSync(out) ? listFiles(out) : [];
    const stale = want.filter(
      (f) => !have.includes(f) || !fs.readFileSync(path.join(out, f)).equals(fs.readFileSync(path.join(tmp, f))),
    );
    const extra = have.filter((f) => !want.includes(f));
    const problems = [];
    if (stale.length) problems.push(`not what --seed ${seed} generates: ${stale.join(', ')}`);
    if (extra.length) problems.push(`files the generator does not write: ${extra.join(', ')}`);
    for (const p of problems) console.error(p);
    console.log(
      problems.length ? 'check: FAILED' : `check: OK (${counts.questions} questions, ${counts.runs.length} runs)`,
    );
    process.exit(problems.length ? 1 : 0);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
clean(out);
console.log(JSON.stringify(generatePersonaMem(out, options)));
