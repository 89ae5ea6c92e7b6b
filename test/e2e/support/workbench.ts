// A real VS Code workbench for e2e tests: code-server (server.ts) with the packaged extension, driven by Chromium
// (browser.ts). docs/development.md ("Tests") says how code-server and Chromium are installed and started here.
//
//   const wb = await startWorkbench({ folder: sampleFolder });
//   await wb.openView();                        // the Persona Lab activity bar entry, all its views expanded
//   await wb.runCommand('Persona Lab: Open');   // F1, type, pick the exact row
//   const frame = await wb.findWebviewFrame('#my-root');
//   await wb.waitForExtensionHostLine(/loaded .*: \d+ users/);  // a line of the "Persona Lab" log channel
//   await wb.screenshot('after-open');          // test-results/e2e/after-open.png
//   await wb.close();
//
// Each startWorkbench() gets its own window (browser context) on its own folder and settings; the code-server and
// Chromium under it are shared with the other files of the test process where the options allow (shared.ts says
// what is reset between them and which options need their own). Prerequisites: `bash scripts/install-code-server.sh [VERSION]` and a packaged .vsix
// (`npm run test:e2e` does both). Nothing here sleeps without a condition: every wait polls.
//
// Environment:
//   PERSONA_LAB_VSIX                 the .vsix to install (default <repo>/persona-lab.vsix)
//   PERSONA_LAB_CODE_SERVER_VERSION  the code-server line (default 4.139.1; 4.103.2 is the Node 22 floor)
//   PERSONA_LAB_CODE_SERVER_DIR      its install folder (default <repo>/.cache/code-server/<VERSION>)
//   PERSONA_LAB_CODE_SERVER          a code-server launcher to run as it is instead (its own Node and PATH)
//   PERSONA_LAB_CHROMIUM     the Chromium binary (default /usr/bin/chromium)
//   PERSONA_LAB_E2E_KEEP=1   keep each run's temp folder (logs, settings) instead of deleting it
//   PERSONA_LAB_E2E_FRESH=1  give every workbench its own code-server and Chromium (nothing shared)
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Frame, Locator, Page } from 'playwright-core';
import { checkChromium, launchBrowser, type BrowserPage } from './browser';
import { EditorPart } from './editor';
import { extensionId, LogChannelTail } from './logChannel';
import { ContextMenu, Dialog, hover, Notifications, Panel, StatusBar, WalkthroughPage } from './parts';
import { QuickInput } from './quickInput';
import { codeServerCommand, defaultVsix, repoRoot, resultsDir, startCodeServer, type CodeServer } from './server';
import { borrow, needsOwnServer } from './shared';
import { SideBar } from './sideBar';
import { waitFor } from './wait';

/** The extension's LogOutputChannel (src/extension/log.ts). */
export const LOG_CHANNEL = 'Persona Lab';

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
  /** Node flags for code-server and so for its extension host (server.ts). */
  nodeFlags?: string[];
  /** Timeout for the whole start (ms). Default 120 s. */
  timeout?: number;
  /** A bundle in place of the installed extension's dist/extension.js (server.ts). */
  extensionMain?: string;
}

/** The workbenches started and not yet closed, for the after-failure reset (afterFailure.ts). */
export const openWorkbenches = new Set<Workbench>();

export async function startWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const timeout = opts.timeout ?? 120_000;
  const folder = resolve(opts.folder);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new Error(`workspace folder ${folder} does not exist`);
  codeServerCommand(); // throws when code-server is not installed, before anything is made
  const vsix = opts.vsix === undefined ? defaultVsix : opts.vsix;
  if (vsix && !existsSync(vsix))
    throw new Error(`${vsix} not found: run \`npm run build && node scripts/package.mjs\``);
  checkChromium();
  const viewport = opts.viewport ?? { width: 1440, height: 900 };

  if (vsix && !needsOwnServer(opts)) {
    const lent = await borrow({ ...opts, folder, viewport }, vsix);
    try {
      await openWorkbenchPage(lent.bp.page, lent.url, timeout);
    } catch (e) {
      await lent.release();
      throw e;
    }
    const wb = new Workbench(lent.server, lent.bp, lent);
    openWorkbenches.add(wb);
    return wb;
  }

  const server = await startCodeServer({ ...opts, folder, vsix });
  let browser: Browser | undefined;
  try {
    const bp = await launchBrowser({ ...server.env, HOME: server.home }, viewport, (b) => (browser = b));
    await openWorkbenchPage(bp.page, server.url, timeout);
    const wb = new Workbench(server, bp);
    openWorkbenches.add(wb);
    return wb;
  } catch (e) {
    const log = server.output().trim().split('\n').slice(-30).join('\n');
    await browser?.close().catch(() => {});
    await server.stop();
    if (e instanceof Error) e.message += log ? `\n--- code-server output (last lines) ---\n${log}` : '';
    throw e;
  }
}

async function openWorkbenchPage(page: Page, url: string, timeout: number): Promise<void> {
  await page.goto(url, { timeout });
  await page.locator('.monaco-workbench').waitFor({ state: 'attached', timeout });
  await page.locator('.part.activitybar').waitFor({ state: 'visible', timeout });
}

export class Workbench {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly browser: Browser;
  /** The workbench URL (with ?folder=). */
  readonly url: string;
  readonly port: number;
  /** The run's temp folder: user-data/, extensions/, home/, code-server.log, ... */
  readonly dir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** Console lines of the extension host (`[Extension Host] ...`), in order, as the workbench relays them. */
  readonly extensionHostLog: string[];
  /** All browser console lines and page errors, for diagnostics. */
  readonly consoleLog: string[];
  /** The command palette, quick picks and input boxes (the quick input methods below delegate to it). */
  readonly quick: QuickInput;
  /** The editor part: the active editor, typing into it, Go to Line. */
  readonly editor: EditorPart;
  /** The side bar: its views, their headers and tree rows (`wb.sideBar.benchmarks` is the Benchmarks view). */
  readonly sideBar: SideBar;
  /** The modal dialog. */
  readonly dialog: Dialog;
  /** The context menu. */
  readonly menu: ContextMenu;
  readonly statusBar: StatusBar;
  /** The panel (Problems). */
  readonly panel: Panel;
  /** Notification toasts. */
  readonly notes: Notifications;
  /** A walkthrough's Getting Started page. */
  readonly walkthrough: WalkthroughPage;
  private readonly channel: LogChannelTail;

  /**
   * `lent`: the code-server and Chromium are shared (shared.ts): the window opens at `lent.url`, reads only the log
   * files made from now on, and close() gives them back instead of stopping them.
   */
  constructor(
    private readonly server: CodeServer,
    bp: BrowserPage,
    private readonly lent?: { url: string; release(): Promise<void> },
  ) {
    ({ page: this.page, context: this.context, browser: this.browser } = bp);
    ({ extensionHostLog: this.extensionHostLog, consoleLog: this.consoleLog } = bp);
    ({ port: this.port, dir: this.dir, userDataDir: this.userDataDir } = server);
    this.url = lent?.url ?? server.url;
    this.extensionsDir = server.extensionsDir;
    this.quick = new QuickInput(this.page);
    this.editor = new EditorPart(this.page, this.quick);
    this.sideBar = new SideBar(this.page);
    this.dialog = new Dialog(this.page);
    this.menu = new ContextMenu(this.page);
    this.statusBar = new StatusBar(this.page);
    this.panel = new Panel(this.page);
    this.notes = new Notifications(this.page);
    this.walkthrough = new WalkthroughPage(this.page);
    this.channel = new LogChannelTail(join(this.userDataDir, 'logs'), extensionId(repoRoot), LOG_CHANNEL);
    if (lent) this.channel.skipExisting();
  }

  /** code-server's stdout+stderr so far. */
  serverLog(): string {
    return this.server.output();
  }

  /** The extension host's own log files (exthost.log and the extensions' output channels), concatenated. */
  extensionHostFiles(): string {
    return readLogs(join(this.userDataDir, 'logs'));
  }

  /** The entries of the extension's "Persona Lab" log channel so far ("<date> <time> [info] <message>"). */
  logLines(): string[] {
    return this.channel.lines();
  }

  /** Waits until an entry of the "Persona Lab" log channel matches; returns the entry. */
  waitForExtensionHostLine(match: string | RegExp, opts: { timeout?: number } = {}): Promise<string> {
    const test = (l: string) => (typeof match === 'string' ? l.includes(match) : match.test(l));
    return waitFor(() => this.logLines().find(test), {
      timeout: opts.timeout ?? 30_000,
      message: () => {
        const lines = this.logLines();
        const shown = lines.slice(-30).join('\n');
        return `a "${LOG_CHANNEL}" log line matching ${String(match)}; its last ${Math.min(30, lines.length)} of ${lines.length} line(s):\n${shown}`;
      },
    });
  }

  /**
   * Gives the keyboard to the editor of the tab named `tab` (a draft beside a webview): a webview can take the focus
   * back late (after it redraws), so the tab is clicked and its group focused until its editor has the keyboard.
   */
  async focusEditorTab(tab: string): Promise<void> {
    const focused = this.editor.focusedActive();
    await waitFor(
      async () => {
        if (await focused.isVisible()) return true;
        await this.editor.tab(tab).click();
        await this.runCommand('View: Focus Active Editor Group');
        return focused.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        );
      },
      { message: `the editor of ${tab} to have the keyboard` },
    );
  }

  /** See EditorPart.type: types into the active editor once it has the focus, and waits until it shows the text. */
  typeInEditor(text: string): Promise<void> {
    return this.editor.type(text);
  }

  /** Save a full-workbench screenshot to test-results/e2e/<name>.png; returns the path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(resultsDir, { recursive: true });
    const path = join(resultsDir, `${safeName(name)}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /** The activity bar entry whose label starts with `label`. */
  activityBarItem(label = 'Persona Lab'): Locator {
    return this.page
      .locator(`.part.activitybar .action-item a.action-label[aria-label^="${cssString(label)}"]`)
      .first();
  }

  /** The aria-labels of the activity bar's entries, in order. */
  activityBarLabels(): Promise<(string | null)[]> {
    return this.page
      .locator('.part.activitybar .action-item a.action-label')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  }

  /** Show the view container `label` in the side bar and expand all its views. */
  async openView(label = 'Persona Lab'): Promise<void> {
    const page = this.page;
    const item = this.activityBarItem(label);
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    // Clicking the entry while its container is shown hides the side bar, and right after a window reload the
    // workbench may still be restoring it: click only while the visible side bar shows something else (or
    // nothing), and look again after the UI settled. A hidden side bar keeps its title in the DOM.
    await waitFor(
      async () => {
        const sidebar = page.locator('.part.sidebar');
        const visible = await sidebar.isVisible().catch(() => false);
        const title = visible
          ? await sidebar
              .locator('.composite.title')
              .innerText()
              .catch(() => '')
          : '';
        if (title.toLowerCase().includes(label.toLowerCase())) return true;
        await item.click();
        return false;
      },
      { timeout: 30_000, interval: 1_000, message: `the side bar to show ${label}` },
    );
    // Expand every collapsed view of the container (a container with a single view has no pane header).
    await waitFor(
      async () => {
        const collapsed = page.locator('.part.sidebar .pane-header[aria-expanded="false"]');
        const n = await collapsed.count();
        if (n === 0) return true;
        await collapsed.first().click();
        return false;
      },
      { timeout: 30_000, message: `the views of ${label} to expand` },
    );
  }

  /**
   * Shows the container `label` with only the view `title` expanded, every other view of it collapsed, so that a test
   * reading that view's rows does not depend on how much room the other views leave it (welcome buttons, a long
   * tree). Returns the view's pane body.
   */
  async showOnlyView(title: string, label = 'Persona Lab'): Promise<Locator> {
    await this.openView(label);
    const page = this.page;
    const isTitle = (t: string) => t.trim() === title;
    await waitFor(
      async () => {
        const headers = page.locator('.part.sidebar .pane-header');
        const n = await headers.count();
        let settled = true;
        for (let i = 0; i < n; i++) {
          const h = headers.nth(i);
          const name = (await h.locator('.title').first().textContent()) ?? '';
          const want = isTitle(name) ? 'true' : 'false';
          if ((await h.getAttribute('aria-expanded')) !== want) {
            await h.click();
            settled = false;
          }
        }
        return settled;
      },
      { timeout: 30_000, message: `only the ${title} view of ${label} to be expanded` },
    );
    return this.expandView(title);
  }

  /** Expand the view titled `title` in the side bar (after openView); returns its pane body. */
  async expandView(title: string): Promise<Locator> {
    const page = this.page;
    const header = `.pane-header[aria-label^="${cssString(title)}"], .pane-header .title:text-is("${cssString(title)}")`;
    const pane = page
      .locator('.part.sidebar .pane')
      .filter({ has: page.locator(header) })
      .first();
    await pane.waitFor({ state: 'visible', timeout: 30_000 });
    const paneHeader = pane.locator('.pane-header').first();
    await waitFor(
      async () => {
        if ((await paneHeader.getAttribute('aria-expanded')) === 'true') return true;
        await paneHeader.click();
        return false;
      },
      { timeout: 15_000, message: `view ${title} to expand` },
    );
    return pane.locator('.pane-body');
  }

  /** The quick input widget (command palette, quick picks, input boxes). */
  get quickInput(): Locator {
    return this.quick.widget;
  }

  /** See QuickInput.row. */
  quickPickRow(label: string | RegExp): Locator {
    return this.quick.row(label);
  }

  /** See QuickInput.pickRow. */
  pickQuickPickRow(filter: string, label: string, opts: { timeout?: number } = {}): Promise<void> {
    return this.quick.pickRow(filter, label, opts);
  }

  /** See QuickInput.parkFocus (why the focus is parked before the palette opens). */
  parkFocus(): Promise<void> {
    return this.quick.parkFocus();
  }

  /** See QuickInput.openPalette. */
  openPalette(timeout = 30_000): Promise<Locator> {
    return this.quick.openPalette(timeout);
  }

  /** See QuickInput.startCommand. */
  startCommand(title: string, opts: { timeout?: number } = {}): Promise<void> {
    return this.quick.startCommand(title, opts);
  }

  /** See QuickInput.runWithPicks. */
  runWithPicks(command: string, picks: string[], opts: { timeout?: number } = {}): Promise<void> {
    return this.quick.runWithPicks(command, picks, opts);
  }

  /** See QuickInput.runCommand. */
  runCommand(title: string, opts: { timeout?: number } = {}): Promise<void> {
    return this.quick.runCommand(title, opts);
  }

  /** See QuickInput.checkRow. */
  checkQuickPickRow(row: Locator, checked = true): Promise<void> {
    return this.quick.checkRow(row, checked);
  }

  /** The first frame (webview content) that has `selector`, polled across page.frames(). */
  findWebviewFrame(selector: string, opts: { timeout?: number } = {}): Promise<Frame> {
    return waitFor(
      async () => {
        for (const frame of this.page.frames()) {
          if (frame === this.page.mainFrame() || frame.isDetached()) continue;
          const found = await frame.$(selector).catch(() => null);
          if (found) return frame;
        }
        return undefined;
      },
      { timeout: opts.timeout ?? 30_000, message: `a webview frame with ${selector}` },
    );
  }

  /** Texts of the notification toasts now shown. */
  notifications(): Promise<string[]> {
    return this.notes.texts();
  }

  /** The notification toasts (those whose text matches `text`). */
  toasts(text?: string | RegExp): Locator {
    return this.notes.toasts(text);
  }

  /** See parts.ts hover: the hover now shown whose text matches `text`. */
  hover(text: string | RegExp): Locator {
    return hover(this.page, text);
  }

  /** The workbench's root element (`cls`: only while it has that class, e.g. a theme's "vs-dark"). */
  root(cls?: string): Locator {
    return this.page.locator(cls === undefined ? '.monaco-workbench' : `.monaco-workbench.${cls}`);
  }

  /** Waits until the workbench's root is in the page again (after a reload). */
  async waitForWorkbench(timeout = 60_000): Promise<void> {
    await this.root().waitFor({ state: 'attached', timeout });
  }

  /** The secondary side bar (the auxiliary bar). */
  secondarySideBar(): Locator {
    return this.page.locator('.part.auxiliarybar');
  }

  /** Shows the secondary side bar (toggled only while it is hidden) and returns it once visible. */
  async openSecondarySideBar(): Promise<Locator> {
    const bar = this.secondarySideBar();
    if (!(await bar.isVisible())) await this.runCommand('View: Toggle Secondary Side Bar Visibility');
    await bar.waitFor({ state: 'visible', timeout: 30_000 });
    return bar;
  }

  /**
   * Leaves the workbench as a new test expects it: quick inputs, dialogs, context menus and notification toasts
   * closed. Called after a failed test (afterFailure.ts), so that one failure never blocks the clicks of the tests
   * after it.
   */
  async reset(): Promise<void> {
    const page = this.page;
    const open = '.quick-input-widget:visible, .monaco-dialog-box:visible, .context-view .monaco-menu:visible';
    await waitFor(
      async () => {
        if ((await page.locator(open).count()) === 0) return true;
        await page.keyboard.press('Escape');
        return false;
      },
      { timeout: 10_000, interval: 200, message: 'quick inputs, dialogs and menus to close' },
    );
    // Each toast has its own close button ("Clear Notification"); the notification centre stays as it is.
    await waitFor(
      async () => {
        const close = this.notes.closeButtons();
        if ((await close.count()) === 0) return true;
        await close
          .first()
          .click({ timeout: 2_000 })
          .catch(() => undefined);
        return false;
      },
      { timeout: 10_000, interval: 200, message: 'notification toasts to close' },
    );
  }

  async close(): Promise<void> {
    openWorkbenches.delete(this);
    if (this.lent) return this.lent.release();
    await this.browser.close().catch(() => {});
    await this.server.stop();
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

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'screenshot';
}

function cssString(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}
