#!/usr/bin/env node
// `npm run screenshots`: regenerates the README's screenshots from the e2e run in the real workbench, so that they
// show what the code does today. Runs the e2e files that take them (unless --no-run), then copies each one from
// test-results/e2e/ to media/screenshots/. A screenshot the run did not write afresh is an error: nothing stale is
// copied. scripts/readme-screenshots.json is the one place that says which README image comes from which test; a unit test
// (test/unit/readme-screenshots.test.ts) checks it against the README both ways.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** README image (media/screenshots/<image>) ← e2e screenshot (test-results/e2e/<shot>.png) of <test>. */
const SCREENSHOTS = JSON.parse(readFileSync(join(repo, 'scripts/readme-screenshots.json'), 'utf8'));

function main(argv) {
  const started = Date.now();
  const run = !argv.includes('--no-run');
  if (run) {
    const tests = [...new Set(SCREENSHOTS.map((s) => s.test))];
    const steps = [
      ['bash', ['scripts/install-code-server.sh']],
      ['npm', ['run', 'build']],
      [process.execPath, ['scripts/package.mjs']],
      [process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.e2e.config.mts', ...tests]],
    ];
    for (const [cmd, args] of steps) {
      console.log(`[screenshots] ${cmd} ${args.join(' ')}`);
      const r = spawnSync(cmd, args, { cwd: repo, stdio: 'inherit' });
      if (r.status !== 0) {
        console.error(`[screenshots] ERROR: ${cmd} failed (exit ${r.status ?? r.signal}); nothing copied`);
        process.exit(1);
      }
    }
  }
  const out = join(repo, 'media/screenshots');
  mkdirSync(out, { recursive: true });
  const problems = [];
  for (const s of SCREENSHOTS) {
    const from = join(repo, 'test-results/e2e', `${s.shot}.png`);
    if (!existsSync(from)) problems.push(`${s.shot}.png is missing (taken by ${s.test})`);
    else if (run && statSync(from).mtimeMs < started)
      problems.push(`${s.shot}.png was not taken by this run (${s.test})`);
  }
  if (problems.length) {
    for (const p of problems) console.error(`[screenshots] ERROR: ${p}`);
    process.exit(1);
  }
  for (const s of SCREENSHOTS) {
    copyFileSync(join(repo, 'test-results/e2e', `${s.shot}.png`), join(out, s.image));
    console.log(`[screenshots] media/screenshots/${s.image} ← ${s.shot}.png (${s.test})`);
  }
}

main(process.argv.slice(2));
