// A real VS Code workbench for e2e tests: code-server 4.139.1 (VS Code 1.139.1, on Node 24) with the packaged
// extension, driven by Debian's Chromium through playwright-core. See /work/shared/notes/real-vscode-tests.md.
//
//   const wb = await startWorkbench({ folder: sampleFolder });
//   await wb.openView();                        // the Persona Lab activity bar entry, all its views expanded
//   await wb.runCommand('Persona Lab: Open');   // F1, type, pick the exact row
//   const frame = await wb.findWebviewFrame('#my-root');
//   await wb.screenshot('after-open');          // test-results/e2e/after-open.png
//   await wb.close();
//
// Each startWorkbench() gets its own temp folder (user data, extensions, config, HOME/XDG dirs, Chromium
// profile) and its own port. Prerequisites: `bash scripts/install-code-server.sh [VERSION]` and a packaged .vsix
// (`npm run test:e2e` does both). Nothing here sleeps without a condition: every wait polls.
//
// code-server runs on the Node that the installer wrote into <install>/node-path (Node 24 for 4.139.1, 22 for
// 4.103.2), started as `<that node> <install>/node_modules/code-server/out/node/entry.js` with that Node's bin dir
// first on the child's PATH, whatever Node runs the tests: its extension host is a fork of that same Node.
//
// Environment:
//   PERSONA_LAB_VSIX                 the .vsix to install (default <repo>/persona-lab.vsix)
//   PERSONA_LAB_CODE_SERVER_VERSION  the code-server line (default 4.139.1; 4.103.2 is the Node 22 floor)
//   PERSONA_LAB_CODE_SERVER_DIR      its install folder (default <repo>/.cache/code-server/<VERSION>)
//   PERSONA_LAB_CODE_SERVER          a code-server launcher to run as it is instead (its own Node and PATH)
//   PERSONA_LAB_CHROMIUM     the Chromium binary (default /usr/bin/chromium)
//   PERSONA_LAB_E2E_KEEP=1   keep each run's temp folder (logs, settings) instead of deleting it
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Frame, type Locator, type Page } from 'playwright-core';

/** The Benchmarks view's pane: the Persona Lab container also holds the PI Audit view, whose rows must not count. */
export const BENCHMARKS_PANE = '.part.sidebar .pane:has(.pane-header h3.title:text-is("Benchmarks"))';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const resultsDir = join(repoRoot, 'test-results/e2e');
export const defaultVsix = process.env.PERSONA_LAB_VSIX || join(repoRoot, 'persona-lab.vsix');
export const codeServerVersion = process.env.PERSONA_LAB_CODE_SERVER_VERSION || '4.139.1';
export const codeServerDir = process.env.PERSONA_LAB_CODE_SERVER_DIR || join(repoRoot, '.cache/code-server', codeServerVersion);
export const chromiumBin = process.env.PERSONA_LAB_CHROMIUM || '/usr/bin/chromium';

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

/** Chromium flags: headless in a closed network; without the background-networking ones it floods it with retries. */
export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

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
};

const themes: Record<string, string> = {
  dark: 'Default Dark Modern',
  light: 'Default Light Modern',
  hc: 'Default High Contrast',
  'hc-dark': 'Default High Contrast',
  'hc-light': 'Default High Contrast Light',
};

export interface WorkbenchOptions {
  /** Folder to open as the workspace (must exist). */
  folder: string;
  /** Extra user settings, merged over quietSettings. */
  settings?: Record<string, unknown>;
  /** 'dark' | 'light' | 'hc' | 'hc-light', or a theme's full name. Default: the workbench follows the browser,
   *  which is light in headless Chromium. */
  theme?: string;
  /** The .vsix to install; default PERSONA_LAB_VSIX or <repo>/persona-lab.vsix. `null` installs nothing. */
  vsix?: string | null;
  /** Browser viewport; default 1440x900. */
  viewport?: { width: number; height: number };
  /** true: leave workspace trust on (for tests of trust itself). Default: --disable-workspace-trust. */
  workspaceTrust?: boolean;
  /** Extra environment for code-server and so for the extension host. */
  env?: Record<string, string>;
  /** Timeout for the whole start (ms). Default 120 s. */
  timeout?: number;
}

export interface Workbench {
  page: Page;
  context: BrowserContext;
  browser: Browser;
  /** The workbench URL (with ?folder=). */
  url: string;
  port: number;
  /** The run's temp folder: user-data/, extensions/, home/, code-server.log, ... */
  dir: string;
  userDataDir: string;
  extensionsDir: string;
  /** Console lines of the extension host (`[Extension Host] ...`), in order, as they arrive. */
  extensionHostLog: string[];
  /** All browser console lines and page errors, for diagnostics. */
  consoleLog: string[];
  /** code-server's stdout+stderr so far. */
  serverLog(): string;
  /** The extension host's own log files (exthost.log and the extension's output channels), concatenated. */
  extensionHostFiles(): string;
  /** Save a full-workbench screenshot to test-results/e2e/<name>.png; returns the path. */
  screenshot(name: string): Promise<string>;
  /** The activity bar entry whose label starts with `label`. */
  activityBarItem(label?: string): Locator;
  /** Show the view container `label` in the side bar and expand all its views. */
  openView(label?: string): Promise<void>;
  /** Expand the view titled `title` in the side bar (after openView); returns its pane body. */
  expandView(title: string): Promise<Locator>;
  /** Run a command from the palette by its displayed label, e.g. "Persona Lab: Open Run". */
  runCommand(title: string, opts?: { timeout?: number }): Promise<void>;
  /**
   * Checks (or unchecks) the row `row` of the multi-select quick pick that is open, then puts the focus back in its
   * input box, so that Enter accepts the pick. (From VS Code 1.10x the row's checkbox is a focusable toggle: after a
   * click on it, Enter toggles it back instead of accepting.)
   */
  checkQuickPickRow(row: Locator, checked?: boolean): Promise<void>;
  /** The first frame (webview content) that has `selector`, polled across page.frames(). */
  findWebviewFrame(selector: string, opts?: { timeout?: number }): Promise<Frame>;
  /** Wait until an extension host console line matches; returns the line. */
  waitForExtensionHostLine(match: string | RegExp, opts?: { timeout?: number }): Promise<string>;
  /** Texts of the notification toasts now shown. */
  notifications(): Promise<string[]>;
  /**
   * Leaves the workbench as a new test expects it: quick inputs, dialogs, context menus and notification toasts
   * closed. Called after a failed test (test/e2e/support/afterFailure.ts), so that one failure never blocks the
   * clicks of the tests after it.
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The workbenches started and not yet closed, for the after-failure reset. */
export const openWorkbenches = new Set<Workbench>();

/** Poll `fn` until it returns a truthy value; throws with `message` (and the last error) on timeout. */
export async function waitFor<T>(fn: () => T | Promise<T>, opts: { timeout?: number; interval?: number; message?: string } = {}): Promise<NonNullable<T>> {
  const timeout = opts.timeout ?? 30_000;
  const interval = opts.interval ?? 100;
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message.split('\n')[0]})` : '';
      throw new Error(`timed out after ${timeout} ms waiting for ${opts.message ?? 'a condition'}${why}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
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

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'screenshot';
}

/** Run a command to completion, capturing its output; rejects on a non-zero exit. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeout: number): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', (e) => { clearTimeout(timer); rej(e); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) res(out);
      else rej(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}:\n${out}`));
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // the group that spawn({detached:true}) made: code-server and its children
  } catch {
    try { child.kill(signal); } catch { /* gone */ }
  }
}

export async function startWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const timeout = opts.timeout ?? 120_000;
  const folder = resolve(opts.folder);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`workspace folder ${folder} does not exist`);
  const codeServer = codeServerCommand();
  const vsix = opts.vsix === undefined ? defaultVsix : opts.vsix;
  if (vsix && !existsSync(vsix)) throw new Error(`${vsix} not found: run \`npm run build && node scripts/package.mjs\``);
  if (!existsSync(chromiumBin)) throw new Error(`Chromium not found at ${chromiumBin} (apt-get install chromium)`);

  const dir = mkdtempSync(join(tmpdir(), 'persona-lab-e2e-'));
  const userDataDir = join(dir, 'user-data');
  const extensionsDir = join(dir, 'extensions');
  const home = join(dir, 'home');
  for (const d of [userDataDir, join(userDataDir, 'User'), extensionsDir, home, join(dir, 'xdg-config'), join(dir, 'xdg-data'), join(dir, 'xdg-cache'), join(dir, 'tmp')]) {
    mkdirSync(d, { recursive: true });
  }
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  const settings: Record<string, unknown> = { ...quietSettings, ...opts.settings };
  if (opts.theme) settings['workbench.colorTheme'] = themes[opts.theme] ?? opts.theme;
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CACHE_HOME: join(dir, 'xdg-cache'),
    TMPDIR: join(dir, 'tmp'),
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
  let browser: Browser | undefined;
  let serverOut = '';
  const logStream = createWriteStream(join(dir, 'code-server.log'));
  const cleanup = async () => {
    await browser?.close().catch(() => {});
    if (server) {
      const s = server;
      killGroup(s, 'SIGTERM');
      await waitFor(() => s.exitCode !== null || s.signalCode !== null, { timeout: 5_000, message: 'code-server to exit' })
        .catch(() => killGroup(s, 'SIGKILL'));
    }
    logStream.end();
    if (process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    if (vsix) await run(codeServer.cmd, [...codeServer.args, ...common, '--install-extension', vsix, '--force'], env, 60_000);

    // Start code-server; retry on another port if the one we picked got taken in between.
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const args = [
        ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry',
        '--disable-update-check', '--disable-getting-started-override', '--ignore-last-opened',
        ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']), folder,
      ];
      serverOut = '';
      const s = spawn(codeServer.cmd, [...codeServer.args, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      server = s;
      const onData = (d: Buffer) => { serverOut += d.toString(); logStream.write(d); };
      s.stdout!.on('data', onData);
      s.stderr!.on('data', onData);
      try {
        await waitFor(async () => {
          if (s.exitCode !== null || s.signalCode !== null) throw new Error(`code-server exited:\n${serverOut}`);
          const r = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
          return r?.ok;
        }, { timeout: 30_000, interval: 100, message: `code-server /healthz on port ${port}` });
        break;
      } catch (e) {
        killGroup(s, 'SIGKILL');
        if (attempt >= 3 || !/EADDRINUSE/.test(serverOut)) throw e;
      }
    }

    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`;
    browser = await chromium.launch({
      executablePath: chromiumBin,
      headless: true,
      args: chromiumArgs,
      env: { ...env, HOME: home } as Record<string, string>,
      timeout: 60_000,
    });
    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1440, height: 900 } });
    const page = await context.newPage();
    const extensionHostLog: string[] = [];
    const consoleLog: string[] = [];
    page.on('console', (msg) => {
      const text = msg.text();
      consoleLog.push(`[${msg.type()}] ${text}`);
      // The workbench logs them as "%c[Extension Host] %c<message> color: blue color: " (CSS-styled).
      if (text.includes('[Extension Host]')) {
        extensionHostLog.push(text.replace(/%c/g, '').replace(/\s*color: blue color: *$/, '').trim());
      }
    });
    page.on('pageerror', (err) => consoleLog.push(`[pageerror] ${err.message}`));
    await page.goto(url, { timeout });
    await page.locator('.monaco-workbench').waitFor({ state: 'attached', timeout });
    await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout });

    const srv = server!;
    const wb: Workbench = {
      page, context, browser, url, port, dir, userDataDir, extensionsDir, extensionHostLog, consoleLog,
      serverLog: () => serverOut,
      extensionHostFiles: () => readLogs(join(userDataDir, 'logs')),
      async screenshot(name) {
        mkdirSync(resultsDir, { recursive: true });
        const path = join(resultsDir, `${safeName(name)}.png`);
        await page.screenshot({ path });
        return path;
      },
      activityBarItem(label = 'Persona Lab') {
        return page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${cssString(label)}"]`).first();
      },
      async openView(label = 'Persona Lab') {
        const item = wb.activityBarItem(label);
        await item.waitFor({ state: 'visible', timeout: 60_000 });
        // Clicking the entry while its container is shown hides the side bar, and right after a window reload the
        // workbench may still be restoring it: click only while the visible side bar shows something else (or
        // nothing), and look again after the UI settled. A hidden side bar keeps its title in the DOM.
        await waitFor(async () => {
          const sidebar = page.locator('.part.sidebar');
          const visible = await sidebar.isVisible().catch(() => false);
          const title = visible ? await sidebar.locator('.composite.title').innerText().catch(() => '') : '';
          if (title.toLowerCase().includes(label.toLowerCase())) return true;
          await item.click();
          return false;
        }, { timeout: 30_000, interval: 1_000, message: `the side bar to show ${label}` });
        // Expand every collapsed view of the container (a container with a single view has no pane header).
        await waitFor(async () => {
          const collapsed = page.locator('.part.sidebar .pane-header[aria-expanded="false"]');
          const n = await collapsed.count();
          if (n === 0) return true;
          await collapsed.first().click();
          return false;
        }, { timeout: 30_000, message: `the views of ${label} to expand` });
      },
      async expandView(title) {
        const pane = page.locator('.part.sidebar .pane').filter({ has: page.locator(`.pane-header[aria-label^="${cssString(title)}"], .pane-header .title:text-is("${cssString(title)}")`) }).first();
        await pane.waitFor({ state: 'visible', timeout: 30_000 });
        const header = pane.locator('.pane-header').first();
        await waitFor(async () => {
          if ((await header.getAttribute('aria-expanded')) === 'true') return true;
          await header.click();
          return false;
        }, { timeout: 15_000, message: `view ${title} to expand` });
        return pane.locator('.pane-body');
      },
      async runCommand(title, o = {}) {
        const t = o.timeout ?? 30_000;
        const input = page.locator('.quick-input-widget input.input');
        await waitFor(async () => {
          if (await input.isVisible()) return true;
          await page.keyboard.press('F1');
          await input.waitFor({ state: 'visible', timeout: 2_000 });
          return true;
        }, { timeout: t, message: 'the command palette to open' });
        await input.fill(`>${title}`);
        // Pick the row whose label is exactly the title, not whatever fuzzy match comes first.
        const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({
          has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }),
        }).first();
        await row.waitFor({ state: 'visible', timeout: t }).catch(async () => {
          const shown = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').allInnerTexts().catch(() => []);
          await page.keyboard.press('Escape');
          throw new Error(`command "${title}" not in the palette; rows shown: ${JSON.stringify(shown)}`);
        });
        await row.click();
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: t });
      },
      async checkQuickPickRow(row, checked = true) {
        await row.waitFor({ state: 'visible', timeout: 30_000 });
        const box = row.locator('.monaco-checkbox, input[type="checkbox"], .quick-input-list-checkbox').first();
        const state = async () => {
          const aria = (await row.getAttribute('aria-checked')) ?? (await box.getAttribute('aria-checked'));
          return aria !== null ? aria === 'true' : box.isChecked();
        };
        await waitFor(async () => {
          if ((await state()) === checked) return true;
          await box.click({ timeout: 2_000 });
          return false;
        }, { timeout: 15_000, interval: 250, message: `the quick pick row to be ${checked ? 'checked' : 'unchecked'}` });
        await page.locator('.quick-input-widget input.input').focus();
      },
      async findWebviewFrame(selector, o = {}) {
        return waitFor(async () => {
          for (const frame of page.frames()) {
            if (frame === page.mainFrame() || frame.isDetached()) continue;
            const found = await frame.$(selector).catch(() => null);
            if (found) return frame;
          }
          return undefined;
        }, { timeout: o.timeout ?? 30_000, message: `a webview frame with ${selector}` });
      },
      waitForExtensionHostLine(match, o = {}) {
        const test = (l: string) => (typeof match === 'string' ? l.includes(match) : match.test(l));
        return waitFor(() => extensionHostLog.find(test), {
          timeout: o.timeout ?? 30_000, message: `an [Extension Host] line matching ${String(match)}`,
        });
      },
      async notifications() {
        return page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
      },
      async reset() {
        const open = '.quick-input-widget:visible, .monaco-dialog-box:visible, .context-view .monaco-menu:visible';
        await waitFor(async () => {
          if ((await page.locator(open).count()) === 0) return true;
          await page.keyboard.press('Escape');
          return false;
        }, { timeout: 10_000, interval: 200, message: 'quick inputs, dialogs and menus to close' });
        // Each toast has its own close button ("Clear Notification"); the notification centre stays as it is.
        await waitFor(async () => {
          const close = page.locator('.notification-toast .codicon-notifications-clear');
          if ((await close.count()) === 0) return true;
          await close.first().click({ timeout: 2_000 }).catch(() => undefined);
          return false;
        }, { timeout: 10_000, interval: 200, message: 'notification toasts to close' });
      },
      async close() {
        openWorkbenches.delete(wb);
        await cleanup();
        if (srv.exitCode === null && srv.signalCode === null) killGroup(srv, 'SIGKILL');
      },
    };
    openWorkbenches.add(wb);
    return wb;
  } catch (e) {
    const log = serverOut.trim().split('\n').slice(-30).join('\n');
    await cleanup();
    if (e instanceof Error) e.message += log ? `\n--- code-server output (last lines) ---\n${log}` : '';
    throw e;
  }
}

function readLogs(dir: string): string {
  if (!existsSync(dir)) return '';
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.log')) out.push(`--- ${p.slice(dir.length + 1)}\n${readFileSync(p, 'utf8')}`);
    }
  };
  walk(dir);
  return out.join('\n');
}

function cssString(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
