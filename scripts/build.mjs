// Bundles the CLI, the extension host code and one bundle per webview with esbuild.
import { build } from 'esbuild';
import { existsSync, readdirSync, mkdirSync, copyFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: true, logLevel: 'warning', target: 'es2022' };
const jobs = [];

if (existsSync('src/cli/main.ts')) {
  jobs.push(
    build({
      ...common,
      platform: 'node',
      format: 'cjs',
      entryPoints: ['src/cli/main.ts'],
      outfile: 'dist/cli.js',
      banner: { js: '#!/usr/bin/env node' },
      external: ['better-sqlite3'],
    }).then(() => chmodSync('dist/cli.js', 0o755)),
  );
}
if (existsSync('src/extension/main.ts')) {
  jobs.push(
    build({
      ...common,
      platform: 'node',
      format: 'cjs',
      entryPoints: ['src/extension/main.ts'],
      outfile: 'dist/extension.js',
      external: ['vscode', 'better-sqlite3'],
    }),
  );
}
if (existsSync('scripts/bench/main.ts')) {
  jobs.push(
    build({
      ...common,
      platform: 'node',
      format: 'cjs',
      entryPoints: ['scripts/bench/main.ts'],
      outfile: 'dist/bench.js',
      external: ['better-sqlite3'],
      // scripts/pg-cluster.mjs asks import.meta.url whether it is the script run; in this bundle it never is.
      logOverride: { 'empty-import-meta': 'silent' },
    }),
  );
}
if (existsSync('scripts/bench-pi.ts')) {
  jobs.push(
    build({
      ...common,
      platform: 'node',
      format: 'cjs',
      entryPoints: ['scripts/bench-pi.ts'],
      outfile: 'dist/bench-pi.js',
      external: ['better-sqlite3'],
    }),
  );
}
// One browser bundle per folder under webview/ that has a main.ts.
if (existsSync('webview')) {
  for (const name of readdirSync('webview')) {
    const entry = join('webview', name, 'main.ts');
    if (!existsSync(entry)) continue;
    jobs.push(
      build({
        ...common,
        platform: 'browser',
        format: 'iife',
        entryPoints: [entry],
        outfile: `dist/webview/${name}.js`,
        loader: { '.css': 'text' },
      }),
    );
  }
}
// Codicons are served from dist/ (localResourceRoots is media/ and dist/ only).
mkdirSync('dist/codicons', { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf']) {
  copyFileSync(join('node_modules/@vscode/codicons/dist', f), join('dist/codicons', f));
}
await Promise.all(jobs);
if (watch) console.log('watch mode is not implemented; rerun npm run build');
