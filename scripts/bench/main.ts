// `npm run bench`: load, score and memory on a paper-scale benchmark, as ratios measured in the same run, then the
// tree click → step view time from the e2e harness (scripts/bench/render.ts). Options: --render (insist on that
// stage), --no-render, --cli (only the whole CLI jobs as processes on all runs: the bare parse, `score --json` cold,
// writing the index and warm, and the Python peer; `npm run build && node dist/bench.js --cli`). Run as a driver or as a worker (`--worker DIR RUNS`), so that peak RSS is measured in a
// clean process.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { writeBaselineRun } from '../../src/core/spb/baselines/baselines';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { scoreRun, type RunScore } from '../../src/core/spb/score/run';
import { describeRender, measureRender, renderPrerequisite } from './render';
import { bareProcess, measureIndexInProcess, measureIndexProcesses, measureSkim } from './index';
import { measureLabelImport } from './labels';
import { measureLabelServer } from './labelServer';
import { measureLongLine } from './longLine';
import { mb, median, range, time, timeAsync } from './measure';
import { PEAK_RSS_JS, peakRssBytes } from './peakRss';
import { measureRunShare } from './runShare';
import { measurePersonaMem, personaMemWorker } from './personamem';
import { cliHeapWorker } from './cliHeap';

const REPEATS = 5;
const PY_REPEATS = 5;

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

/** The tasks files and the given runs' results files, and their bytes on disk. */
function filesOf(dir: string, runNames: string[]): { files: string[]; bytes: number } {
  const wanted = new Set(runNames);
  const files = jsonlFiles(dir).filter(
    (f) => !f.includes(`${join(dir, 'results')}/`) || wanted.has(basename(dirname(f))),
  );
  return { files, bytes: files.reduce((s, f) => s + statSync(f).size, 0) };
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

async function worker(dir: string, runs: string[] | undefined): Promise<void> {
  const bench = await loadBenchmark(dir, { runs });
  const scores = [...bench.runs.values()].map((r) => scoreRun(bench, r));
  process.stdout.write(JSON.stringify({ rssBytes: peakRssBytes(), runs: scores.length }));
}

interface PyTiming {
  read_s: number;
  score_s: number;
  runs: string[];
  scored_steps: number;
  scores: { runs: { name: string; avg: Record<string, number | null> }[] };
}

/** One timed run of the plain Python reference scorer on the given runs; an error message when it cannot run. */
function runPython(dir: string, runNames: string[]): PyTiming | string {
  const args = ['test/reference/spb_reference.py', dir, ...runNames.flatMap((r) => ['--run', r]), '--time'];
  const py = spawnSync('python3', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (py.status !== 0) return py.error?.message ?? py.stderr.trim().split('\n').slice(-1)[0] ?? `exit ${py.status}`;
  return JSON.parse(py.stdout) as PyTiming;
}

/** Where Python's figures differ from ours (run names, scored steps, each run's Avg.); [] when they agree. */
function pythonDisagrees(py: PyTiming, ours: RunScore[]): string[] {
  const out: string[] = [];
  const names = ours.map((r) => r.name);
  if (JSON.stringify(py.runs) !== JSON.stringify(names))
    out.push(`runs: Python ${py.runs.join(',')} vs ours ${names.join(',')}`);
  const steps = ours.reduce((n, r) => n + [...r.platforms.values()].reduce((k, p) => k + p.steps, 0), 0);
  if (py.scored_steps !== steps) out.push(`scored steps: Python ${py.scored_steps} vs ours ${steps}`);
  for (const run of py.scores.runs) {
    const mine = ours.find((r) => r.name === run.name);
    for (const [key, value] of Object.entries(run.avg)) {
      const v = mine?.avg[key as keyof RunScore['avg']];
      const same = value === null ? v === undefined || Number.isNaN(v) : v !== undefined && Math.abs(v - value) <= 1e-9;
      if (!same) out.push(`${run.name} Avg. ${key}: Python ${value} vs ours ${v}`);
    }
  }
  return out;
}

/** Load, score and memory for the tasks plus the given runs, each against its own baseline measured here. */
async function measure(dir: string, runNames: string[], python: boolean): Promise<void> {
  const { files, bytes } = filesOf(dir, runNames);
  const parseMs: number[] = [];
  const loadMs: number[] = [];
  let bench = await loadBenchmark(dir, { runs: runNames }); // warm-up (JIT, page cache)
  bareParse(files);
  // Each load is timed right after its bare parse, so that a pair sees the same load on a shared machine.
  for (let i = 0; i < REPEATS; i++) {
    parseMs.push(time(() => bareParse(files))[0]);
    const [ms, b] = await timeAsync(() => loadBenchmark(dir, { runs: runNames }));
    loadMs.push(ms);
    bench = b;
  }
  const runs = [...bench.runs.values()];
  const scoreAll = () => runs.map((r) => scoreRun(bench, r));
  let scores = scoreAll(); // warm-up
  const scoreMs: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const [ms, s] = time(scoreAll);
    scoreMs.push(ms);
    scores = s;
  }
  const steps = [...bench.users.values()].reduce(
    (n, m) => n + [...m.values()].reduce((k, u) => k + u.steps.length, 0),
    0,
  );
  const users = [...bench.users.values()].reduce((n, m) => n + m.size, 0);

  const child = spawnSync(process.execPath, [__filename, '--worker', dir, runNames.join(',')], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`rss worker failed: ${child.stderr}`);
  const { rssBytes } = JSON.parse(child.stdout) as { rssBytes: number };

  const ratios = loadMs.map((l, i) => l / parseMs[i]);
  const l = median(loadMs);
  const s = median(scoreMs);
  console.log(
    `\n== tasks + ${runs.length} run(s): ${users} users, ${steps} steps, ${files.length} files, ${mb(bytes)} on disk`,
  );
  console.log(
    `load + index: median ${l.toFixed(0)} ms (${range(loadMs, 0)}); bare JSON.parse of the same bytes: median ${median(parseMs).toFixed(0)} ms (${range(parseMs, 0)})`,
  );
  console.log(
    `  load / bare parse = ${median(ratios).toFixed(2)}x, median of ${REPEATS} back-to-back pairs (range ${range(ratios, 2)}; best load / best parse ${(Math.min(...loadMs) / Math.min(...parseMs)).toFixed(2)}x)   (goal <= 1.3x)`,
  );
  await measureSkim(dir, runNames);
  console.log(`score all runs: median ${s.toFixed(0)} ms (${range(scoreMs, 0)}, ${REPEATS} times)`);
  console.log(`peak RSS of load + score in a fresh process: ${mb(rssBytes)}`);
  const goalRss = runNames.length > 1 ? 1.0 : 1.5;
  console.log(`  peak RSS / bytes on disk = ${(rssBytes / bytes).toFixed(2)}x   (goal <= ${goalRss}x)`);
  await measureIndexInProcess(dir, runNames, () => bareParse(files), files.length);
  measureIndexProcesses(dir, runNames, files, bytes, goalRss);
  if (!python) return;
  // The plain Python implementation of the reference rules (test/reference/spb_reference.py) on the same runs,
  // its reading (json.loads of every line) timed apart from its scoring. Each Python run is paired with one
  // scoring of ours right after it.
  const pyRuns: PyTiming[] = [];
  const oursMs: number[] = [];
  for (let i = 0; i < PY_REPEATS; i++) {
    const py = runPython(dir, runNames);
    if (typeof py === 'string') {
      console.log(`python reference: not run (${py})`);
      return;
    }
    pyRuns.push(py);
    oursMs.push(time(scoreAll)[0]);
  }
  const disagree = pythonDisagrees(pyRuns[0], scores);
  console.log(
    disagree.length
      ? `python reference DISAGREES with our scores: ${disagree.slice(0, 5).join('; ')}`
      : `python reference scored the same ${pyRuns[0].runs.length} runs (${pyRuns[0].scored_steps} scored steps); every run's Avg. figures agree with ours`,
  );
  const pyScore = pyRuns.map((p) => p.score_s * 1000);
  const pyRead = pyRuns.map((p) => p.read_s * 1000);
  const scoreRatios = pyScore.map((p, i) => p / oursMs[i]);
  console.log(
    `score phase: Python median ${median(pyScore).toFixed(0)} ms (${range(pyScore, 0)}); ours median ${median(oursMs).toFixed(0)} ms (${range(oursMs, 0)})`,
  );
  console.log(
    `  Python / ours = ${median(scoreRatios).toFixed(1)}x, median of ${PY_REPEATS} pairs (range ${range(scoreRatios, 1)}; best / best ${(Math.min(...pyScore) / Math.min(...oursMs)).toFixed(1)}x)   (goal >= 20x)`,
  );
  const pyTotal = median(pyRuns.map((p) => (p.read_s + p.score_s) * 1000));
  console.log(
    `  for context, read + score: Python ${median(pyRead).toFixed(0)} + ${median(pyScore).toFixed(0)} = ${pyTotal.toFixed(0)} ms; ours load + score ${l.toFixed(0)} + ${s.toFixed(0)} = ${(l + s).toFixed(0)} ms (${(pyTotal / (l + s)).toFixed(1)}x)`,
  );
}

/** The CLI's whole jobs only (--cli), on the tasks plus the given runs. */
function measureJobs(dir: string, runNames: string[]): void {
  const { files, bytes } = filesOf(dir, runNames);
  console.log(`== tasks + ${runNames.length} run(s): ${files.length} files, ${mb(bytes)} on disk`);
  measureIndexProcesses(dir, runNames, files, bytes, runNames.length > 1 ? 1.0 : 1.5);
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
  if (process.argv.includes('--cli')) return measureJobs(dir, names.slice(0, wantRuns));
  console.log(
    `benchmark: ${dir} (idle node RSS for scale: ${mb(Number(spawnSync(process.execPath, ['-e', `process.stdout.write(String(${PEAK_RSS_JS}))`], { encoding: 'utf8' }).stdout))})`,
  );
  await measure(dir, names.slice(0, 1), false);
  await measure(dir, names.slice(0, wantRuns), process.env.PL_BENCH_PYTHON !== '0');
  console.log('');
  await measureRunShare(await loadBenchmark(dir, { runs: [] }));
  console.log('');
  measureLabelImport();
  console.log('');
  await measureLabelServer();
  console.log('');
  await measureLongLine();
  console.log('');
  await measurePersonaMem();
  // Runs when its e2e test and code-server are here (or with --render, which says why when they are not).
  const args = process.argv.slice(2);
  const repo = resolve(__dirname, '..');
  console.log('');
  if (args.includes('--no-render')) console.log('tree click -> step view rendered: not measured (--no-render)');
  else if (args.includes('--render') || renderPrerequisite(repo) === null) {
    console.log(`measuring tree click -> step view in the real workbench (${names.length} runs) ...`);
    console.log(describeRender(measureRender({ repo, benchmark: dir }), dir));
  } else console.log(describeRender({ measured: false, reason: renderPrerequisite(repo) ?? '' }, dir));
}

if (process.argv[2] === '--bare') {
  bareProcess(process.argv[3], (files) => bareParse(files));
} else if (process.argv[2] === '--pmem-worker') {
  void personaMemWorker(process.argv[3], process.argv[4] === 'bare');
} else if (process.argv[2] === '--cli-heap') {
  void cliHeapWorker(process.argv[3]);
} else if (process.argv[2] === '--worker') {
  void worker(process.argv[3], process.argv[4] ? process.argv[4].split(',') : undefined);
} else {
  driver().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
