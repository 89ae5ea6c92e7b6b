// The CLI restarted with a smaller young generation (src/cli/youngGeneration.ts) against the CLI run in place, as
// whole processes paired in one run: cold `score --json --no-cache` and warm `score --json`, their time and peak RSS
// (the restart's first image included), and whether both print the same bytes. Not part of `npm run bench`; by hand:
//   npm run build && npx esbuild scripts/bench/youngGeneration.ts --bundle --platform=node \
//     --external:better-sqlite3 --outfile=dist/bench-young.js && npx node dist/bench-young.js .cache/bench-paper 5
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { YOUNG_GENERATION_ENV } from '../../src/cli/youngGeneration';
import { rssProbe, runProcess } from './index';
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
  for (const [name, args] of Object.entries(jobs)) {
    const out = (env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, args, { env: { ...process.env, ...env }, maxBuffer: 1 << 30 }).stdout;
    const same = out({}).equals(out(inPlace));
    const restarted: Sample[] = [];
    const plain: Sample[] = [];
    // Alternating which goes first, so that neither always runs on a machine the other has just warmed.
    for (let i = 0; i < repeats; i++) {
      if (i % 2) restarted.push(runProcess(args, probe));
      plain.push(runProcess(args, probe, process.execPath, inPlace));
      if (!(i % 2)) restarted.push(runProcess(args, probe));
    }
    const ms = (xs: Sample[]) => median(xs.map((x) => x.ms));
    const peak = (xs: Sample[]) => Math.max(...xs.map((x) => x.rss));
    const timeRatios = restarted.map((x, i) => x.ms / plain[i].ms);
    const rssRatios = restarted.map((x, i) => x.rss / plain[i].rss);
    console.log(
      `${name}: restarted ${ms(restarted).toFixed(0)} ms, peak ${mb(peak(restarted))}; in place ${ms(plain).toFixed(0)} ms, peak ${mb(peak(plain))}; ` +
        `time restarted / in place ${median(timeRatios).toFixed(2)}x (pairs ${range(timeRatios, 2)}), peak ${median(rssRatios).toFixed(2)}x (pairs ${range(rssRatios, 2)}); output ${same ? 'byte-identical' : 'DIFFERS'}`,
    );
  }
}

main();
