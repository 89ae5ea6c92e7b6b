#!/usr/bin/env node
// `npm start`: build, package persona-lab.vsix, start the demo endpoint, and open sample/ in VS Code with the
// extension installed.
//
//  - The demo endpoint (`persona-lab demo-endpoint`: model demo-model-not-an-llm, a fixed rule that picks tags from
//    the posts, "demo model, not an LLM") starts first on a free 127.0.0.1 port, so that re-runs work offline.
//  - If a `code` command is on PATH (desktop VS Code, or the `code` shim of a code-server terminal), the .vsix is
//    installed with it and sample/ opened in a new window. Your own user settings are left alone: the settings that
//    point Persona Lab at the demo endpoint are printed to paste, and the endpoint runs until Ctrl-C.
//  - Otherwise code-server 4.139.1 (VS Code 1.139.1 in the browser, on Node 24; PERSONA_LAB_CODE_SERVER_VERSION picks
//    another installed line) is installed into .cache/code-server/<version>/ and started, through the launcher the
//    installer writes (bin/code-server, which runs it on its own Node), on 127.0.0.1 with fresh data under
//    .cache/start/, whose user settings point at the demo endpoint; the URL to open is printed. Ctrl-C stops both.
//
// Options: --web             use code-server even when `code` is on PATH
//          --port <n>        port for code-server (default: PORT, else a free one)
//          --demo-port <n>   port for the demo endpoint (default: a free one)
//          --no-demo         do not start the demo endpoint (the endpoint settings stay as they are)
//          --folder <dir>    folder to open (default: sample/)
//          --no-build        skip `npm run build` and packaging (reuse persona-lab.vsix)
//          --check           with code-server: once the URL answers, load it in Chromium, check that the workbench,
//                            the Persona Lab entry and a row of the Benchmarks view appear and that a CJK glyph
//                            renders (else it names the font package to install), then stop (exit 0 or 1)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutOuterNpm } from './lib/cleanEnv.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const opt = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const log = (msg) => console.log(`[start] ${msg}`);
const die = (msg) => {
  console.error(`[start] ERROR: ${msg}`);
  process.exit(1);
};

const folder = resolve(repo, opt('--folder', 'sample'));
const vsix = resolve(process.env.PERSONA_LAB_VSIX || join(repo, 'persona-lab.vsix'));

// Every child starts without the npm_* variables of the npm that ran `npm start` (see lib/cleanEnv.mjs).
const childEnv = withoutOuterNpm();

function step(title, cmd, args, options = {}) {
  log(title);
  const r = spawnSync(cmd, args, { cwd: repo, stdio: 'inherit', env: childEnv, ...options });
  if (r.error) die(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) die(`${title} failed (exit ${r.status ?? r.signal})`);
}

function onPath(cmd) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return undefined;
}

if (!flag('--no-build')) {
  step('npm run build', 'npm', ['run', 'build']);
  step('packaging persona-lab.vsix', process.execPath, [join(repo, 'scripts/package.mjs')]);
}
if (!existsSync(vsix)) die(`${vsix} is missing (run without --no-build)`);
if (!existsSync(folder)) die(`${folder} does not exist${folder.endsWith('sample') ? ' (npm run gen:sample)' : ''}`);

// --- the demo endpoint ------------------------------------------------------------------------------------------
const DEMO_MODEL = 'demo-model-not-an-llm';
let stopping = false;
const demo = flag('--no-demo') ? undefined : await startDemo(opt('--demo-port', '0'));
/** What points Persona Lab at the demo endpoint (the demo answers at once: eight users at a time is cheap). */
const demoSettings = demo
  ? {
      'personaLab.endpoint.baseURL': demo.baseURL,
      'personaLab.endpoint.model': DEMO_MODEL,
      'personaLab.endpoint.maxConcurrency': 8,
    }
  : {};

async function startDemo(port) {
  const cli = join(repo, 'dist/cli.js');
  if (!existsSync(cli)) die(`${cli} is missing (run without --no-build)`);
  const child = spawn(process.execPath, [cli, 'demo-endpoint', '--port', port], {
    cwd: repo,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.on('data', (d) => {
    for (const line of String(d).split('\n')) if (line.trim()) console.log(`[demo] ${line}`);
  });
  process.on('exit', () => child.kill('SIGTERM'));
  const baseURL = await new Promise((res) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/v1)\s/m.exec(out);
      if (m) res(m[1]);
    });
    child.on('exit', (c) => die(`the demo endpoint exited (${c}) before it listened:\n${out}`));
  });
  child.removeAllListeners('exit');
  child.on('exit', (c, signal) => {
    if (!stopping) console.error(`[start] the demo endpoint exited (${c ?? signal})`);
  });
  log(`demo endpoint (model ${DEMO_MODEL}: demo model, not an LLM) at ${baseURL}`);
  return { child, baseURL };
}

const code = flag('--web') || flag('--check') ? undefined : onPath('code');
if (code) {
  // The .vsix's better-sqlite3 is a Node-API addon: the same binary loads in desktop VS Code's Electron (1.101+).
  log(`installing the extension with ${code}`);
  step('code --install-extension', code, ['--install-extension', vsix, '--force']);
  log(`opening ${folder}`);
  step('code', code, ['--new-window', folder]);
  if (!demo) process.exit(0);
  // Your desktop user settings are yours, and an untrusted workspace ignores a workspace's endpoint URL: print them.
  console.log('');
  log('To re-run steps against the demo endpoint, add these to your user settings');
  log('(Preferences: Open User Settings (JSON)); no API key is needed:');
  for (const [key, value] of Object.entries(demoSettings))
    console.log(`    ${JSON.stringify(key)}: ${JSON.stringify(value)},`);
  log('The demo endpoint runs until Ctrl-C (--demo-port <n> keeps its URL the same from one start to the next).');
  log('In VS Code, Persona Lab: Get Started opens the walkthrough.');
  const quit = () => {
    stopping = true;
    demo.child.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
  await new Promise((res) => demo.child.on('exit', res));
  process.exit(stopping ? 0 : 1);
}

// --- code-server ------------------------------------------------------------------------------------------------
const csVersion = process.env.PERSONA_LAB_CODE_SERVER_VERSION || '4.139.1';
step(`installing code-server ${csVersion} (a no-op when already installed)`, 'bash', [
  join(repo, 'scripts/install-code-server.sh'),
  csVersion,
]);
const bin = join(
  process.env.PERSONA_LAB_CODE_SERVER_DIR || join(repo, '.cache/code-server', csVersion),
  'bin/code-server',
);
const base = join(repo, '.cache/start');
rmSync(base, { recursive: true, force: true });
const dirs = {
  userData: join(base, 'user-data'),
  extensions: join(base, 'extensions'),
  xdgConfig: join(base, 'xdg-config'),
  xdgData: join(base, 'xdg-data'),
  xdgCache: join(base, 'xdg-cache'),
};
for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
mkdirSync(join(dirs.userData, 'User'), { recursive: true });
const config = join(base, 'config.yaml');
writeFileSync(config, 'auth: none\ncert: false\n');
writeFileSync(
  join(dirs.userData, 'User', 'settings.json'),
  JSON.stringify(
    {
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoUpdate': false,
      'extensions.autoCheckUpdates': false,
      'extensions.ignoreRecommendations': true,
      'git.openRepositoryInParentFolders': 'never',
      ...demoSettings,
    },
    null,
    2,
  ),
);
const env = {
  ...childEnv,
  XDG_CONFIG_HOME: dirs.xdgConfig,
  XDG_DATA_HOME: dirs.xdgData,
  XDG_CACHE_HOME: dirs.xdgCache,
};
const common = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--config', config];
step('installing persona-lab.vsix into code-server', bin, [...common, '--install-extension', vsix, '--force'], { env });

const port = Number(opt('--port', process.env.PORT ?? 0)) || (await freePort());
const child = spawn(
  bin,
  [
    ...common,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    folder,
  ],
  { env, stdio: ['ignore', 'inherit', 'inherit'], detached: true },
);

let exitCode = 0;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  log(`stopping code-server${demo ? ' and the demo endpoint' : ''} (${signal})`);
  demo?.child.kill('SIGTERM');
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    process.exit(exitCode);
  }, 5000).unref();
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
child.on('exit', (codeNum, signal) => {
  if (!stopping) console.error(`[start] code-server exited (${codeNum ?? signal})`);
  process.exit(stopping ? exitCode : (codeNum ?? 1));
});

// Wait until it answers, then print the URL.
const deadline = Date.now() + 60_000;
for (;;) {
  const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  if (Date.now() > deadline) {
    stop('timeout');
    die('code-server did not become healthy within 60 s');
  }
  await new Promise((r) => setTimeout(r, 200));
}
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`;
console.log('');
log(`Persona Lab is running in code-server ${csVersion}:`);
log(`  ${url}`);
if (demo) log(`re-runs go to the demo endpoint at ${demo.baseURL} (demo model, not an LLM; set in the user settings)`);
if (flag('--check')) {
  log('--check: loading the workbench in Chromium');
  const { checkWorkbench } = await import('./lib/startCheck.mjs');
  const screenshot = join(repo, 'test-results', 'start-check.png');
  try {
    const rows = await checkWorkbench(url, { home: dirs.xdgData, screenshot });
    log(
      `check passed: the workbench loaded, Persona Lab is in the activity bar, Chinese text renders, Benchmarks shows: ${rows.join(' | ')}`,
    );
    log(`screenshot: ${screenshot}`);
  } catch (e) {
    exitCode = 1;
    console.error(`[start] check FAILED: ${e instanceof Error ? e.message : String(e)}`);
  }
  stop('--check');
  await new Promise(() => {});
}
log('Persona Lab: Get Started (command palette) opens the walkthrough.');
log(`data: ${base} (wiped at each start); extension host logs under ${join(dirs.userData, 'logs')}`);
log('remote machine? forward the port first, e.g. `ssh -L ' + `${port}:127.0.0.1:${port} <host>\``);
log('Ctrl-C to stop.');

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const p = srv.address().port;
      srv.close(() => res(p));
    });
  });
}
