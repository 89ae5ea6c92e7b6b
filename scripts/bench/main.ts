// `npm run bench`: load, score and memory on a paper-scale benchmark, as ratios measured in the same run.
// Run as a driver (no args) or as a worker (`--worker rss DIR`) so that peak RSS is measured in a clean process.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { writeBaselineRun } from '../../src/core/baselines';
import { loadBenchmark } from '../../src/core/load';
import { scoreRun } from '../../src/core/runScore';

const REPEATS = 5;

function jsonlFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(join(root, 'data'));
  if (existsSync(join(root, 'results'))) walk(join(root, 'results'));
  return out;
}

/** The floor any loader pays: read the bytes, split lines, JSON.parse each (NaN lines through a naive regex). */
function bareParse(files: string[]): number {
  let n = 0;
  for (const f of files) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        JSON.parse(line);
      } catch {
        JSON.parse(line.replace(/\bNaN\b/g, 'null'));
      }
      n++;
    }
  }
  return n;
}

function time<T>(fn: () => T): [number, T] {
  const t0 = process.hrtime.bigint();
  const v = fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, v];
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = process.hrtime.bigint();
  const v = await fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, v];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function worker(dir: string, runs: string[] | undefined): Promise<void> {
  const bench = await loadBenchmark(dir, { runs });
  const scores = [...bench.runs.values()].map((r) => scoreRun(bench, r));
  const rssKiB = process.resourceUsage().maxRSS;
  process.stdout.write(JSON.stringify({ rssBytes: rssKiB * 1024, runs: scores.length }));
}

const mb = (b: number) => (b / 2 ** 20).toFixed(1) + ' MiB';

/** Load, score and memory for the tasks plus the given runs, each against its own baseline measured here. */
async function measure(dir: string, runNames: string[], python: boolean): Promise<void> {
  const wanted = new Set(runNames);
  const files = jsonlFiles(dir).filter((f) => !f.includes(`${join(dir, 'results')}/`) || wanted.has(basename(dirname(f))));
  const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
  const parseMs: number[] = [];
  const loadMs: number[] = [];
  let bench = await loadBenchmark(dir, { runs: runNames }); // warm-up (JIT, page cache)
  bareParse(files);
  for (let i = 0; i < REPEATS; i++) {
    parseMs.push(time(() => bareParse(files))[0]);
    const [ms, b] = await timeAsync(() => loadBenchmark(dir, { runs: runNames }));
    loadMs.push(ms);
    bench = b;
  }
  const runs = [...bench.runs.values()];
  const [scoreMs] = time(() => runs.map((r) => scoreRun(bench, r)));
  const steps = [...bench.users.values()].reduce((n, m) => n + [...m.values()].reduce((k, u) => k + u.steps.length, 0), 0);
  const users = [...bench.users.values()].reduce((n, m) => n + m.size, 0);

  const child = spawnSync(process.execPath, [__filename, '--worker', dir, runNames.join(',')], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`rss worker failed: ${child.stderr}`);
  const { rssBytes } = JSON.parse(child.stdout) as { rssBytes: number };

  const p = median(parseMs);
  const l = median(loadMs);
  console.log(`\n== tasks + ${runs.length} run(s): ${users} users, ${steps} steps, ${files.length} files, ${mb(bytes)} on disk`);
  console.log(`load + index (median of ${REPEATS}): ${l.toFixed(0)} ms; bare JSON.parse of the same bytes: ${p.toFixed(0)} ms`);
  console.log(`  load / bare parse = ${(l / p).toFixed(2)}x   (goal <= 1.5x)`);
  console.log(`score all runs: ${scoreMs.toFixed(0)} ms`);
  console.log(`peak RSS of load + score in a fresh process: ${mb(rssBytes)}`);
  console.log(`  peak RSS / bytes on disk = ${(rssBytes / bytes).toFixed(2)}x   (goal <= 3x)`);
  if (!python) return;
  // The plain Python implementation of the reference rules (test/reference/spb_reference.py) reads and scores the
  // same runs; compare it with our load + score, since it cannot score without reading.
  const args = ['test/reference/spb_reference.py', dir, ...runNames.flatMap((r) => ['--run', r])];
  const [pyMs, py] = time(() => spawnSync('python3', args, { encoding: 'utf8', maxBuffer: 1 << 26 }));
  if (py.status !== 0) {
    console.log(`python reference: not run (${py.error?.message ?? py.stderr.split('\n')[0]})`);
    return;
  }
  console.log(`plain Python reference scorer (read + score): ${pyMs.toFixed(0)} ms; ours (load + score): ${(l + scoreMs).toFixed(0)} ms`);
  console.log(`  Python / ours = ${(pyMs / (l + scoreMs)).toFixed(1)}x   (goal >= 20x on scoring)`);
}

async function driver(): Promise<void> {
  const dir = resolve(process.env.PL_BENCH_DIR ?? '.cache/bench-paper');
  const wantRuns = Number(process.env.PL_BENCH_RUNS ?? 14);
  if (!existsSync(join(dir, 'data'))) {
    console.log(`generating the paper-scale benchmark into ${dir} ...`);
    execFileSync(process.execPath, ['scripts/gen-sample.mjs', '--scale', 'paper', '--out', dir], { stdio: 'inherit' });
  }
  // The paper ran 14 models: fill up with seeded random-baseline runs (written once, kept in the cache).
  let bench = await loadBenchmark(dir);
  for (let seed = 1; bench.runs.size < wantRuns; seed++) {
    const name = `random-s${seed}`;
    if (bench.runs.has(name)) continue;
    await writeBaselineRun(bench, 'random', name, { seed });
    bench = await loadBenchmark(dir);
  }
  const names = [...bench.runs.keys()];
  console.log(`benchmark: ${dir} (idle node RSS for scale: ${mb(Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.resourceUsage().maxRSS*1024))'], { encoding: 'utf8' }).stdout))})`);
  await measure(dir, names.slice(0, 1), false);
  await measure(dir, names.slice(0, wantRuns), process.env.PL_BENCH_PYTHON !== '0');
}

if (process.argv[2] === '--worker') {
  void worker(process.argv[3], process.argv[4] ? process.argv[4].split(',') : undefined);
} else {
  driver().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
