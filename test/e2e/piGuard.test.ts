// The PI guard on re-runs in the real workbench. With personaLab.privacy.guardLoopback on, the scripted server on
// 127.0.0.1 counts as remote: re-running a sample step whose posts hold a planted phone number shows a modal that
// lists the finding, and nothing reaches the server until the user chooses. Cancel sends nothing; Mask and Send
// sends exactly one request, with <PHONE> in place of the number.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Step, User } from '../../src/core/types';
import type { ScriptedServer } from '../support/scriptedServer';
import { repoRoot, type Workbench } from './harness';
import { startSession, ui, type Session, type Ui } from './rerunSession';

interface Planted {
  category: string;
  text: string;
  userId: string;
  stepId: number | null;
  field: string;
}
const manifest = JSON.parse(readFileSync(join(repoRoot, 'sample/pi-manifest.json'), 'utf8')) as { planted: Planted[] };
const PHONE = manifest.planted.find((p) => p.category === 'PHONE' && p.field === 'posts_text' && p.stepId !== null)!;

describe('the PI guard on re-runs, in the real workbench', () => {
  let session: Session;
  let wb: Workbench;
  let server: ScriptedServer;
  let u: Ui;
  let user: User;
  let step: Step;
  let frame: Frame;

  const dialog = (): Locator => wb.page.locator('.monaco-dialog-box');
  const button = (title: string): Locator => dialog().locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^\\s*${title}\\s*$`) });

  /** Re-run Step… from the step view's button, template and persona picked; resolves once the guard's modal shows. */
  async function rerunUntilModal(): Promise<void> {
    await frame.locator('.nav-row vscode-button[data-command="rerunStep"]').click();
    await u.answerRerun('built-in default', /None \(cold start\)/);
    await dialog().waitFor({ state: 'visible', timeout: 30_000 });
  }

  beforeAll(async () => {
    session = await startSession('persona-lab-pi-guard-', { 'personaLab.privacy.guardLoopback': true });
    ({ wb, server } = session);
    u = ui(wb);
    user = session.bench.users.get('weibo')!.get(PHONE.userId)!;
    step = user.steps.find((s) => s.stepId === PHONE.stepId)!;
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`pi-guard-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows a modal listing the planted phone number, and nothing is sent while it is open', async () => {
    frame = await u.openStep(user, step);
    await rerunUntilModal();
    const text = await dialog().innerText();
    expect(text).toContain(`PHONE (high) "${PHONE.text}"`);
    expect(text).toContain('unredacted PI');
    expect(await button('Send Anyway').count()).toBe(1);
    expect(await button('Mask and Send').count()).toBe(1);
    expect(await button('Cancel').count()).toBe(1);
    expect(server.requests).toHaveLength(0);
    await wb.screenshot('pi-guard-modal');
  });

  it('Cancel sends no request', async () => {
    await button('Cancel').click();
    await dialog().waitFor({ state: 'hidden' });
    await wb.waitForExtensionHostLine(/guard: re-run of .* the user chose cancel/);
    expect(server.requests).toHaveLength(0);
    expect(await frame.locator('.rerun-slot').getAttribute('data-state')).toBe('idle');
  });

  it('Mask and Send sends exactly one request, with <PHONE> and without the number', async () => {
    await rerunUntilModal();
    expect(server.requests).toHaveLength(0);
    await button('Mask and Send').click();
    frame = await u.compared(1);
    // Exactly one: a request leaked by the Cancel above would be here too.
    expect(server.requests).toHaveLength(1);
    const body = JSON.stringify(server.requests[0].body);
    expect(body).toContain('<PHONE>');
    expect(body).not.toContain(PHONE.text);
    expect(server.requests[0].prompt).not.toContain(PHONE.text);
    await frame.locator('.rerun-slot').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('pi-guard-masked-attempt');
  });
});
