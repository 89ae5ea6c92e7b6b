// Re-running one step in the real workbench against a scripted OpenAI-compatible server of this process: the API
// key is set through the palette, a step is re-run from the step view (quick picks for template and persona) and
// from the tree's context menu, the comparison is read inside the webview (picks, flipped tags, metric deltas, reply
// facts), earlier attempts are listed and shown, request and raw reply open read-only, Preview Prompt renders the
// step's prompt, a failed re-run shows its error record, a template gets completion, hovers and live diagnostics,
// every attempt is in the history database and the key in no file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COLD_START_PERSONA } from '../../src/core/spb/prompt/prompt';
import { scoreStep } from '../../src/core/spb/score/step';
import type { Benchmark, Run } from '../../src/core/spb/types';
import { reply, type ScriptedServer } from '../support/scriptedServer';
import { pressIn, typeInto, waitFor, type Workbench } from './harness';
import { findTarget, historyRows, keyLeaks, pct, pp, type Target } from './rerunExpect';
import { KEY, MODEL, setKey, startSession, ui, type Session, type Ui, openRerunSection } from './rerunSession';

describe('re-running a step in the real workbench', () => {
  let session: Session;
  let wb: Workbench;
  let server: ScriptedServer;
  let bench: Benchmark;
  let run: Run;
  let target: Target;
  let ws: string;
  let u: Ui;
  let frame: Frame;

  beforeAll(async () => {
    session = await startSession('persona-lab-rerun-');
    ({ wb, server, ws, bench, run } = session);
    target = findTarget(bench, run);
    u = ui(wb);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`rerun-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await session?.close();
  });

  it('Set API Key takes the key in a password input box from the palette', async () => {
    await setKey(wb, u, KEY);
  });

  it('re-runs a step from the step view and shows it beside the original', async () => {
    const { user, step, result, carried, rerunPicks } = target;
    frame = await u.openStep(user, step);
    await frame.locator('.nav-row vscode-button[data-command="rerunStep"]').click();
    await u.answerRerun("Persona Lab's template (not the benchmark's prompt)", /Carried from/);
    frame = await u.compared(1);

    // The request: the configured model, temperature 0, JSON mode, the key, and the carried persona in the prompt.
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toMatchObject({ model: MODEL, temperature: 0, response_format: { type: 'json_object' } });
    expect(req.info).toMatchObject({ user: user.username, step: step.stepId, persona: carried, pool: step.pool });

    // Picks of each side, with flips.
    const side = (s: string) =>
      frame.locator(`.cmp-cell[data-side="${s}"][data-row="Picks"] .pick .tag-text`).allTextContents();
    expect(await side('rerun')).toEqual(rerunPicks);
    expect(await side('original')).toEqual([
      ...new Set(result.prediction.filter((p): p is string => typeof p === 'string')),
    ]);
    const flips = await frame
      .locator('.cmp-flipped .flip')
      .evaluateAll((els) =>
        els.map((e) => [e.querySelector('.tag-text')?.textContent ?? '', e.getAttribute('data-flip') ?? '']),
      );
    expect([...flips].sort()).toEqual([...target.flips].sort());
    expect(flips.map(([, k]) => k)).toEqual(
      [...flips.map(([, k]) => k)].sort(
        (a, b) =>
          ['gained', 'lost', 'newWrong', 'fixedWrong'].indexOf(a) -
          ['gained', 'lost', 'newWrong', 'fixedWrong'].indexOf(b),
      ),
    );
    expect(await frame.locator('.cmp-flipped .flip[data-flip="gained"] .flip-text').first().textContent()).toBe(
      'miss → hit',
    );

    // Metric deltas.
    const before = scoreStep(step.split, result.prediction)!;
    const after = scoreStep(step.split, rerunPicks)!;
    const cells = await frame.locator('table.deltas tr[data-metric="Recall"] td').allTextContents();
    expect(cells).toEqual([pct(before.Recall), pct(after.Recall), pp(after.Recall - before.Recall)]);
    for (const key of ['Recall_Novelty', 'Recall_Stability'] as const) {
      if (Number.isNaN(before[key]) || Number.isNaN(after[key])) continue;
      expect(await frame.locator(`table.deltas tr[data-metric="${key}"] td.delta`).textContent()).toBe(
        pp(after[key] - before[key]),
      );
    }

    // Personas, reasoning and reply facts.
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Persona received"] .prose').textContent()).toBe(
      carried,
    );
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Persona written"] .prose').textContent()).toBe(
      `persona of ${user.username} after step ${step.stepId}`,
    );
    expect(
      await frame.locator('.cmp-cell[data-side="original"][data-row="Persona written"] .prose').textContent(),
    ).toBe(result.personaSummary);
    expect(await frame.locator('.cmp-persona-diff .diff ins, .cmp-persona-diff .diff del').count()).toBeGreaterThan(0);
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Reasoning"] .prose').textContent()).toBe(
      `received persona: ${carried}`,
    );
    expect(await frame.locator('.flags-none').count()).toBe(1);
    expect(await frame.locator('[data-fact="tries"]').textContent()).toBe('1 of 3');
    expect(await frame.locator('[data-fact="usage"]').textContent()).toBe('100 prompt + 20 completion = 120 tokens');
    expect(await frame.locator('[data-fact="latency"]').textContent()).toMatch(/^[\d,]+ ms$/);

    await frame.locator('.rerun-slot').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-comparison');
    await frame.locator('.cmp-grid').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-comparison-sides');
  });

  it('re-runs from the tree\'s context menu with persona "none" and lists both attempts', async () => {
    const { user, step } = target;
    await u.palette('Persona Lab: Reveal Step by User ID…');
    await waitFor(async () => !(await u.input().inputValue()).startsWith('>'), { message: 'the reveal input box' });
    await u.input().fill(`${user.userId} ${step.stepId}`);
    await u.input().press('Enter');
    await u.widget().waitFor({ state: 'hidden' });
    const node = wb.sideBar.selectedRow();
    await node.waitFor({ timeout: 30_000 });
    await u.contextMenu(node, 'Re-run Step…', '(1/2): template');
    await u.answerRerun("Persona Lab's template (not the benchmark's prompt)", /No persona \(cold start\)/);
    frame = await u.compared(2);
    expect(server.requests[1].info.persona).toBe(COLD_START_PERSONA);
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Persona received"] .prose').textContent()).toBe(
      'No persona (the prompt had the cold-start text)',
    );

    const rows = frame.locator('table.attempt-table tbody tr');
    // Oldest first, numbered in the order they were made; the newest is shown.
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-attempt')))).toEqual(['1', '2']);
    expect(await rows.locator('td:first-child').allTextContents()).toEqual(['1', '2']);
    expect(await rows.nth(1).getAttribute('aria-selected')).toBe('true');
    await rows.nth(0).click();
    frame = await u.compared(1);
    expect(await frame.locator('table.attempt-table tbody tr.selected').getAttribute('data-attempt')).toBe('1');
    await frame.locator('.attempts').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-attempts');
  });

  it('opens the request and the raw reply as read-only documents', async () => {
    await frame.locator('vscode-button[data-open="request"]').click();
    const tab = wb.editor.tab(/^Request #1 · /);
    await tab.waitFor({ timeout: 30_000 });
    const lines = wb.editor.lines();
    // Monaco renders spaces as no-break spaces, and wrapped lines as lines of their own.
    const shown = async () => (await lines.innerText()).replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
    await waitFor(async () => (await shown()).includes(`POST ${server.baseURL}/chat/completions`), {
      message: 'the request text',
    });
    expect(await shown()).toContain(`model: ${MODEL}`);
    expect(await shown()).toContain('persona: carried from the base run');
    await lines.click();
    await typeInto(wb.editor.active(), 'x');
    await wb.editor.overlayMessage(/read-only/i).waitFor({ timeout: 10_000 });
    await wb.screenshot('rerun-request-document');
    await frame.locator('vscode-button[data-open="raw"]').click();
    const rawTab = wb.editor.tab(/^Raw reply #1 · .*\.json/);
    await rawTab.waitFor({ timeout: 30_000 });
    // The group that shows the raw reply, whichever group has the focus (a click in the webview may keep it there).
    const rawLines = wb.editor.linesIn(wb.editor.group(/^Raw reply #1 · /, { active: true }));
    await waitFor(async () => (await rawLines.innerText()).includes('"persona_summary"'), {
      message: 'the raw reply text',
    });
  });

  it('Preview Prompt opens the rendered prompt of the step with the carried persona', async () => {
    const { user, step, carried } = target;
    await openRerunSection(frame);
    await frame.locator('.rerun-toolbar vscode-button[data-command="previewPrompt"]').click();
    await u.title('Preview Prompt for');
    await u.row("Persona Lab's template (not the benchmark's prompt)").click();
    await wb.editor
      .tab(`Prompt · ${user.userId} step ${step.stepId} · Persona Lab's template (not the benchmark's prompt).md`)
      .waitFor({ timeout: 30_000 });
    const lines = wb.editor.lines();
    const shown = async () => (await lines.innerText()).replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
    await waitFor(async () => (await shown()).includes(`# Posts of step ${step.stepId}`), {
      message: 'the rendered prompt',
    });
    // Wrapped CJK lines gain a break where the text has none: compare without any whitespace.
    expect((await shown()).replace(/\s+/g, '')).toContain(carried.replace(/\s+/g, '').slice(0, 30));
    expect(await shown()).not.toContain('{{');
    // It is exactly what the first re-run sent.
    expect(server.requests[0].prompt).toContain(`# Posts of step ${step.stepId}`);
  });

  it('shows a failed re-run as a failure (error, tries, no deltas), and Retry sends the same request again', async () => {
    const { user, step } = target;
    server.setScript(() => reply.status(500));
    const sent = server.requests.length;
    frame = await u.openStep(user, step);
    await frame.locator('.nav-row vscode-button[data-command="rerunStep"]').click();
    await u.answerRerun("Persona Lab's template (not the benchmark's prompt)", /Carried from/);
    frame = await u.compared(3);
    server.setScript(undefined);
    expect(server.requests.length - sent).toBe(3);
    const banner = frame.locator('.cmp-failed .failure-banner');
    expect(await banner.getAttribute('role')).toBe('alert');
    expect(await banner.locator('[data-fact="failure"]').textContent()).toBe(
      'Attempt 3 failed: no usable reply after 3 of 3 tries',
    );
    expect(await banner.locator('[data-fact="error"]').textContent()).toMatch(/500/);
    // Nothing is compared: no deltas, no picks marked dropped, no flipped tags.
    expect(await frame.locator('.cmp-metrics, .cmp-grid, .cmp-flipped, .flip-badge').count()).toBe(0);
    expect(await frame.locator('table.attempt-table tbody tr[data-attempt="3"] td[data-col="R"]').textContent()).toBe(
      'error',
    );
    expect(
      await frame
        .locator('vscode-collapsible[data-section="rerun"]')
        .evaluate((e) => (e as HTMLElement & { description: string }).description),
    ).toMatch(/^attempt 3 failed/);
    // One place says it: no toast over the view.
    expect((await wb.notifications()).filter((n) => n.includes('usable reply'))).toEqual([]);
    await banner.evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-failed');

    await banner.locator('vscode-button[data-action="retry"]').click();
    frame = await u.compared(4);
    expect(server.requests.length - sent).toBe(4);
    // The same request as the failed one, byte for byte.
    expect(server.requests[sent + 3].prompt).toBe(server.requests[sent].prompt);
    expect(server.requests[sent + 3].system).toBe(server.requests[sent].system);
    expect(await frame.locator('.cmp-failed').count()).toBe(0);
    expect(await frame.locator('.cmp-metrics tr[data-metric="Recall"]').count()).toBe(1);
  });

  it('New Prompt Template creates a .plprompt file with slot completion and live diagnostics', async () => {
    // One editor group, full width: beside the previous tests' reply and prompt the template's long lines scroll the
    // narrow editor sideways, and the slots at the start of the lines are then not rendered to hover.
    await wb.runCommand('View: Close All Editors');
    await u.palette('Persona Lab: New Prompt Template…');
    await waitFor(async () => !(await u.input().inputValue()).startsWith('>'), { message: 'the name input box' });
    await u.input().fill('short');
    await u.input().press('Enter');
    const file = join(ws, '.personalab', 'templates', 'short.plprompt');
    await waitFor(() => existsSync(file), { message: 'the template file' });
    await wb.editor.tab('short.plprompt').waitFor();
    const editor = wb.editor.active();
    await wb.editor.lines().click();
    await pressIn(editor, 'Control+End');
    await typeInto(editor, '\n{{pool');
    await wb.editor.suggestions('pool_json').waitFor({ timeout: 30_000 });
    await wb.screenshot('template-completion');
    await pressIn(editor, 'Escape', 'Home');
    // Hover over a slot: its meaning from SLOT_NAMES.
    await wb.editor
      .token(editor, /^posts$/)
      .first()
      .hover();
    await wb.hover('The batch B_n').waitFor({ timeout: 30_000 });
    await wb.editor.lines().click({ position: { x: 5, y: 5 } });
    await pressIn(editor, 'Control+End', 'ArrowLeft', 'ArrowLeft');
    await typeInto(editor, '_nope}}');
    await wb.editor.errorMarks(editor).first().waitFor({ timeout: 30_000 });
    const status = wb.statusBar.problems();
    await waitFor(async () => /[1-9]/.test((await status.getAttribute('aria-label')) ?? ''), {
      message: 'a problem in the status bar',
    });
    await wb.screenshot('template-diagnostics');
    // Delete the bad line (typing `{` over a selection would wrap it: surroundingPairs).
    await pressIn(editor, 'Home', 'Shift+End', 'Delete');
    await waitFor(async () => (await wb.editor.errorMarks(editor).count()) === 0, {
      message: 'the diagnostics to clear',
    });
    await pressIn(editor, 'Control+S');
    await waitFor(() => readFileSync(file, 'utf8').endsWith('\n\n'), { message: 'the template to be saved' });
  });

  it('keeps every attempt in the history database and the key in no file', async () => {
    expect(readFileSync(join(ws, '.personalab', '.gitignore'), 'utf8')).toContain('history.db');
    const rows = historyRows(ws);
    expect(rows.map((r) => [r.id, r.run, r.model, JSON.parse(r.meta ?? '{}').personaMode])).toEqual([
      [1, 'rerun', MODEL, 'carried'],
      [2, 'rerun', MODEL, 'none'],
      [3, 'rerun', MODEL, 'carried'],
      [4, 'rerun', MODEL, 'carried'],
    ]);
    expect(rows.every((r) => r.base_url === server.baseURL)).toBe(true);
    expect(keyLeaks(ws, wb, KEY)).toEqual([]);
    // The key did reach the server, so the scan looked for something that existed.
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('follows the theme: the comparison in light and high contrast', async () => {
    const { user, step } = target;
    await wb.runCommand('View: Close All Editors');
    frame = await u.openStep(user, step);
    await frame.locator('table.attempt-table tbody tr[data-attempt="1"]').click();
    frame = await u.compared(1);
    for (const [theme, bodyClass, shot] of [
      ['Light Modern', 'vscode-light', 'rerun-comparison-light'],
      ['Dark High Contrast', 'vscode-high-contrast', 'rerun-comparison-hc'],
    ]) {
      await u.palette('Preferences: Color Theme');
      await u.input().fill(theme);
      await u.row(new RegExp(`^\\s*(Default )?${theme}\\s*$`)).click();
      await u.widget().waitFor({ state: 'hidden' });
      await waitFor(() => frame.evaluate((c) => document.body.classList.contains(c), bodyClass), {
        message: `the ${theme} theme in the webview`,
      });
      await frame.locator('.rerun-slot').evaluate((e) => e.scrollIntoView());
      await wb.screenshot(shot);
    }
  });
});
