// PI in the real workbench, on sample/. The step view marks the planted phone number of a post as residual PI
// (warning underline and icon, category and confidence) and the next step's <ID> placeholder by category, each
// with a legend of the categories on the step. Then the guard on re-runs: with personaLab.privacy.guardLoopback on,
// the scripted server on 127.0.0.1 counts as remote: re-running the step with the phone number shows a modal that
// lists the finding, and nothing reaches the server until the user chooses. Cancel sends nothing; Mask and Send
// sends exactly one request, with <PHONE> in place of the number. A chain re-run scans all its prompts before it
// starts and asks once; masked, no request and no history row holds the number. Send Anyway sends a hand-edited
// persona with an e-mail address as is, and the comparison marks it as residual PI.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readPostsText } from '../../src/core/spb/format/load';
import { findPlaceholders } from '../../src/core/pi/placeholders';
import type { Step, User } from '../../src/core/spb/types';
import type { ScriptedServer } from '../support/scriptedServer';
import { repoRoot, resultsDir, type Workbench } from './harness';
import { historyRows } from './rerunExpect';
import { startSession, ui, type Session, type Ui, openRerunSection } from './rerunSession';

interface Planted {
  category: string;
  text: string;
  userId: string;
  stepId: number | null;
  field: string;
}
const manifest = JSON.parse(readFileSync(join(repoRoot, 'sample/pi-manifest.json'), 'utf8')) as { planted: Planted[] };
const PHONE = manifest.planted.find((p) => p.category === 'PHONE' && p.field === 'posts_text' && p.stepId !== null)!;

describe('PI marks in the step view and the guard on re-runs, in the real workbench', () => {
  let session: Session;
  let wb: Workbench;
  let server: ScriptedServer;
  let u: Ui;
  let user: User;
  let step: Step;
  let frame: Frame;

  const dialog = (): Locator => wb.dialog.box();
  const button = (title: string): Locator => wb.dialog.exactButton(title);

  /** Re-run Step… from the step view's button, template and persona picked; resolves once the guard's modal shows. */
  async function rerunUntilModal(): Promise<void> {
    await frame.locator('.nav-row vscode-button[data-command="rerunStep"]').click();
    await u.answerRerun("Persona Lab's template (not the benchmark's prompt)", /No persona \(cold start\)/);
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

  it('marks the planted phone number in the post as a residual finding, with the legend', async () => {
    frame = await u.openStep(user, step);
    const finding = frame.locator('.posts mark.pi-finding');
    expect(await finding.count()).toBe(1);
    expect(await finding.textContent()).toBe(PHONE.text);
    expect(await finding.getAttribute('data-category')).toBe('PHONE');
    expect(await finding.getAttribute('data-confidence')).toBe('high');
    expect(await finding.getAttribute('title')).toMatch(/^Residual PI, not redacted: PHONE \(Phone\), high confidence/);
    expect(await finding.getAttribute('aria-label')).toBe(`residual PI, Phone, high confidence: ${PHONE.text}`);
    expect(await finding.locator('.codicon-shield').count()).toBe(1);
    // The post's text is unchanged around the mark.
    const post = finding.locator('xpath=ancestor::p[1]');
    const content = readPostsText(user, step);
    expect(content).toContain((await post.textContent())!);
    const legend = frame.locator('.pi-legend');
    expect(
      await legend
        .locator('[data-legend="finding"]')
        .evaluateAll((els) => els.map((e) => [e.getAttribute('data-category'), e.getAttribute('data-count')])),
    ).toEqual([['PHONE', '1']]);
    expect(await legend.locator('.pi-legend-title').textContent()).toContain('1 residual finding');
    await legend.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await wb.screenshot('pi-step-legend');
    await legend.screenshot({ path: join(resultsDir, 'pi-legend-finding.png') });
    await finding.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await wb.screenshot('pi-step-residual-finding');
    await finding.locator('xpath=ancestor::article[1]').screenshot({ path: join(resultsDir, 'pi-post-finding.png') });
  });

  it("marks the next step's placeholders as neutral tokens named by category, with the legend", async () => {
    await frame.locator('vscode-button[data-nav="nextStep"]').click();
    const next = user.steps[user.steps.indexOf(step) + 1];
    await frame.locator(`#step-root[data-step="weibo/${user.userId}/${next.stepId}"]`).waitFor();
    const expected = findPlaceholders(readPostsText(user, next)).map((p) => p.category);
    expect(expected.length).toBeGreaterThan(0);
    const marks = frame.locator('.posts mark.pi-placeholder');
    expect(await marks.evaluateAll((els) => els.map((e) => e.getAttribute('data-category')))).toEqual(expected);
    expect(await marks.evaluateAll((els) => els.map((e) => e.textContent))).toEqual(expected.map((c) => `<${c}>`));
    expect(await marks.first().getAttribute('title')).toMatch(new RegExp(`^Placeholder <${expected[0]}>: `));
    expect(await frame.locator('.posts mark.pi-finding').count()).toBe(0);
    // A placeholder is masking that worked: a neutral token (the description colour), never red (a wrong pick's).
    const [border, red, neutral] = await marks.first().evaluate((e) => {
      const colour = (value: string) => {
        const probe = document.createElement('span');
        probe.style.color = value;
        document.body.appendChild(probe);
        const c = getComputedStyle(probe).color;
        probe.remove();
        return c;
      };
      return [
        getComputedStyle(e).borderTopColor,
        colour('var(--vscode-charts-red)'),
        colour('var(--vscode-descriptionForeground)'),
      ];
    });
    expect(red).not.toBe('rgba(0, 0, 0, 0)');
    expect(border).not.toBe(red);
    expect(border).toBe(neutral);
    const rows = await frame
      .locator('.pi-legend [data-legend="placeholder"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-category')));
    expect(rows).toEqual([...new Set(expected)]);
    await frame.locator('.pi-legend').screenshot({ path: join(resultsDir, 'pi-legend-placeholders.png') });
    await marks.first().evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await wb.screenshot('pi-step-placeholders');
    await marks
      .first()
      .locator('xpath=ancestor::article[1]')
      .screenshot({ path: join(resultsDir, 'pi-post-placeholder.png') });
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
    // The attempt says it was masked, and how much: as many PHONE as the request held.
    const phones = readPostsText(user, step).split(PHONE.text).length - 1;
    expect(await frame.locator('table.attempt-table [data-fact="masked"]').textContent()).toBe(
      `masked ${phones} PHONE`,
    );
    await frame.locator('.rerun-slot').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('pi-guard-masked-attempt');
  });

  it('a chain re-run scans every prompt before it starts, asks once, and masks every request it sends', async () => {
    const sent = server.requests.length;
    await openRerunSection(frame);
    await frame.locator('.rerun-toolbar vscode-button[data-command="rerunChain"]').click();
    await u.title('(1/4): template');
    await u.row("Persona Lab's template (not the benchmark's prompt)").click();
    await u.title('(2/4): persona mode');
    await u.row(/No persona/).click();
    await u.title('(4/4): run name');
    const name = await u.input().inputValue();
    await u.input().press('Enter');
    await dialog().waitFor({ state: 'visible', timeout: 30_000 });
    const chain = user.steps.filter((s) => s.stepId >= step.stepId);
    const text = await dialog().innerText();
    expect(text).toContain(`1 of ${chain.length} prompts`);
    expect(text).toContain(`PHONE (high) "${PHONE.text}" in the prompt of weibo/${user.userId} step ${step.stepId}`);
    expect(server.requests.length).toBe(sent);
    await wb.screenshot('pi-guard-chain-modal');
    await button('Mask and Send').click();
    await wb.toasts(`run ${name} finished`).waitFor({ timeout: 60_000 });
    const requests = server.requests.slice(sent);
    expect(requests.map((r) => r.info.step)).toEqual(chain.map((s) => s.stepId));
    expect(JSON.stringify(requests.map((r) => r.body))).not.toContain(PHONE.text);
    expect(requests[0].prompt).toContain('<PHONE>');
    // What the history database holds is what was sent: the number is in none of its files.
    const db = join(session.ws, '.personalab', 'history.db');
    for (const f of [db, `${db}-wal`].filter(existsSync))
      expect(readFileSync(f).includes(Buffer.from(PHONE.text)), f).toBe(false);
  });

  it('Send Anyway sends as is; the comparison marks the residual PI of the edited persona', async () => {
    const EMAIL = 'li.lei@example.com';
    const persona = `联系邮箱 ${EMAIL}`;
    const id = historyRows(session.ws).length + 1;
    const sent = server.requests.length;
    await frame.locator('.nav-row vscode-button[data-command="rerunStep"]').click();
    await u.title('(1/2): template');
    await u.row("Persona Lab's template (not the benchmark's prompt)").click();
    await u.title('(2/2): persona');
    await u.row(/Edit by hand/).click();
    await u.title('(2/2): persona: edit');
    await u.input().fill(persona);
    await u.input().press('Enter');
    await dialog().waitFor({ state: 'visible', timeout: 30_000 });
    const text = await dialog().innerText();
    expect(text).toContain(`EMAIL (high) "${EMAIL}"`);
    expect(text).toContain(`PHONE (high) "${PHONE.text}"`);
    expect(server.requests.length).toBe(sent);
    await button('Send Anyway').click();
    frame = await u.compared(id);
    expect(server.requests.length).toBe(sent + 1);
    expect(server.requests[sent].prompt).toContain(EMAIL);
    expect(server.requests[sent].prompt).toContain(PHONE.text);
    for (const row of ['Persona received', 'Reasoning']) {
      const mark = frame.locator(`.cmp-cell[data-side="rerun"][data-row="${row}"] mark.pi-finding`);
      expect(
        await mark.evaluateAll((els) => els.map((e) => [e.getAttribute('data-category'), e.textContent])),
        row,
      ).toEqual([['EMAIL', EMAIL]]);
    }
    await frame.locator('.cmp-grid').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('pi-guard-send-anyway-comparison');
  });
});
