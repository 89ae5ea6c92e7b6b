// The CLI restarted with a smaller young generation (src/cli/youngGeneration.ts) against the CLI run in place, as
// whole processes paired in one run: cold `score --json --no-cache` and warm `score --json`, their time and peak RSS
// (the restart's first image included), and whether both print the same bytes; beside them the Python peer's peak. Not part of `npm run bench`; by hand:
//   npm run build && npx esbuild scripts/bench/youngGeneration.ts --bundle --platform=node \
//     --external:better-sqlite3 --outfile=dist/bench-young.js && npx node dist/bench-young.js .cache/bench-paper 5
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { YOUNG_GENERATION_ENV } from '../../src/cli/youngGeneration';
import { pythonJob, rssProbe, runProcess } from './index';
import { mb, median, range } from './measure';

type Sample = { ms: number; rss: number };

function main(): void {
  const dir = resolve(process.argv[2] ?? '.cache/bench-paper');
  const repeats = Number(process.argv[3] ?? 5);
  const cli = resolve(__dirname, 'cli.js');
  const probe = rssProbe();
  const inPlace = { [YOUNG_GENERATION_ENV]: 'off' };
  const jobs = {
    cold: [cli, 'score', dir, '--json', '--no-cache'],
    warm: [cli, 'score', dir, '--json'],
  };
  // The warm job needs the index: written once before the pairs.
  runProcess(jobs.warm, probe);
  const py = pythonJob(dir, []);
  const python: Sample[] = [];
  for (const [name, args] of Object.entries(jobs)) {
    const out = (env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 30 }).stdout;
    const same = out({}).equals(out(inPlace));
    const restarted: Sample[] = [];
    const plain: Sample[] = [];
    // Started as an executable (`persona-lab`), the flag comes from the script's first line: no restart.
    const executable: Sample[] = [];
    const asExecutable = () =>
      runProcess(args.slice(1), probe, cli, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} -r ${probe}` });
    // Alternating which goes first, so that neither always runs on a machine the other has just warmed.
    for (let i = 0; i < repeats; i++) {
      if (i % 2) restarted.push(runProcess(args, probe));
      plain.push(runProcess(args, probe, process.execPath, inPlace));
      if (!(i % 2)) restarted.push(runProcess(args, probe));
      executable.push(asExecutable());
      if (py && name === 'cold') python.push(runProcess(py, probe, 'python3'));
    }
    const ms = (xs: Sample[]) => median(xs.map((x) => x.ms));
    const peak = (xs: Sample[]) => Math.max(...xs.map((x) => x.rss));
    const timeRatios = restarted.map((x, i) => x.ms / plain[i].ms);
    const rssRatios = restarted.map((x, i) => x.rss / plain[i].rss);
    const exeTime = executable.map((x, i) => x.ms / plain[i].ms);
    const exeRss = executable.map((x, i) => x.rss / plain[i].rss);
    console.log(
      `${name}: restarted ${ms(restarted).toFixed(0)} ms, peak ${mb(peak(restarted))}; in place ${ms(plain).toFixed(0)} ms, peak ${mb(peak(plain))}; ` +
        `time restarted / in place ${median(timeRatios).toFixed(2)}x (pairs ${range(timeRatios, 2)}), peak ${median(rssRatios).toFixed(2)}x (pairs ${range(rssRatios, 2)}); output ${same ? 'byte-identical' : 'DIFFERS'}`,
    );
    console.log(
      `  as an executable (flag from its first line): ${ms(executable).toFixed(0)} ms, peak ${mb(peak(executable))}; over in place: time ${median(exeTime).toFixed(2)}x (pairs ${range(exeTime, 2)}), peak ${median(exeRss).toFixed(2)}x`,
    );
  }
  if (python.length) {
    const peak = Math.max(...python.map((x) => x.rss));
    console.log(
      `the Python peer, reading and scoring: ${median(python.map((x) => x.ms)).toFixed(0)} ms, peak ${mb(peak)}`,
    );
  }
}

main();
