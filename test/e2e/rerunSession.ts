// A workbench on a fresh copy of sample/ whose endpoint settings point at a scripted server of this process, and
// the quick-input steps the re-run tests drive (palette, Open Step, Re-run Step's picks).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { loadBenchmark } from '../../src/core/spb/format/load';
import type { Benchmark, Run, Step, User } from '../../src/core/spb/types';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { labelled } from './support/sideBar';

export const KEY = 'sk-e2e-SECRET-0123456789abcdef';

/** The step view's Re-run section starts collapsed until it has an attempt: a click on its heading opens it. */
export async function openRerunSection(frame: Frame): Promise<void> {
  const section = frame.locator('vscode-collapsible[data-section="rerun"]');
  const isOpen = () => section.evaluate((e) => (e as HTMLElement & { open: boolean }).open);
  if (!(await isOpen())) await section.click({ position: { x: 40, y: 10 } });
  await waitFor(isOpen, { message: 'the Re-run section to open' });
}
export const MODEL = 'scripted-model';

export interface Session {
  wb: Workbench;
  server: ScriptedServer;
  /** the workspace: a copy of sample/ */
  ws: string;
  /** sample/ as loaded by the core, and the run the extension selects on a fresh workspace */
  bench: Benchmark;
  run: Run;
  close(): Promise<void>;
}

/**
 * `settings`: extra user settings, over the endpoint's. `prepare` edits the workspace copy before the workbench
 * opens it; `bench` stays sample/ as loaded.
 */
export async function startSession(
  prefix: string,
  settings: Record<string, unknown> = {},
  prepare?: (ws: string, bench: Benchmark, run: Run) => void,
): Promise<Session> {
  const sample = join(repoRoot, 'sample');
  const bench = await loadBenchmark(sample);
  const run = bench.runs.get([...bench.runs.keys()][0])!;
  const ws = mkdtempSync(join(tmpdir(), prefix));
  cpSync(sample, ws, { recursive: true });
  prepare?.(ws, bench, run);
  const server = await startScriptedServer();
  const wb = await startWorkbench({
    folder: ws,
    theme: 'dark',
    viewport: { width: 1600, height: 1000 },
    settings: { 'personaLab.endpoint.baseURL': server.baseURL, 'personaLab.endpoint.model': MODEL, ...settings },
  });
  await wb.openView('Persona Lab');
  await waitFor(() => wb.sideBar.rows().count(), {
    timeout: 60_000,
    message: 'the benchmark tree',
  });
  return {
    wb,
    server,
    ws,
    bench,
    run,
    async close() {
      await wb.close();
      await server.close();
      if (process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(ws, { recursive: true, force: true });
    },
  };
}

const exact = (label: string) => new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

export interface Ui {
  widget(): Locator;
  input(): Locator;
  /** the quick pick row whose label is `label` (a string matches exactly) */
  row(label: string | RegExp): Locator;
  /** waits for a quick input whose title contains `text` */
  title(text: string): Promise<void>;
  /** runs a palette command whose own quick pick or input box follows (the widget never hides in between) */
  palette(command: string): Promise<void>;
  /** Persona Lab: Open Step, user then step; resolves to the step view's frame */
  openStep(user: User, step: Step): Promise<Frame>;
  /** answers Re-run Step's two quick picks */
  answerRerun(template: string | RegExp, persona: RegExp): Promise<void>;
  /** waits until attempt `id` is shown beside the original; resolves to the step view's frame */
  compared(id: number): Promise<Frame>;
  /** clicks a context menu item until the quick input with `nextTitle` shows (the menu can swallow early clicks) */
  contextMenu(target: Locator, item: string, nextTitle: string): Promise<void>;
  /** waits until no benchmark reload has run for a moment (runs write results, and each write reloads) */
  settled(): Promise<void>;
}

export function ui(wb: Workbench): Ui {
  const widget = () => wb.quickInput;
  const input = () => wb.quick.input();
  const row = (label: string | RegExp) =>
    wb.quick
      .rows()
      .filter({ has: labelled(wb.page, typeof label === 'string' ? exact(label) : label) })
      .first();
  const title = (text: string) => wb.quick.title(text).waitFor({ timeout: 30_000 });
  const self: Ui = {
    widget,
    input,
    row,
    title,
    async palette(command) {
      if (await input().isVisible()) {
        await wb.quick.press('Escape');
        await input().waitFor({ state: 'hidden', timeout: 10_000 });
      }
      await wb.startCommand(command);
    },
    async openStep(user, step) {
      await self.palette('Persona Lab: Open Step');
      await title('Open Step (1/2)');
      await wb.pickQuickPickRow(user.userId, user.userId);
      await title('Open Step (2/2)');
      await wb.pickQuickPickRow(`step ${step.stepId}/${step.totalSteps}`, `step ${step.stepId}/${step.totalSteps}`);
      await widget().waitFor({ state: 'hidden' });
      return wb.findWebviewFrame(`#step-root[data-step="${user.platform}/${user.userId}/${step.stepId}"]`, {
        timeout: 60_000,
      });
    },
    async answerRerun(template, persona) {
      await title('(1/2): template');
      await row(template).click();
      await title('(2/2): persona');
      await row(persona).click();
    },
    compared(id) {
      return waitFor(
        async () => {
          const f = await wb.findWebviewFrame(`.cmp[data-attempt="${id}"]`, { timeout: 60_000 });
          return (await f.locator('.rerun-slot').getAttribute('data-state')) === 'compared' ? f : undefined;
        },
        { timeout: 60_000, message: `attempt #${id} beside the original` },
      );
    },
    async contextMenu(target, item, nextTitle) {
      const action = wb.menu.label(exact(item));
      const next = wb.quick.title(nextTitle);
      await waitFor(
        async () => {
          if (await next.isVisible()) return true;
          if (!(await action.isVisible())) await target.click({ button: 'right' });
          await action.click({ timeout: 2_000 }).catch(() => {});
          await next.waitFor({ timeout: 2_000 }).catch(() => {});
          return next.isVisible();
        },
        { message: `${item} from the context menu` },
      );
    },
    async settled() {
      let quietSince = Date.now();
      await waitFor(
        async () => {
          if ((await wb.statusBar.part().innerText()).includes('loading benchmark')) quietSince = Date.now();
          return Date.now() - quietSince > 1500;
        },
        { timeout: 30_000, message: 'the benchmark reloads to settle' },
      );
    },
  };
  return self;
}

/** Persona Lab: Set API Key through the palette's password input box. */
export async function setKey(wb: Workbench, u: Ui, key: string): Promise<void> {
  await u.palette('Persona Lab: Set API Key');
  const box = wb.quick.passwordInput();
  await box.waitFor({ timeout: 30_000 });
  await box.fill(key);
  await box.press('Enter');
  await waitFor(async () => (await wb.notifications()).some((n) => n.includes('API key stored')), {
    message: 'the key-stored notification',
  });
}
