// Writing: generate() runs a plan and writes data/, the run, pi-manifest.json and (sample scale) two annotators' labels;
// generatedFiles() names them.

import fs from 'node:fs';
import path from 'node:path';
import { PLATFORMS, RUN_NAME } from './constants.mjs';
import { LABELS_FILE, writeLabels } from './labels.mjs';
import { hexOf, Rng } from './rng.mjs';
import { assertPlants } from './plants.mjs';
import { buildVocab } from './vocab.mjs';
import { planSample, planPaper } from './plan.mjs';
import { genUser } from './user.mjs';

// Users finish out of order: each result line waits in a small buffer of "in flight" requests and leaves at random.
const COMPLETION_WINDOW = 16;

export function generate(opts) {
  assertPlants();
  const t0 = performance.now();
  const plan = opts.scale === 'paper' ? planPaper(opts.seed) : planSample(opts.seed);
  const vocab = Object.fromEntries(PLATFORMS.map((p) => [p, buildVocab(p)]));
  const viralCache = new Map();
  const ids = new Set();
  const ctx = {
    seed: opts.seed,
    rates: plan.rates,
    vocab,
    viralOn(V, date) {
      const key = `${V.platform}|${date}`;
      if (!viralCache.has(key)) viralCache.set(key, new Rng(`${opts.seed}|viral|${key}`).shuffle(V.viral).slice(0, 10));
      return viralCache.get(key);
    },
    uniqueId(prefix, key) {
      for (let i = 0; ; i++) {
        const id = prefix + hexOf(i ? `${key}#${i}` : key, 10);
        if (!ids.has(id)) {
          ids.add(id);
          return id;
        }
      }
    },
  };
  const dataDir = path.join(opts.out, 'data');
  const runDir = path.join(opts.out, 'results', RUN_NAME);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.mkdirSync(runDir, { recursive: true });
  const totals = { users: 0, steps: 0, scored: 0, posts: 0, bytes: 0 };
  const planted = [];
  const writeLine = (fd, line) => {
    const buf = Buffer.from(line + '\n', 'utf8');
    fs.writeSync(fd, buf);
    totals.bytes += buf.length;
  };
  for (const p of PLATFORMS) {
    const file = `data/${p}_inference_tasks.jsonl`;
    const dataFd = fs.openSync(path.join(opts.out, file), 'w');
    const runFd = fs.openSync(path.join(runDir, `inference_results_${p}.jsonl`), 'w');
    const orderRng = new Rng(`${opts.seed}|order|${p}`);
    const pending = [];
    const flushOne = () => {
      const i = orderRng.int(0, pending.length - 1);
      writeLine(runFd, pending[i]);
      pending[i] = pending[pending.length - 1];
      pending.pop();
    };
    plan.users[p].forEach((spec, idx) => {
      const u = genUser(ctx, p, idx, spec);
      writeLine(dataFd, u.line);
      for (const pl of u.planted) {
        planted.push({
          category: pl.category,
          text: pl.text,
          file,
          line: idx + 1,
          userId: u.userId,
          stepId: pl.stepId,
          field: pl.field,
        });
      }
      pending.push(u.resultLine);
      if (pending.length >= COMPLETION_WINDOW) flushOne();
      totals.users++;
      totals.steps += u.steps;
      totals.scored += u.scored;
      totals.posts += u.posts;
    });
    while (pending.length) flushOne();
    fs.closeSync(dataFd);
    fs.closeSync(runFd);
  }
  const manifest = JSON.stringify({ planted }, null, 2) + '\n';
  fs.writeFileSync(path.join(opts.out, 'pi-manifest.json'), manifest);
  totals.bytes += Buffer.byteLength(manifest);
  // Two annotators' labels for the agreement view on day one: the sample only (the paper scale is for timing).
  if (opts.scale !== 'paper') totals.labels = writeLabels(opts.out, opts.seed);
  totals.seconds = (performance.now() - t0) / 1000;
  return totals;
}

export function generatedFiles(scale = 'sample') {
  return [
    ...PLATFORMS.map((p) => `data/${p}_inference_tasks.jsonl`),
    ...PLATFORMS.map((p) => `results/${RUN_NAME}/inference_results_${p}.jsonl`),
    'pi-manifest.json',
    ...(scale === 'paper' ? [] : [LABELS_FILE]),
  ];
}
