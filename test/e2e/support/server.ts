// code-server for e2e tests: where it is installed, how it is started, and the temp folder each run gets (user data
// with its settings, extensions, HOME/XDG dirs) on its own port.
//
// code-server runs on the Node that the installer wrote into <install>/node-path (Node 24 for 4.139.1, 22 for
// 4.103.2), started as `<that node> <install>/node_modules/code-server/out/node/entry.js` with that Node's bin dir
// first on the child's PATH, whatever Node runs the tests: its extension host is a fork of that same Node.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './wait';
import { linkTree } from './linkTree';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const resultsDir = join(repoRoot, 'test-results/e2e');
export const defaultVsix = process.env.PERSONA_LAB_VSIX || join(repoRoot, 'persona-lab.vsix');
export const codeServerVersion = process.env.PERSONA_LAB_CODE_SERVER_VERSION || '4.139.1';
export const codeServerDir =
  process.env.PERSONA_LAB_CODE_SERVER_DIR || join(repoRoot, '.cache/code-server', codeServerVersion);

/** How to start code-server: [command, leading args, PATH dir to put first]. Throws when it is not installed. */
export function codeServerCommand(): { cmd: string; args: string[]; pathDir?: string } {
  const launcher = process.env.PERSONA_LAB_CODE_SERVER;
  if (launcher) {
    if (!existsSync(launcher)) throw new Error(`PERSONA_LAB_CODE_SERVER=${launcher} does not exist`);
    return { cmd: launcher, args: [] };
  }
  const install = `bash scripts/install-code-server.sh ${codeServerVersion}`;
  const entry = join(codeServerDir, 'node_modules/code-server/out/node/entry.js');
  const nodePathFile = join(codeServerDir, 'node-path');
  if (!existsSync(entry) || !existsSync(nodePathFile)) {
    throw new Error(`code-server ${codeServerVersion} is not installed in ${codeServerDir}: run \`${install}\``);
  }
  const node = readFileSync(nodePathFile, 'utf8').trim();
  if (!existsSync(node)) throw new Error(`${nodePathFile} names ${node}, which does not exist: run \`${install}\``);
  return { cmd: node, args: [entry], pathDir: dirname(node) };
}

/** User settings that keep the workbench quiet and deterministic. */
export const quietSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'git.autoRepositoryDetection': false,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'window.commandCenter': false,
  'editor.minimap.enabled': false,
  // VS Code 1.13x animates the quick input: a hidden one stays in the DOM, visible and inert, for 150 ms, so a test
  // that looks for "the" quick input right after Enter finds the closing one (and its keys go to whatever has the
  // focus). Without motion it hides at once, as in 1.100.
  'workbench.reduceMotion': 'on',
  // The first label would otherwise ask for the author's name (labels/author.ts); a test of that question sets ''.
  'personaLab.labels.author': 'e2e',
};

const themes: Record<string, string> = {
  dark: 'Default Dark Modern',
  light: 'Default Light Modern',
  hc: 'Default High Contrast',
  'hc-dark': 'Default High Contrast',
  'hc-light': 'Default High Contrast Light',
};

export interface CodeServerOptions {
  /** Folder to open as the workspace (must exist). */
  folder: string;
  /** Extra user settings, merged over quietSettings. */
  settings?: Record<string, unknown>;
  /** 'dark' | 'light' | 'hc' | 'hc-light', or a theme's full name. */
  theme?: string;
  /** The .vsix to install; `null` installs nothing. */
  vsix: string | null;
  /** true: leave workspace trust on. Default: --disable-workspace-trust. */
  workspaceTrust?: boolean;
  /** Extra environment for code-server and so for the extension host. */
  env?: Record<string, string>;
  /**
   * Node flags for code-server's own Node (not with PERSONA_LAB_CODE_SERVER's launcher, which takes none): its
   * extension hosts inherit them, as VS Code starts them with its own execArgv.
   */
  nodeFlags?: string[];
  /** A bundle put in place of the installed extension's dist/extension.js (a test build, e.g. with a fixture format). */
  extensionMain?: string;
}

/** A running code-server and the temp folder it owns. */
export interface CodeServer {
  port: number;
  /** The workbench URL (with ?folder=). */
  url: string;
  /** The run's temp folder: user-data/, extensions/, home/, code-server.log, ... */
  dir: string;
  userDataDir: string;
  extensionsDir: string;
  home: string;
  /** The environment code-server runs in (the browser gets it too). */
  env: NodeJS.ProcessEnv;
  /** code-server's stdout+stderr so far. */
  output(): string;
  /** Stops code-server and its children, and deletes the temp folder (unless PERSONA_LAB_E2E_KEEP=1). */
  stop(): Promise<void>;
  /** The same at once, synchronously (for a process that is exiting). */
  stopNow(): void;
  /** false once code-server has exited. */
  alive(): boolean;
}

/** Writes the user settings.json: quietSettings, then `settings`, then the theme. */
export function writeUserSettings(userDataDir: string, opts: { settings?: Record<string, unknown>; theme?: string }) {
  const settings: Record<string, unknown> = { ...quietSettings, ...opts.settings };
  if (opts.theme) settings['workbench.colorTheme'] = themes[opts.theme] ?? opts.theme;
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
}

/**
 * Puts a code-server's user data back to how a new run starts it, for the next window of a reused code-server (no
 * extension host may be running): the settings rewritten, and the folders extensions write into server-side
 * (globalStorage: the label and audit stores; workspaceStorage: per-folder files such as the rerun history) removed.
 */
export function resetUserData(userDataDir: string, opts: { settings?: Record<string, unknown>; theme?: string }) {
  for (const d of ['globalStorage', 'workspaceStorage'])
    rmSync(join(userDataDir, 'User', d), { recursive: true, force: true, maxRetries: 3 });
  writeUserSettings(userDataDir, opts);
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

/** Run a command to completion, capturing its output; rejects on a non-zero exit. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeout: number): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', (e) => {
      clearTimeout(timer);
      rej(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) res(out);
      else rej(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}:\n${out}`));
    });
  });
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || exited(child)) return;
  try {
    process.kill(-child.pid, signal); // the group that spawn({detached:true}) made: code-server and its children
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* gone */
    }
  }
}

/**
 * Copies `bundle` over the one installed extension's dist/extension.js. The installed files are hard links into the
 * install cache (installVsix): the link is removed first, so that the copy never writes through into the cache.
 */
function replaceMain(extensionsDir: string, bundle: string): void {
  const installed = readdirSync(extensionsDir).filter((d) =>
    existsSync(join(extensionsDir, d, 'dist', 'extension.js')),
  );
  if (installed.length !== 1)
    throw new Error(`expected one installed extension in ${extensionsDir}, found ${installed.length}`);
  const main = join(extensionsDir, installed[0], 'dist', 'extension.js');
  unlinkSync(main);
  copyFileSync(bundle, main);
}

/**
 * Installs `vsix` into `extensionsDir`. `code-server --install-extension` takes over a second of CPU each time, and
 * every workbench needs the same .vsix: it runs once per .vsix (path, size, mtime) and code-server line, into a
 * cache under the OS temp dir, whose extension folders are then hard-linked into `extensionsDir` and whose
 * extensions.json is rewritten to name them there.
 */
async function installVsix(
  codeServer: { cmd: string; args: string[] },
  vsix: string,
  extensionsDir: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const st = statSync(vsix);
  const key = createHash('sha256')
    .update(JSON.stringify([resolve(vsix), st.size, st.mtimeMs, codeServerVersion, codeServer.cmd, codeServer.args]))
    .digest('hex')
    .slice(0, 16);
  const cacheRoot = join(tmpdir(), 'persona-lab-e2e-vsix-cache');
  const cached = join(cacheRoot, key);
  if (!existsSync(cached)) {
    mkdirSync(cacheRoot, { recursive: true });
    const staging = mkdtempSync(join(cacheRoot, `${key}.tmp-`));
    const stagingExt = join(staging, 'extensions');
    const stagingData = join(staging, 'user-data');
    await run(
      codeServer.cmd,
      [
        ...codeServer.args,
        ...['--user-data-dir', stagingData, '--extensions-dir', stagingExt, '--install-extension', vsix, '--force'],
      ],
      env,
      60_000,
    );
    rmSync(stagingData, { recursive: true, force: true });
    // extensions.json names each extension by its absolute path: the cache's, once renamed.
    const list = join(stagingExt, 'extensions.json');
    if (existsSync(list))
      writeFileSync(list, readFileSync(list, 'utf8').split(stagingExt).join(join(cached, 'extensions')));
    try {
      renameSync(staging, cached); // another test process may have filled the cache meanwhile: keep theirs
    } catch {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const from = join(cached, 'extensions');
  for (const name of readdirSync(from)) {
    if (name === 'extensions.json') {
      const text = readFileSync(join(from, name), 'utf8');
      writeFileSync(join(extensionsDir, name), text.split(from).join(extensionsDir));
    } else if (name !== '.obsolete') linkTree(join(from, name), join(extensionsDir, name));
  }
}

/** Makes the run's temp folder, installs the .vsix and starts code-server on a free port. */
export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const codeServer = codeServerCommand();
  const dir = mkdtempSync(join(tmpdir(), 'persona-lab-e2e-'));
  const userDataDir = join(dir, 'user-data');
  const extensionsDir = join(dir, 'extensions');
  const home = join(dir, 'home');
  const xdg = ['xdg-config', 'xdg-data', 'xdg-cache', 'tmp'].map((d) => join(dir, d));
  for (const d of [userDataDir, join(userDataDir, 'User'), extensionsDir, home, ...xdg])
    mkdirSync(d, { recursive: true });
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  writeUserSettings(userDataDir, opts);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: xdg[0],
    XDG_DATA_HOME: xdg[1],
    XDG_CACHE_HOME: xdg[2],
    TMPDIR: xdg[3],
    ...opts.env,
  };
  // The extension host and code-server's helpers (terminals, the `code` CLI) find code-server's Node first.
  if (codeServer.pathDir) env.PATH = [codeServer.pathDir, env.PATH].filter(Boolean).join(delimiter);
  // Do not leak the test runner's own settings into the extension host.
  delete env.NODE_OPTIONS;
  delete env.VITEST;
  delete env.VSCODE_IPC_HOOK_CLI;
  const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--config', configFile];

  let server: ChildProcess | undefined;
  let serverOut = '';
  const logStream = createWriteStream(join(dir, 'code-server.log'));
  const stop = async () => {
    const s = server;
    if (s) {
      killGroup(s, 'SIGTERM');
      await waitFor(() => exited(s), { timeout: 5_000, message: 'code-server to exit' }).catch(() =>
        killGroup(s, 'SIGKILL'),
      );
      if (!exited(s)) killGroup(s, 'SIGKILL');
    }
    logStream.end();
    if (process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };

  const stopNow = () => {
    if (server) killGroup(server, 'SIGKILL');
    if (process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  };
  const alive = () => server !== undefined && !exited(server);

  try {
    if (opts.vsix) {
      await installVsix(codeServer, opts.vsix, extensionsDir, env);
      if (opts.extensionMain) replaceMain(extensionsDir, opts.extensionMain);
    }
    // Start code-server; retry on another port if the one we picked got taken in between.
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const args = [
        ...common,
        '--auth',
        'none',
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-getting-started-override',
        '--ignore-last-opened',
        ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
        opts.folder,
      ];
      serverOut = '';
      // cmd is Node itself when pathDir is set; a launcher takes no Node flags.
      const nodeFlags = codeServer.pathDir ? (opts.nodeFlags ?? []) : [];
      const s = spawn(codeServer.cmd, [...nodeFlags, ...codeServer.args, ...args], {
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      server = s;
      const onData = (d: Buffer) => {
        serverOut += d.toString();
        logStream.write(d);
      };
      s.stdout!.on('data', onData);
      s.stderr!.on('data', onData);
      try {
        await waitFor(
          async () => {
            if (exited(s)) throw new Error(`code-server exited:\n${serverOut}`);
            const r = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
            return r?.ok;
          },
          { timeout: 30_000, interval: 100, message: `code-server /healthz on port ${port}` },
        );
        break;
      } catch (e) {
        killGroup(s, 'SIGKILL');
        if (attempt >= 3 || !/EADDRINUSE/.test(serverOut)) throw e;
      }
    }
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(opts.folder)}`;
    return { port, url, dir, userDataDir, extensionsDir, home, env, output: () => serverOut, stop, stopNow, alive };
  } catch (e) {
    const log = serverOut.trim().split('\n').slice(-30).join('\n');
    await stop();
    if (e instanceof Error) e.message += log ? `\n--- code-server output (last lines) ---\n${log}` : '';
    throw e;
  }
}
