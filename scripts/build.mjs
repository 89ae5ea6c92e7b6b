// Bundles the CLI, the extension host code and one bundle per webview with esbuild.
import { build, context, transform } from 'esbuild';
import { existsSync, readdirSync, readFileSync, mkdirSync, copyFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';

const watch = process.argv.includes('--watch');
// .py: the reference drivers are Python files bundled as their text (src/types/python.d.ts).
const common = { bundle: true, sourcemap: true, logLevel: 'warning', target: 'es2022', loader: { '.py': 'text' } };
// Each bundle's options; built once, or with --watch rebuilt on every change until stopped.
const jobs = [];

if (existsSync('src/cli/main.ts')) {
  jobs.push({
    ...common,
    platform: 'node',
    format: 'cjs',
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cliMain.js',
    external: ['better-sqlite3'],
    // V8 keeps a script's whole source for as long as its functions live: without the libraries' comments and
    // indentation a CLI process holds a quarter less of it (names stay, and the source map maps it back).
    minifyWhitespace: true,
  });
  // The small file that starts it (src/cli/launch.ts): the V8 flags' restart and the compile cache come first.
  jobs.push({
    ...common,
    platform: 'node',
    format: 'cjs',
    entryPoints: ['src/cli/launch.ts'],
    outfile: 'dist/cli.js',
    // A plain first line: `env -S` (to pass the heap flag here) is missing from BusyBox and older coreutils, and the
    // CLI sizes its young generation itself (src/cli/youngGeneration.ts).
    banner: { js: '#!/usr/bin/env node' },
    external: ['./cliMain.js'],
    plugins: [{ name: 'executable', setup: (b) => b.onEnd(() => chmodSync('dist/cli.js', 0o755)) }],
  });
}
if (existsSync('src/extension/main.ts')) {
  jobs.push({
    ...common,
    platform: 'node',
    format: 'cjs',
    entryPoints: ['src/extension/main.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', 'better-sqlite3'],
  });
}
// StreamProfileBench's cold load in a worker thread, beside dist/extension.js (src/extension/benchmarks/spb/coldLoad/).
const coldLoadWorker = 'src/extension/benchmarks/spb/coldLoad/worker.ts';
if (existsSync(coldLoadWorker)) {
  jobs.push({
    ...common,
    platform: 'node',
    format: 'cjs',
    entryPoints: [coldLoadWorker],
    outfile: 'dist/spbColdLoad.js',
    // A worker cannot load vscode: the build fails if anything it imports does.
    external: [],
  });
}
if (existsSync('scripts/bench/main.ts')) {
  jobs.push({
    ...common,
    platform: 'node',
    format: 'cjs',
    entryPoints: ['scripts/bench/main.ts'],
    outfile: 'dist/bench.js',
    external: ['better-sqlite3'],
    // scripts/pg-cluster.mjs asks import.meta.url whether it is the script run; in this bundle it never is.
    logOverride: { 'empty-import-meta': 'silent' },
  });
}
if (existsSync('scripts/bench-pi.ts')) {
  jobs.push({
    ...common,
    platform: 'node',
    format: 'cjs',
    entryPoints: ['scripts/bench-pi.ts'],
    outfile: 'dist/bench-pi.js',
    external: ['better-sqlite3'],
  });
}
// A page's `.css` imports: the sheet's text, minified, which the page puts in a <style> under its CSP nonce.
const cssAsText = {
  name: 'css-as-text',
  setup: (b) =>
    b.onLoad({ filter: /\.css$/ }, async (args) => {
      const { code } = await transform(readFileSync(args.path, 'utf8'), { loader: 'css', minify: true });
      return { contents: code, loader: 'text' };
    }),
};
// One browser bundle per folder under webview/ that has a main.ts, named by the folder; a format's pages sit one level
// down (webview/spb/step/main.ts is dist/webview/step.js).
const pages = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => (existsSync(join(dir, d.name, 'main.ts')) ? [[d.name, join(dir, d.name, 'main.ts')]] : []));
if (existsSync('webview')) {
  const formatDirs = readdirSync('webview', { withFileTypes: true }).filter(
    (d) => d.isDirectory() && !existsSync(join('webview', d.name, 'main.ts')),
  );
  const all = [...pages('webview'), ...formatDirs.flatMap((d) => pages(join('webview', d.name)))];
  const taken = new Map();
  for (const [name, entry] of all) {
    // Two pages of one name would write one bundle: the second silently replacing the first.
    if (taken.has(name)) throw new Error(`two webview pages are named ${name}: ${taken.get(name)} and ${entry}`);
    taken.set(name, entry);
  }
  for (const [name, entry] of all) {
    jobs.push({
      ...common,
      platform: 'browser',
      format: 'iife',
      entryPoints: [entry],
      outfile: `dist/webview/${name}.js`,
      // Minified, its style sheets too: a page's bundle reaches the webview through VS Code's service worker and the
      // workbench, and is parsed before the page can ask for its content (the step view's 204 KiB became 131 KiB).
      minify: true,
      plugins: [cssAsText],
    });
  }
}
// Codicons are served from dist/ (localResourceRoots is media/ and dist/ only).
mkdirSync('dist/codicons', { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf']) {
  copyFileSync(join('node_modules/@vscode/codicons/dist', f), join('dist/codicons', f));
}
if (!watch) await Promise.all(jobs.map((options) => build(options)));
else {
  // One context per bundle, each rebuilding on its own inputs; the log says when a rebuild ends, and with what.
  const logged = (options) => ({
    ...options,
    plugins: [
      ...(options.plugins ?? []),
      {
        name: 'watch-log',
        setup: (b) =>
          b.onEnd((r) =>
            console.log(
              `[watch] ${options.outfile}: ${r.errors.length ? `${r.errors.length} error(s)` : 'built'} at ${new Date().toLocaleTimeString()}`,
            ),
          ),
      },
    ],
  });
  const contexts = await Promise.all(jobs.map((options) => context(logged(options))));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log(`[watch] watching ${contexts.length} bundles; Ctrl+C to stop`);
}
