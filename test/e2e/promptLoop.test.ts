// The prompt engineer's loop in the real workbench, against a scripted OpenAI-compatible server of this process: in
// the step view `e` opens the step's request as a draft beside it; a line deleted and Ctrl+Enter sends the edited
// text as a new attempt shown in the step view; a second edit gives a second attempt whose prompt diff shows the
// deleted line; a failing endpoint gives a failed attempt in the same place with Retry; no toast covers the view.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { draftPath } from '../../src/core/spb/rerun/draft';
import { readPostsText } from '../../src/core/spb/format/load';
import { renderPrompt } from '../../src/core/spb/prompt/prompt';
import { reply, type ScriptedServer } from '../support/scriptedServer';
import { insertInto, pressIn, repoRoot, typeInto, waitFor, type Workbench } from './harness';
import { button } from './support/sideBar';
import { findTarget, type Target } from './rerunExpect';
import { KEY, setKey, startSession, ui, type Session, type Ui } from './rerunSession';

describe('the prompt loop: Edit Prompt, type, Ctrl+Enter', () => {
  let session: Session;
  let wb: Workbench;
  let server: ScriptedServer;
  let target: Target;
  let u: Ui;
  let frame: Frame;
  let file: string;

  const sentPrompt = (i: number) => {
    const messages = (server.requests[i].body as { messages: { role: string; content: string }[] }).messages;
    return messages.find((m) => m.role === 'user')!.content;
  };
  /** The draft's editor, in whichever group shows it. */
  const draftEditor = () => wb.editor.editorIn(wb.editor.group('.pldraft', { active: true })).first();
  /** Focuses the draft's editor through its tab (the step view takes the focus when it shows an attempt). */
  const focusDraft = async () => {
    await wb.editor.tab('.pldraft').click();
    // A click on a tab can leave the focus on the tab; the keys below must go to the text.
    await wb.runCommand('View: Focus Active Editor Group');
    await wb.editor.focusedActive().waitFor();
  };

  /** Deletes line `text` of the draft through the editor (Go to Line, select, delete), as a person would. */
  async function deleteLine(text: string): Promise<void> {
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.indexOf(text);
    expect(at, `the draft has the line "${text}"`).toBeGreaterThan(0);
    await focusDraft();
    await wb.editor.goToLine(at + 1);
    // Delete Line takes the whole line, however the editor wraps it (drafts wrap by default).
    await wb.editor.press('Control+Shift+K');
  }

  beforeAll(async () => {
    // A sample to try a saved template on (the CLI's, as a user would draw it).
    session = await startSession('persona-lab-prompt-loop-', {}, (ws) => {
      execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'sample', ws, '--users', '5', '--out', 's5']);
    });
    ({ wb, server } = session);
    target = findTarget(session.bench, session.run);
    u = ui(wb);
    await setKey(wb, u, KEY);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`promptloop-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await session?.close();
  });

  it('e in the step view opens the step request as a draft beside it', async () => {
    const { user, step } = target;
    file = join(session.ws, ...draftPath(session.run.name, { ...user, stepId: step.stepId }).split('/'));
    frame = await u.openStep(user, step);
    await frame.locator('.step-header').click({ position: { x: 2, y: 2 } });
    await pressIn(frame.locator('body'), 'e');
    await waitFor(() => existsSync(file), { message: 'the draft file' });
    await wb.editor.tab(`${user.userId}-step${step.stepId}.pldraft`, { active: true }).waitFor();
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`step: weibo/${user.userId}/${step.stepId}`);
    // The persona the step receives from the selected run, filled in.
    expect(text).toContain(target.carried);
    // Beside the step view: two editor groups.
    expect(await wb.editor.groups().count()).toBe(2);
    await wb.screenshot('prompt-draft');
  });

  it('a deleted line and Ctrl+Enter give a new attempt in the step view; a second edit a second one', async () => {
    const rules = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Rules: '))!;
    await deleteLine(rules);
    await wb.editor.press('Control+Enter');
    frame = await u.compared(1);
    expect(server.requests).toHaveLength(1);
    expect(sentPrompt(0)).not.toContain(rules);
    expect(sentPrompt(0)).toContain(target.carried);
    // Saved: the draft on disk is what was sent.
    expect(readFileSync(file, 'utf8')).not.toContain(rules);

    const heading = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('How to read the posts: '))!;
    await deleteLine(heading);
    await wb.editor.press('Control+Enter');
    frame = await u.compared(2);
    expect(server.requests).toHaveLength(2);
    expect(sentPrompt(1)).not.toContain(heading);
    const rows = frame.locator('table.attempt-table tbody tr');
    expect(await rows.locator('td:first-child').allTextContents()).toEqual(['1', '2']);
    const diff = frame.locator('.prompt-diff');
    expect(await diff.locator('h3').textContent()).toBe('Prompt of attempt 2 against attempt 1: −1 line, +0');
    expect(await diff.locator('del').allTextContents()).toEqual([`${heading}\n`]);
    expect(await diff.locator('ins').count()).toBe(0);
    // The strip sits above the posts: it is the first section of the content.
    expect(await frame.locator('.content-grid > :first-child').getAttribute('class')).toContain('rerun-slot');
    expect((await wb.notifications()).filter((n) => /re-running/i.test(n))).toEqual([]);
    await wb.screenshot('prompt-loop-attempts');
  });

  it('a failing endpoint gives a failed attempt in the same place, with Retry, and no toast', async () => {
    server.setScript(() => reply.status(500));
    await focusDraft();
    await wb.editor.press('Control+Enter');
    frame = await u.compared(3);
    server.setScript(undefined);
    const banner = frame.locator('.cmp-failed .failure-banner');
    expect(await banner.locator('[data-fact="failure"]').textContent()).toBe(
      'Attempt 3 failed: no usable reply after 3 of 3 tries',
    );
    expect(await banner.locator('vscode-button[data-action="retry"]').count()).toBe(1);
    expect(await frame.locator('.prompt-diff h3').textContent()).toBe('Attempt 3 sent the same request as attempt 2');
    expect((await wb.notifications()).filter((n) => /re-running|usable reply/i.test(n))).toEqual([]);
    await banner.locator('vscode-button[data-action="retry"]').click();
    frame = await u.compared(4);
    expect(await frame.locator('.cmp-failed').count()).toBe(0);
  });

  it('a malformed draft is refused with its line, and nothing is sent; taking the line out clears it', async () => {
    const sent = server.requests.length;
    const before = readFileSync(file, 'utf8');
    await focusDraft();
    await wb.editor.press('Control+Home');
    await wb.typeInEditor('colour: blue\n');
    await wb.editor.errorMarks(draftEditor()).first().waitFor({ timeout: 30_000 });
    await wb.editor.press('Control+Enter');
    await waitFor(async () => (await wb.notifications()).some((n) => /pldraft:1: unknown header "colour"/.test(n)), {
      message: 'the located refusal',
    });
    expect(server.requests.length).toBe(sent);
    expect(readFileSync(file, 'utf8'), 'a refused draft is not saved').toBe(before);
    // With the line taken out again the problem goes, and the draft is as it was for the template below.
    await focusDraft();
    await wb.editor.press('Control+Home', 'Control+Shift+K');
    await waitFor(async () => (await wb.editor.errorMarks(draftEditor()).count()) === 0, {
      message: 'the problem to clear',
    });
    await wb.editor.press('Control+s');
    await waitFor(() => readFileSync(file, 'utf8') === before, { message: 'the draft saved as it was' });
  });

  it('Save Draft as Template turns the edits into a template that renders attempt 2 again; Try on Sample follows', async () => {
    await focusDraft();
    await u.palette('Persona Lab: Save Draft as Template…');
    await u.title('Save Draft as Template');
    await pressIn(wb.quick.input(), 'Control+a');
    await typeInto(wb.quick.input(), 'no-rules');
    await pressIn(wb.quick.input(), 'Enter');
    const saved = join(session.ws, '.personalab', 'templates', 'no-rules.plprompt');
    await waitFor(() => existsSync(saved), { message: 'the saved template' });
    const template = readFileSync(saved, 'utf8');
    expect(template).not.toContain('Rules: ');
    expect(template).not.toContain('How to read the posts: ');
    expect(template).toContain('{{posts}}');
    expect(template).toContain('{{pool_json}}');
    // Rendered for this step with the persona it receives, the template gives back what attempt 2 sent.
    const { user, step } = target;
    const again = renderPrompt(template, {
      platform: user.platform,
      username: user.username,
      bio: user.bio,
      persona: target.carried,
      stepId: step.stepId,
      totalSteps: step.totalSteps,
      postsText: readPostsText(user, step),
      pool: step.pool,
    }).text;
    expect(again).toBe(sentPrompt(1));
    const toast = wb.toasts('saved template "no-rules"');
    await button(toast, 'Try on Sample…').click();
    // Try on Sample runs the new template as an experiment, and its row in the table carries the name given.
    await u.title('Run Template on Sample (1/3): sample');
    await u.row('s5').click();
    await u.title('(3/3): base run');
    await u.row(session.run.name).click();
    const dialog = wb.dialog.box();
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    await wb.dialog.exactButton('Run').click();
    const done = wb.toasts('experiment no-rules on s5');
    await done.waitFor({ timeout: 120_000 });
    await button(done, 'Show Table').click();
    const table = await wb.findWebviewFrame('table.experiments tbody tr.exp-row', { timeout: 60_000 });
    expect(await table.locator('tbody tr.exp-row .name').allTextContents()).toEqual(['no-rules']);
    await table.locator('th[data-key="delta0"] button').click();
    expect(await table.locator('th[data-key="delta0"]').getAttribute('aria-sort')).toBe('descending');
  });

  it('an attempt with the persona edited in the draft shows that persona as received; R and ΔR in sight at 1280×800 and 1440×900', async () => {
    const added = '另外一直在关注#职业规划#。';
    const { user, step } = target;
    frame = await u.openStep(user, step);
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.indexOf(target.carried);
    expect(at, 'the persona on a line of its own').toBeGreaterThan(0);
    await focusDraft();
    // The line after the persona (blank), then one character back: the end of the persona's line, however it wraps.
    await wb.editor.goToLine(at + 2);
    await wb.editor.press('ArrowLeft');
    await insertInto(wb.editor.active(), added);
    await waitFor(
      async () =>
        (
          await wb.editor
            .linesIn(wb.editor.group('.pldraft', { active: true }))
            .first()
            .innerText()
        ).includes('职业规划'),
      {
        message: 'the typed text in the draft',
      },
    );
    const sent = server.requests.length;
    const rowsBefore = await frame.locator('table.attempt-table tbody tr').count();
    await wb.editor.press('Control+Enter');
    await waitFor(() => server.requests.length > sent, { message: 'the edited draft sent' });
    expect(sentPrompt(sent)).toContain(`${target.carried}${added}\n`);
    // The attempt's history id (experiments write to the same history, so it is not the row count).
    const n = await waitFor(
      async () => {
        const f = await wb.findWebviewFrame('table.attempt-table', { timeout: 10_000 });
        const rows = f.locator('table.attempt-table tbody tr');
        return (await rows.count()) > rowsBefore ? rows.last().getAttribute('data-attempt') : undefined;
      },
      { message: 'the new attempt in the table' },
    );
    frame = await u.compared(Number(n));
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Persona received"] .prose').textContent()).toBe(
      `${target.carried}${added}`,
    );
    const row = frame.locator(`table.attempt-table tbody tr[data-attempt="${n}"]`);
    expect(await row.locator('td').nth(3).textContent()).toBe('edited');
    // The prompt diff marks the words typed, not the whole persona line.
    expect(await frame.locator('.prompt-diff del').count()).toBe(0);
    const ins = await frame.locator('.prompt-diff ins').allTextContents();
    expect(ins.join('')).toContain('另外一直在关注#职业规划#');
    expect(ins.join('').length).toBeLessThan(added.length + 2);
    // The rest of the line stays in sight around the marked words.
    expect((await frame.locator('.prompt-diff .same-text').allTextContents()).join('')).toContain(
      target.carried.slice(0, 20),
    );

    // The layout the loop opens, on a laptop's screens: R and ΔR of the attempts table in sight without scrolling
    // sideways, at 1280×800 and at 1440×900.
    for (const size of [
      { width: 1440, height: 900 },
      { width: 1280, height: 800 },
    ]) {
      await wb.page.setViewportSize(size);
      const inSight = () =>
        frame.locator('table.attempt-table').evaluate((table, width) => {
          let scrolled = 0;
          for (let e: Element | null = table; e; e = e.parentElement) scrolled += e.scrollLeft;
          const heads = [...table.querySelectorAll('thead th')].filter((th) =>
            ['R', 'ΔR'].includes(th.textContent ?? ''),
          );
          return (
            window.innerWidth <= width / 2 + 40 &&
            scrolled === 0 &&
            window.scrollX === 0 &&
            heads.length === 2 &&
            heads.every((th) => {
              const r = th.getBoundingClientRect();
              // One line box for the header's text: not broken inside the word.
              const range = document.createRange();
              range.selectNodeContents(th);
              return r.left >= 0 && r.right <= window.innerWidth && range.getClientRects().length === 1;
            })
          );
        }, size.width);
      await waitFor(inSight, { message: `R and ΔR in sight at ${size.width}×${size.height} beside the draft` });
      await row.evaluate((e) => e.scrollIntoView({ block: 'center', inline: 'nearest' }));
      await wb.screenshot(`prompt-loop-${size.width}x${size.height}-attempts`);
    }
  });

  it('Save as Template asks about the text joined to the persona, and a one-step override stays out', async () => {
    await focusDraft();
    await u.palette('Persona Lab: Save Draft as Template…');
    const dialog = wb.dialog.box();
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await dialog.innerText()).toContain('另外一直在关注#职业规划#。');
    expect(await dialog.innerText()).toContain('{{persona}}');
    await wb.screenshot('prompt-loop-save-template-question');
    await wb.dialog.button('Only This Step').click();
    await u.title('Save Draft as Template');
    await pressIn(wb.quick.input(), 'Control+a');
    await typeInto(wb.quick.input(), 'persona-kept');
    await pressIn(wb.quick.input(), 'Enter');
    const saved = join(session.ws, '.personalab', 'templates', 'persona-kept.plprompt');
    await waitFor(() => existsSync(saved), { message: 'the saved template' });
    const template = readFileSync(saved, 'utf8');
    expect(template).not.toContain('职业规划');
    expect(template).toContain('# Persona so far\n{{persona}}\n');
  });
});
