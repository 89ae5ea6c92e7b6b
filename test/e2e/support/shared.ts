// One code-server and one Chromium per test process, lent to one workbench at a time. Starting them (and installing
// the .vsix) is most of a file's fixed cost; the e2e config runs every file in one process (isolate: false), so the
// files that take the common options share them. Each borrower gets:
//   - a new browser context (empty browser storage: the workbench's UI state, open editors and panels, and the
//     extension's globalState, workspaceState and secrets start empty; its own viewport),
//   - the page at its own folder (?folder=), so a new window and a new extension host,
//   - user data reset before it (settings.json rewritten with its settings and theme; globalStorage and
//     workspaceStorage removed), once the previous borrower's extension host has exited.
// The log channel of the new extension host is its own file (exthost<N>): Workbench reads only the files made after
// it was lent (LogChannelTail.skipExisting).
//
// A fresh code-server is still started where a test needs what a shared one cannot give: workspace trust on, its own
// environment for the extension host, a replaced extension bundle, another .vsix, or a second window at the same time
// (while the shared one is lent). PERSONA_LAB_E2E_FRESH=1 gives every workbench its own, as before.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium, watchConsole, type BrowserPage } from './browser';
import { processesWith, SHARED_REGISTRY } from './globalSetup';
import { resetUserData, startCodeServer, type CodeServer } from './server';
import { waitFor } from './wait';

export interface SharedOptions {
  folder: string;
  settings?: Record<string, unknown>;
  theme?: string;
  viewport: { width: number; height: number };
}

interface Shared {
  server: CodeServer;
  browser: Browser;
  lent: boolean;
}

let shared: Shared | undefined;

/** Why a workbench with these options needs its own code-server, or undefined when it can use the shared one. */
export function needsOwnServer(opts: {
  workspaceTrust?: boolean;
  env?: Record<string, string>;
  nodeFlags?: string[];
  extensionMain?: string;
  vsix?: string | null;
}): string | undefined {
  if (process.env.PERSONA_LAB_E2E_FRESH === '1') return 'PERSONA_LAB_E2E_FRESH=1';
  if (opts.workspaceTrust) return 'workspace trust on';
  if (opts.env && Object.keys(opts.env).length) return 'its own extension host environment';
  if (opts.nodeFlags?.length) return 'its own Node flags';
  if (opts.extensionMain) return 'a replaced extension bundle';
  if (opts.vsix !== undefined) return 'another .vsix';
  if (shared?.lent) return 'a second window';
  return undefined;
}

async function startShared(opts: SharedOptions, vsix: string): Promise<Shared> {
  const server = await startCodeServer({ ...opts, vsix });
  try {
    const browser = await launchChromium({ ...server.env, HOME: server.home });
    process.once('exit', () => server.stopNow()); // Chromium is ended by playwright's own exit hook
    registerForTeardown(server);
    return { server, browser, lent: false };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** The shared code-server, reset for `opts`, and a new page on it; `release` gives them back. */
export async function borrow(
  opts: SharedOptions,
  vsix: string,
): Promise<{ server: CodeServer; url: string; bp: BrowserPage; release(): Promise<void> }> {
  if (shared && !shared.server.alive()) {
    await shared.browser.close().catch(() => undefined);
    await shared.server.stop();
    shared = undefined;
  }
  if (!shared) shared = await startShared(opts, vsix);
  else resetUserData(shared.server.userDataDir, opts);
  const s = shared;
  s.lent = true;
  try {
    const context = await s.browser.newContext({ viewport: opts.viewport });
    const page = await context.newPage();
    const url = `http://127.0.0.1:${s.server.port}/?folder=${encodeURIComponent(opts.folder)}`;
    // The whole context is closed, not only the page: a closed page's renderer process otherwise stays (~200 MB).
    const release = async () => {
      await context.close().catch(() => undefined);
      await extensionHostsGone(s.server.dir);
      s.lent = false;
    };
    const bp = { browser: s.browser, context, page, ...watchConsole(page) };
    return { server: s.server, url, bp, release };
  } catch (e) {
    s.lent = false;
    throw e;
  }
}

/** Writes the shared code-server's run folder where the global teardown (globalSetup.ts) finds it. */
function registerForTeardown(server: CodeServer): void {
  const registry = process.env[SHARED_REGISTRY];
  if (registry && existsSync(registry)) writeFileSync(join(registry, `${process.pid}`), server.dir);
}

const extensionHosts = (runDir: string) => processesWith(runDir, 'extensionHost');

/**
 * Waits until the closed window's extension host has exited, so that it writes nothing into the next borrower's
 * user data; one still running after 15 s is killed.
 */
async function extensionHostsGone(runDir: string): Promise<void> {
  await waitFor(() => extensionHosts(runDir).length === 0, {
    timeout: 15_000,
    message: 'the closed window’s extension host to exit',
  }).catch(() => {
    for (const pid of extensionHosts(runDir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // it exited meanwhile
      }
    }
  });
}
