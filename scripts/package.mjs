#!/usr/bin/env node
// Packages the extension into persona-lab.vsix (repo root, gitignored) with @vscode/vsce, offline.
//
// better-sqlite3 is a native module that esbuild keeps external, so it must ship inside the .vsix. vsce runs
// in dependency mode (it lists production dependencies with `npm list`, offline) and .vscodeignore whitelists
// what ships: dist/, media/, package.json, README/CHANGELOG/LICENSE, and the run-time files of better-sqlite3.
// The result is checked entry by entry afterwards.
//
// better-sqlite3 13 is a Node-API 10 addon: its npm tarball carries one prebuilt binary per platform, each of which
// loads in every Node (>= 22.14) and Electron (VS Code >= 1.101) on that platform. The .vsix ships all of them, so
// one file serves Windows, macOS and Linux, desktop and remote; a binary compiled for one ABI (build/) never ships.
//
// Usage: node scripts/package.mjs [--out <file.vsix>] [--root <extension folder>]
//   --root is for trying the packaging on another extension folder; .vscodeignore is always this repo's.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipEntries } from './lib/zip.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
function fail(msg) {
  console.error(`[package] ERROR: ${msg}`);
  process.exit(1);
}

const root = resolve(arg('--root', repo));
const out = resolve(arg('--out', process.env.PERSONA_LAB_VSIX || join(repo, 'persona-lab.vsix')));
const ignoreFile = join(repo, '.vscodeignore');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// --- preconditions: fail early with a useful message instead of a .vsix that cannot activate -------------------
const main = manifest.main ? manifest.main.replace(/^\.\//, '') : undefined;
if (main && !existsSync(join(root, main))) {
  fail(
    `${main} (package.json "main") does not exist: run \`npm run build\` first` +
      (existsSync(join(root, 'src/extension/main.ts')) ? '' : ' (and src/extension/main.ts must exist)'),
  );
}
// The platforms whose binaries must ship (issue: win32-x64, darwin-x64, darwin-arm64, linux-x64, linux-arm64); the
// tarball's others (win32-arm64, linuxmusl-*) ship too when present.
const requiredPrebuilds = ['win32-x64', 'darwin-x64', 'darwin-arm64', 'linux-x64', 'linux-arm64'].map(
  (p) => `node_modules/better-sqlite3/prebuilds/${p}.node`,
);
const needsSqlite = Boolean(manifest.dependencies?.['better-sqlite3']);
const absent = needsSqlite ? requiredPrebuilds.filter((f) => !existsSync(join(root, f))) : [];
if (absent.length)
  fail(`${absent.join(', ')} missing: run \`npm ci\` (better-sqlite3 13 carries its prebuilt binaries)`);
const hasLicense = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].some((f) => existsSync(join(root, f)));
if (!hasLicense) console.warn('[package] warning: no LICENSE file; packaging with --skip-license');
if (!existsSync(join(root, 'README.md'))) console.warn('[package] warning: no README.md');

// --- vsce ---------------------------------------------------------------------------------------------------
const require = createRequire(join(repo, 'package.json'));
const vsce = join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
// --no-rewrite-relative-links: the repository is not on GitHub/GitLab, so vsce cannot turn README's relative links
// (media/screenshots/...) into absolute ones and would fail; VS Code resolves them inside the installed extension.
const args = [
  vsce,
  'package',
  '--out',
  out,
  '--ignoreFile',
  ignoreFile,
  '--allow-missing-repository',
  '--no-rewrite-relative-links',
];
if (!hasLicense) args.push('--skip-license');
rmSync(out, { force: true });
const t0 = Date.now();
// stdout is piped, not a TTY: vsce then answers its own "Do you want to continue?" prompts instead of hanging.
const r = spawnSync(process.execPath, args, {
  cwd: root,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, npm_config_update_notifier: 'false' },
});
const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
if (output) console.log(output.replace(/^/gm, '[vsce] '));
if (r.status !== 0) {
  if (/npm (list|ls)|ELSPROBLEMS|missing:|invalid:/i.test(output)) {
    console.error(
      '[package] vsce lists dependencies with `npm list --production`: node_modules may be out of date; run `npm ci`.',
    );
  }
  fail(`vsce package failed (exit ${r.status ?? r.signal})`);
}
if (!existsSync(out)) fail(`vsce reported success but ${out} is missing`);

// --- check what went in ---------------------------------------------------------------------------------------
let entries;
try {
  entries = zipEntries(readFileSync(out)).map((e) => e.name);
} catch (err) {
  fail(`${out}: ${err.message}`);
}
const files = entries.filter((e) => e.startsWith('extension/')).map((e) => e.slice('extension/'.length));
const must = ['package.json'];
if (main) must.push(main);
// The worker thread the extension starts for StreamProfileBench's cold load (scripts/build.mjs).
if (existsSync(join(root, 'src/extension/benchmarks/spb/coldLoad/worker.ts'))) must.push('dist/spbColdLoad.js');
// The CLI: the small file that starts it and its bundle (src/cli/launch.ts).
if (existsSync(join(root, 'src/cli/launch.ts'))) must.push('dist/cli.js', 'dist/cliMain.js');
if (needsSqlite) {
  must.push(
    ...requiredPrebuilds,
    'node_modules/better-sqlite3/lib/index.js',
    'node_modules/better-sqlite3/lib/binding.js',
    'node_modules/better-sqlite3/package.json',
  );
}
const missing = must.filter((f) => !files.includes(f));
if (missing.length) fail(`the .vsix lacks ${missing.join(', ')}`);
const allowedModules = new Set(['better-sqlite3']);
const stray = files.filter((f) => {
  if (/^(src|test|sample|scripts|webview|\.ci|\.cache|\.git)\//.test(f)) return true;
  if (/^node_modules\/better-sqlite3\/(build|src|deps)\//.test(f)) return true;
  const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f);
  return m ? !allowedModules.has(m[1]) : false;
});
if (stray.length) fail(`the .vsix contains files that should not ship, e.g. ${stray.slice(0, 5).join(', ')}`);

const size = statSync(out).size;
const shown = relative(process.cwd(), out).startsWith('..') ? out : relative(process.cwd(), out);
console.log(
  `[package] ${shown}: ${files.length} files, ${(size / 1024 / 1024).toFixed(2)} MiB, ` +
    `${manifest.publisher}.${manifest.name}@${manifest.version}, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
