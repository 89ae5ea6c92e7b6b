// `npm run bench`, PersonaMem: opening a split the size of the paper's 1M-token one (generated once, kept), timed
// against a bare parse of the same bytes, and the peak RSS of a fresh process that opens and scores it, over its
// bytes on disk. The loader keeps an index of each context's byte span, never the contexts: RSS stays far below
// the bytes, where a bare parse holds them all.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { personaMem } from '../../src/core/personamem/format';
import { generatePersonaMem } from '../gen-personamem/generate.mjs';
import { mb, median, range, time, timeAsync } from './measure';
import { peakRssBytes } from './peakRss';

const REPEATS = 3;

function files(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => /^(questions_.*\.csv|shared_contexts_.*\.jsonl)$/.test(n))
    .map((n) => join(dir, n));
}

/** The floor: read every byte, JSON.parse each context line, split the CSV into lines. */
function bareParse(paths: string[]): number {
  let n = 0;
  for (const f of paths) {
    const text = readFileSync(f, 'utf8');
    if (f.endsWith('.csv')) n += text.split('\n').length;
    else for (const line of text.split('\n')) if (line) n += (JSON.parse(line) as object) ? 1 : 0;
  }
  return n;
}

/** In a fresh process: open and score, then print the peak RSS. */
export async function personaMemWorker(dir: string, bare: boolean): Promise<void> {
  if (bare) bareParse(files(dir));
  else {
    const { opened } = await personaMem.load(dir);
    await opened.score({ output: { kind: 'json' } });
  }
  process.stdout.write(JSON.stringify({ rssBytes: peakRssBytes() }));
}

const rssOf = (dir: string, bare: boolean) => {
  const child = spawnSync(process.execPath, [__filename, '--pmem-worker', dir, bare ? 'bare' : 'load'], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`PersonaMem rss worker failed: ${child.stderr}`);
  return (JSON.parse(child.stdout) as { rssBytes: number }).rssBytes;
};

export async function measurePersonaMem(): Promise<void> {
  const dir = resolve(process.env.PL_BENCH_PMEM_DIR ?? '.cache/bench-personamem-1M');
  if (!existsSync(join(dir, 'questions_1M.csv'))) {
    console.log(`generating a PersonaMem 1M-size split into ${dir} ...`);
    generatePersonaMem(dir, {
      seed: 2026,
      size: '1M',
      personas: 20,
      sessions: 60,
      turns: 330,
      questions: 30,
      models: [{ name: 'demo', skill: 0.5 }],
    });
  }
  const paths = files(dir);
  const bytes = paths.reduce((s, f) => s + statSync(f).size, 0);
  await personaMem.load(dir); // warm-up (JIT, page cache)
  const parseMs: number[] = [];
  const loadMs: number[] = [];
  let contexts = 0;
  let questions = 0;
  for (let i = 0; i < REPEATS; i++) {
    parseMs.push(time(() => bareParse(paths))[0]);
    const [ms, loaded] = await timeAsync(() => personaMem.load(dir));
    loadMs.push(ms);
    const splits = [...loaded.bench.splits.values()];
    contexts = splits.reduce((n, s) => n + s.contexts.size, 0);
    questions = splits.reduce((n, s) => n + s.questions.length, 0);
  }
  const ratios = loadMs.map((l, i) => l / parseMs[i]);
  const rss = rssOf(dir, false);
  const bareRss = rssOf(dir, true);
  console.log(`== PersonaMem 1M-size split: ${contexts} contexts, ${questions} questions, ${mb(bytes)} on disk`);
  console.log(
    `open (index the contexts, read the questions): median ${median(loadMs).toFixed(0)} ms (${range(loadMs, 0)}); bare parse of the same bytes: median ${median(parseMs).toFixed(0)} ms (${range(parseMs, 0)})`,
  );
  console.log(`  open / bare parse = ${median(ratios).toFixed(2)}x, median of ${REPEATS} back-to-back pairs`);
  console.log(
    `peak RSS of open + score in a fresh process: ${mb(rss)} = ${(rss / bytes).toFixed(2)}x the bytes on disk (a bare parse: ${mb(bareRss)} = ${(bareRss / bytes).toFixed(2)}x)`,
  );
}
