// `npm test`'s static checks at once: the type check, ESLint, the Python compile check and Prettier each use one core,
// so on a two-core machine running them side by side halves their wall time. Each one's output is printed whole when
// it ends (never interleaved), and the run fails when any of them failed, naming which.
import { spawn } from 'node:child_process';

// npm's own scripts, so that each check is written once (package.json); npm is on PATH wherever npm test runs.
const npmScript = (name) => [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', name]];
const checks = [
  ['typecheck', ...npmScript('typecheck')],
  ['eslint', process.execPath, ['node_modules/eslint/bin/eslint.js', '.']],
  ['python', process.execPath, ['scripts/lint-python.mjs']],
  ['prettier', ...npmScript('format:check')],
];

const results = await Promise.all(
  checks.map(
    ([name, cmd, args]) =>
      new Promise((done) => {
        const started = Date.now();
        const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('error', (err) => done({ name, ok: false, out: `${out}${err.message}\n` }));
        child.on('close', (code) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          process.stdout.write(`[checks] ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s\n`);
          if (code !== 0 || out.trim()) process.stdout.write(out.endsWith('\n') || !out ? out : `${out}\n`);
          done({ name, ok: code === 0 });
        });
      }),
  ),
);
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length) {
  console.error(`[checks] failed: ${failed.join(', ')}`);
  process.exit(1);
}
