// The persistent index in `npm run bench`: cold open (reading every file and writing the index) and warm open
// (reading the index only) against a bare read-and-parse of the same files, in process and as whole CLI jobs
// (`persona-lab score --json`, with peak RSS), plus the check that a warm open gives what a cold open gives.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { INDEX_DIR } from '../../src/core/cache/store';
import type { CacheReport } from '../../src/core/spb/format/indexed';
import { skimming } from '../../src/core/io/rows';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { loadView } from '../../test/support/loadView';
import { mb, median, range, time, timeAsync } from './measure';
import { PEAK_RSS_JS, PEAK_RSS_PY } from './peakRss';

const REPEATS = 5;
const PROCESS_REPEATS = 3;

/** In-process: no index / cold with index / warm, each paired with a bare parse timed right before it. */
export async function measureIndexInProcess(
  dir: string,
  runs: string[],
  bareParse: () => void,
  files: number,
): Promise<void> {
  const cacheDir = join(dir, INDEX_DIR);
  const open = (withIndex: boolean, report?: CacheReport) =>
    loadBenchmark(dir, withIndex ? { runs, cacheDir, cacheReport: report } : { runs });
  const bare: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  let warmReport: CacheReport = { hits: 0, appended: 0, read: 0 };
  for (let i = 0; i < REPEATS; i++) {
    rmSync(cacheDir, { recursive: true, force: true });
    bare.push((await timeAsync(bareParse))[0]);
    cold.push((await timeAsync(() => open(true)))[0]);
    warmReport = { hits: 0, appended: 0, read: 0 };
    warm.push((await timeAsync(() => open(true, warmReport)))[0]);
  }
  const same = isDeepStrictEqual(loadView(await open(true)), loadView(await open(false)));
  const ratio = (xs: number[]) => median(xs.map((x, i) => x / bare[i]));
  console.log(
    `index, in process (median of ${REPEATS}; bare parse ${median(bare).toFixed(0)} ms): cold open writing the index ${median(cold).toFixed(0)} ms = ${ratio(cold).toFixed(2)}x the bare parse; warm open ${median(warm).toFixed(0)} ms (${range(warm, 0)}) = ${ratio(warm).toFixed(3)}x   (goal <= 0.1x)`,
  );
  console.log(
    `  warm open read ${warmReport.hits} of ${files} files from the index (${warmReport.read} read in full); warm figures, rows and problems ${same ? 'identical to a cold open' : 'DIFFER from a cold open'}`,
  );
}

/** The skimming reader against parsing every line whole, in process: CPU time of a load, in pairs. */
export async function measureSkim(dir: string, runs: string[]): Promise<void> {
  const cpu = async (skim: boolean) => {
    skimming.enabled = skim;
    const start = process.cpuUsage();
    await loadBenchmark(dir, { runs });
    const used = process.cpuUsage(start);
    skimming.enabled = true;
    return (used.user + used.system) / 1000;
  };
  const ratios: number[] = [];
  const skimmed: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const whole = await cpu(false);
    skimmed.push(await cpu(true));
    ratios.push(skimmed[i] / whole);
  }
  console.log(
    `  skimming the texts / parsing every line whole, CPU of a load: ${median(ratios).toFixed(2)}x, median of ${REPEATS} pairs (range ${range(ratios, 2)}; skimmed ${median(skimmed).toFixed(0)} ms)`,
  );
}

/** The probe a measured process loads first: it writes the process's peak RSS when it exits. */
export function rssProbe(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pl-bench-rss-')), 'probe.cjs');
  writeFileSync(
    path,
    `process.on('exit', () => require('fs').writeFileSync(process.env.PL_RSS_OUT, String(${PEAK_RSS_JS})));\n`,
  );
  return path;
}

export function runProcess(
  args: string[],
  probe: string,
  exe = process.execPath,
  extraEnv: NodeJS.ProcessEnv = {},
): { ms: number; rss: number } {
  const out = join(tmpdir(), `pl-bench-rss-${process.pid}.txt`);
  const [ms, child] = time(() =>
    spawnSync(exe, exe === process.execPath ? ['-r', probe, ...args] : args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...extraEnv, PL_RSS_OUT: out },
    }),
  );
  if (child.status !== 0 && child.status !== 1)
    throw new Error(`${args.join(' ')}: exit ${child.status} ${child.stderr}`);
  return { ms, rss: Number(readFileSync(out, 'utf8')) };
}

/** Whole jobs as a user runs them: processes, each with its start-up, timed from outside, with peak RSS. */
export function measureIndexProcesses(
  dir: string,
  runs: string[],
  files: string[],
  bytes: number,
  goalRss: number,
): void {
  const probe = rssProbe();
  const cli = resolve(__dirname, 'cli.js');
  const bench = resolve(__dirname, 'bench.js');
  const runArgs = runs.flatMap((r) => ['--run', r]);
  const cacheDir = join(dir, INDEX_DIR);
  const list = join(mkdtempSync(join(tmpdir(), 'pl-bench-files-')), 'files.json');
  writeFileSync(list, JSON.stringify(files));
  const bare: { ms: number; rss: number }[] = [];
  const cold: { ms: number; rss: number }[] = [];
  const coldIndex: { ms: number; rss: number }[] = [];
  const warm: { ms: number; rss: number }[] = [];
  const python: { ms: number; rss: number }[] = [];
  const pyArgs = pythonJob(dir, runs);
  for (let i = 0; i < PROCESS_REPEATS; i++) {
    bare.push(runProcess([bench, '--bare', list], probe));
    if (pyArgs) python.push(runProcess(pyArgs, probe, 'python3'));
    cold.push(runProcess([cli, 'score', dir, '--json', '--no-cache', ...runArgs], probe));
    rmSync(cacheDir, { recursive: true, force: true });
    coldIndex.push(runProcess([cli, 'score', dir, '--json', ...runArgs], probe));
    warm.push(runProcess([cli, 'score', dir, '--json', ...runArgs], probe));
  }
  const ms = (xs: { ms: number }[]) => median(xs.map((x) => x.ms));
  const ratio = (xs: { ms: number }[]) => median(xs.map((x, i) => x.ms / bare[i].ms));
  const rss = (xs: { rss: number }[]) => Math.max(...xs.map((x) => x.rss));
  console.log(
    `whole job, as processes (median of ${PROCESS_REPEATS}): bare read-and-parse ${ms(bare).toFixed(0)} ms, peak RSS ${mb(rss(bare))} (${(rss(bare) / bytes).toFixed(2)}x the bytes)`,
  );
  const line = (name: string, xs: { ms: number; rss: number }[], goal: string) =>
    console.log(
      `  ${name}: ${ms(xs).toFixed(0)} ms = ${ratio(xs).toFixed(2)}x the bare job${goal}; peak RSS ${mb(rss(xs))} = ${(rss(xs) / bytes).toFixed(2)}x the bytes (goal <= ${goalRss}x)`,
    );
  line('score --json --no-cache', cold, '   (goal < 1x: beat the bare parse)');
  line('score --json, cold, writing the index', coldIndex, '');
  line('score --json, warm', warm, '   (goal <= 0.15x)');
  if (!python.length) return console.log('  the Python peer as a process: not run (no python3)');
  const pyRatio = (xs: { ms: number }[]) => median(xs.map((x, i) => x.ms / python[i].ms));
  console.log(
    `  the Python peer (spb_reference.py, read + score) as a process: ${ms(python).toFixed(0)} ms = ${ratio(python).toFixed(2)}x the bare job; peak RSS ${mb(rss(python))} = ${(rss(python) / bytes).toFixed(2)}x the bytes`,
  );
  console.log(
    `    ours / Python: cold ${pyRatio(cold).toFixed(2)}x the time, ${(rss(cold) / rss(python)).toFixed(2)}x the peak RSS (goal <= 1x); warm ${pyRatio(warm).toFixed(2)}x the time, peak ${(rss(warm) / bytes).toFixed(2)}x the bytes (goal <= 0.3x)`,
  );
}

/** python3 running the reference rules with the probe's job done by `resource` (its peak RSS on exit); undefined without python3. */
export function pythonJob(dir: string, runs: string[]): string[] | undefined {
  if (spawnSync('python3', ['--version']).status !== 0) return undefined;
  const script = resolve(__dirname, '..', 'test', 'reference', 'spb_reference.py');
  const argv = JSON.stringify([script, dir, ...runs.flatMap((r) => ['--run', r])]);
  const code = [
    'import atexit, os, resource, runpy, sys',
    ...PEAK_RSS_PY,
    "atexit.register(lambda: open(os.environ['PL_RSS_OUT'], 'w').write(str(_peak_rss())))",
    `sys.argv = ${argv}`,
    "runpy.run_path(sys.argv[0], run_name='__main__')",
  ].join('\n');
  return ['-c', code];
}

/** `bench.js --bare FILES.json`: the bare read-and-parse as a process of its own. */
export function bareProcess(listPath: string, bareParse: (files: string[]) => void): void {
  bareParse(JSON.parse(readFileSync(listPath, 'utf8')) as string[]);
}
