#!/usr/bin/env node
// `npm start`: build, package persona-lab.vsix, and open sample/ in VS Code with the extension installed.
//
//  - If a `code` command is on PATH (desktop VS Code, or the `code` shim of a code-server terminal), the .vsix is
//    installed with it and sample/ opened in a new window.
//  - Otherwise code-server 4.139.1 (VS Code 1.139.1 in the browser, on Node 24; PERSONA_LAB_CODE_SERVER_VERSION picks
//    another installed line) is installed into .cache/code-server/<version>/ and started, through the launcher the
//    installer writes (bin/code-server, which runs it on its own Node), on 127.0.0.1 with fresh data under
//    .cache/start/; the URL to open is printed. Ctrl-C stops it.
//
// Options: --web            use code-server even when `code` is on PATH
//          --port <n>       port for code-server (default: PORT, else a free one)
//          --folder <dir>   folder to open (default: sample/)
//          --no-build       skip `npm run build` and packaging (reuse persona-lab.vsix)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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

function step(title, cmd, args, options = {}) {
  log(title);
  const r = spawnSync(cmd, args, { cwd: repo, stdio: 'inherit', ...options });
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

const code = flag('--web') ? undefined : onPath('code');
if (code) {
  // The .vsix's better-sqlite3 is a Node-API addon: the same binary loads in desktop VS Code's Electron (1.101+).
  log(`installing the extension with ${code}`);
  step('code --install-extension', code, ['--install-extension', vsix, '--force']);
  log(`opening ${folder}`);
  step('code', code, ['--new-window', folder]);
  process.exit(0);
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
    },
    null,
    2,
  ),
);
const env = {
  ...process.env,
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

let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  log(`stopping code-server (${signal})`);
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
    process.exit(0);
  }, 5000).unref();
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
child.on('exit', (codeNum, signal) => {
  if (!stopping) console.error(`[start] code-server exited (${codeNum ?? signal})`);
  process.exit(stopping ? 0 : (codeNum ?? 1));
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
