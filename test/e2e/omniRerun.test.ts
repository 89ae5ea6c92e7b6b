// OmniBehavior as a full peer in the real workbench, against a scripted server answering by the demo model's fixed
// rules: in the trace view R re-runs the test action and its attempt shows beside the run's answers; E opens one
// question's prompt as a draft, and a line typed there and Ctrl+Enter send exactly that as a new attempt; Run Test
// Actions… on a user writes a new run that the tree selects, and a second run of the same name resumes without asking
// again; Judge Run… scores its utterances and the OmniBehavior dashboard shows the run's overall with them.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { omniDemoAnswer } from '../../src/core/omni/demo';
import { loadOmniBenchmark } from '../../src/core/omni/load';
import { omniDraftPath, omniHistoryBlock } from '../../src/core/omni/run/draft';
import { omniTemplateSource } from '../../src/core/omni/run/template';
import { DEFAULT_MAX_HISTORY_TOKENS } from '../../src/core/omni/run/source';
import { scoreOmniRun } from '../../src/core/omni/score';
import type { OmniBenchmark, OmniUser, TestAction } from '../../src/core/omni/types';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { labelled, rowDescription } from './support/sideBar';

const RUN = 'omni-e2e';

describe('OmniBehavior re-runs, drafts, runs and the judge in the workbench', () => {
  let wb: Workbench;
  let server: ScriptedServer;
  let tmp: string;
  let root: string;
  let bench: OmniBenchmark;
  let user: OmniUser;
  let action: TestAction;
  let frame: Frame;

  const toast = (text: RegExp) => wb.toasts(text).first();
  const dialog = () => wb.dialog.box();
  const userPrompts = () =>
    server.requests.map((r) => (r.body as { messages: { content: string }[] }).messages[0].content);

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-omni-rerun-'));
    root = join(tmp, 'ob');
    cpSync(join(repoRoot, 'sample', 'omnibehavior'), root, { recursive: true });
    bench = await loadOmniBenchmark(root);
    user = [...bench.users.values()].sort((a, b) => a.testActions.length - b.testActions.length)[0];
    action = user.testActions.find((a) => a.scene === 'Video Browsing')!;
    expect(action).toBeDefined();
    server = await startScriptedServer((req) => ({ kind: 'text', content: omniDemoAnswer(req.prompt).content }));
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.endpoint.baseURL': server.baseURL, 'personaLab.endpoint.model': 'scripted-model' },
    });
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.benchmarks.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`omni-rerun-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    await server?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('R re-runs the test action: every question as Persona Lab’s prompt renders it, shown as an attempt', async () => {
    await wb.startCommand('Persona Lab: Open Trace');
    await wb.pickQuickPickRow(`${user.userId} #${action.index}`, `${user.userId} #${action.index}`);
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${user.userId}#${action.index}"]`, { timeout: 60_000 });
    const source = omniTemplateSource();
    const expected = (
      await source.questions(user.file, user.userId, action.index, { maxHistoryTokens: DEFAULT_MAX_HISTORY_TOKENS })
    ).questions;
    await frame.locator('.attempt-source', { hasText: "prompts: Persona Lab's prompt, not the benchmark's" }).waitFor();
    await frame
      .locator('#trace-root h1, #trace-root .trace-header')
      .first()
      .click({ position: { x: 2, y: 2 } });
    await pressIn(frame.locator('body'), 'r');
    const attempt = frame.locator('.attempt[data-attempt="1"]');
    await attempt.waitFor({ timeout: 60_000 });
    expect(userPrompts().sort()).toEqual(expected.map((q) => q.prompt).sort());
    const rows = await attempt.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        field: tr.getAttribute('data-field'),
        after: tr.querySelector('[data-col="after"]')?.textContent,
      })),
    );
    expect(rows.map((r) => r.field)).toEqual(expected.map((q) => q.field));
    // Each answer is the demo rule's reply as our reading takes it (Yes / No, a number of seconds, the text).
    for (const [i, q] of expected.entries()) {
      const said = omniDemoAnswer(q.prompt!).content;
      expect(rows[i].after).toBe(said);
    }
    await wb.screenshot('omni-rerun-attempt');
  });

  it('E opens a question’s prompt as a draft; a typed line and Ctrl+Enter send exactly that as a new attempt', async () => {
    const before = server.requests.length;
    await frame
      .locator('#trace-root h1, #trace-root .trace-header')
      .first()
      .click({ position: { x: 2, y: 2 } });
    await pressIn(frame.locator('body'), 'e');
    await wb.pickQuickPickRow('video_liked', 'video_liked');
    const file = join(
      root,
      ...omniDraftPath('demo-sim', { userId: user.userId, index: action.index, field: 'video_liked' }).split('/'),
    );
    await waitFor(() => existsSync(file), { message: 'the draft file' });
    await wb.editor.tab('.pldraft', { active: true }).waitFor();
    expect(readFileSync(file, 'utf8')).toContain(`action: ${user.userId}#${action.index}\nfield: video_liked`);
    // The keys must reach the draft, which the view beside it can take the focus from late.
    await wb.focusEditorTab('.pldraft');
    // The cursor comes with the editor (typing at once must not land elsewhere): on the prompt's first line, or, past
    // a long history (folded when the draft opens), on the scene after it.
    const draftText = readFileSync(file, 'utf8');
    const history = omniHistoryBlock(draftText);
    const promptLine = history ? history.edit + 1 : draftText.split('\n').indexOf('=== user ===') + 2;
    if (history) await wb.editor.foldedMarkers().first().waitFor({ timeout: 10_000 });
    await wb.screenshot('omni-draft-opened');
    await wb.statusBar.selection(`Ln ${promptLine}, Col 1`).waitFor({ timeout: 10_000 });
    await wb.editor.press('Control+End');
    await wb.typeInEditor('\nThis user likes almost everything.');
    await wb.editor.press('Control+Enter');
    await frame.locator('.attempt[data-attempt="2"]').waitFor({ timeout: 60_000 });
    expect(server.requests.length).toBe(before + 1);
    // The tail of what was sent, so that a failure shows where the typed line went.
    expect(userPrompts().at(-1)!.slice(-120)).toMatch(/\nThis user likes almost everything\.$/);
    const second = frame.locator('.attempt[data-attempt="2"]');
    expect(await second.locator('.attempt-head').innerText()).toContain('edited prompt of video_liked');
    expect(await second.locator('tbody tr').count()).toBe(1);
    // With the draft beside it, the attempts table keeps its figures first and every header on one line.
    const heads = await second.locator('thead th').evaluateAll((ths) =>
      ths.map((th) => {
        const range = document.createRange();
        range.selectNodeContents(th);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return { text: th.textContent, lines: lines.size };
      }),
    );
    expect(heads.map((h) => h.text).slice(0, 4)).toEqual(['field', 'change', 'Δ', 'judge']);
    expect(heads.filter((h) => h.lines > 1)).toEqual([]);
    await second.scrollIntoViewIfNeeded();
    await wb.screenshot('omni-attempts-beside-draft');
  });

  it('Run Test Actions… on a user writes a run the tree selects; the same run again resumes without asking', async () => {
    const userRow = wb.sideBar.benchmarks
      .rows({ level: 2 })
      .filter({ has: labelled(wb.page, new RegExp(`^${user.userId}$`)) })
      .first();
    const runOnce = async () => {
      const item = wb.menu.label(/^Run Test Actions…$/);
      const input = wb.quick.input();
      const title = wb.quick.title();
      const forUser = `Run the test actions of ${user.userId}`;
      // One invocation at a time: the input box may take a moment, and a second click would start a second command.
      // A right-click that lands while the tree redraws after a run reaches the command without its row; the command
      // then asks whose test actions to run, and the test answers with the user, as a person would.
      const whose = wb.quick
        .rows()
        .filter({ has: labelled(wb.page, new RegExp(`^\\s*${user.userId}\\s*$`)) })
        .first();
      await waitFor(
        async () => {
          if (await input.isVisible()) {
            const shown = await title.innerText();
            if (shown === forUser) return true;
            if (shown.startsWith('Run Test Actions') && (await whose.isVisible())) {
              await whose.click();
              await title
                .filter({ hasText: forUser })
                .waitFor({ timeout: 5_000 })
                .catch(() => {});
              return false;
            }
            await wb.quick.press('Escape');
            return false;
          }
          if (!(await item.isVisible())) await userRow.click({ button: 'right' });
          await item.click({ timeout: 2_000 }).catch(() => {});
          await input.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => {});
          return false;
        },
        { message: 'Run Test Actions… from the context menu of the user' },
      );
      await input.fill(RUN);
      await wb.quick.press('Enter');
      await dialog().waitFor({ state: 'visible', timeout: 60_000 });
      const text = await dialog().innerText();
      await wb.dialog.exactButton('Run').click();
      return text;
    };
    const before = server.requests.length;
    const first = await runOnce();
    expect(first).toContain("Persona Lab's prompt, not the benchmark's");
    const finished = toast(
      new RegExp(`${RUN} finished: ${user.testActions.length}/${user.testActions.length} test actions`),
    );
    await finished.waitFor({ timeout: 180_000 });
    // The new run is of one user and not judged yet: the views switch to it, and say so.
    const users = [...bench.users.values()].filter((u) => u.testActions.length).length;
    const actions = [...bench.users.values()].reduce((n, u) => n + u.testActions.length, 0);
    const covers = `1 of ${users} users, ${user.testActions.length} of ${actions} test actions`;
    const notJudged =
      'not judged yet: Judge Run… scores the next_user_message answers, which give Shop text (judge × 10)';
    expect(await finished.innerText()).toContain(
      `The views now show ${RUN}: overall — (${notJudged}; the run covers ${covers})`,
    );
    const sent = server.requests.length - before;
    expect(sent).toBeGreaterThanOrEqual(user.testActions.length);
    const lines = readFileSync(join(root, 'results', RUN, 'predictions.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(user.testActions.length);
    await waitFor(
      async () =>
        (
          await rowDescription(wb.sideBar.benchmarks.rows({ level: 1 }))
            .first()
            .innerText()
        ).includes(RUN),
      { timeout: 60_000, message: 'the tree to show the new run' },
    );
    const benchRow = rowDescription(wb.sideBar.benchmarks.rows({ level: 1 })).first();
    expect(await benchRow.innerText()).toBe(`overall — over 1 of ${users} users · run: ${RUN} · OmniBehavior`);
    // A run of part of the benchmark is not a loading problem of the run the tool just wrote.
    expect(await wb.statusBar.item('loading problem').count()).toBe(0);
    // The open trace view names the run whose predictions it now shows, and that run's headline.
    await frame.locator('.trace-header .run', { hasText: `run ${RUN} (made here by Run Test Actions…)` }).waitFor();
    expect(await frame.locator('.trace-header .run-figures').innerText()).toBe(
      `overall — (${notJudged}; the run covers ${covers})`,
    );
    await wb.screenshot('omni-run-one-user-trace');
    await wb.runCommand('Persona Lab: Open OmniBehavior Dashboard');
    const dash = await wb.findWebviewFrame(`#omnidash-root[data-run="${RUN}"]`, { timeout: 60_000 });
    expect(await dash.locator('.made').innerText()).toBe(`Showing ${RUN}, made here by Run Test Actions…`);
    expect(await dash.locator('.overall-why').innerText()).toBe(`No overall: ${notJudged}; the run covers ${covers}`);
    expect(await dash.locator('.coverage').innerText()).toContain(`over ${covers}`);
    const shopText = dash.locator('table[data-table="components"] tbody tr').last();
    const escaped = notJudged.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(await shopText.innerText()).toMatch(new RegExp(`^Shop text \\(judge × 10\\)\\s+—\\s+${escaped}$`));
    // A component of 0.0 says why (no true positive in this one user's answers), as the reference computes it.
    const componentRows = await dash
      .locator('table[data-table="components"] tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
    for (const [, value, note] of componentRows)
      if (value === '0.0') expect(note).toMatch(/^no true positive in \d+ answers? /);
    await wb.screenshot('omni-run-one-user-dashboard');
    await wb.runCommand('View: Close Editor');

    const again = await runOnce();
    expect(again).toMatch(/estimate: 0 requests \(\d+ requests already done\)/);
    await toast(new RegExp(`${RUN} finished \\(resumed\\): .* 0 requests sent`)).waitFor({ timeout: 60_000 });
    expect(server.requests.length - before).toBe(sent);

    // From the palette it asks whose test actions, rather than running all of them unasked (its quick pick opens as
    // the palette closes, so the palette is not waited out).
    await wb.quick.startCommand('Persona Lab: Run Test Actions…');
    const rows = wb.quick.rowLabels();
    await waitFor(async () => (await rows.allInnerTexts())[0]?.includes('Every test action') ?? false, {
      message: 'the quick pick of whose test actions',
    });
    const names = await rows.allInnerTexts();
    expect(names[0]).toContain('Every test action');
    expect(names.some((n) => n.includes(user.userId))).toBe(true);
    await wb.quick.press('Escape');
    expect(server.requests.length - before).toBe(sent);
  });

  it('Judge Run… scores the run’s utterances, and the dashboard shows its overall with the judge', async () => {
    const asked = server.requests.length;
    await wb.runCommand('Persona Lab: Judge Run…');
    await toast(new RegExp(`${RUN} judged by scripted-model`)).waitFor({ timeout: 120_000 });
    const judged = server.requests.slice(asked);
    expect(judged.length).toBeGreaterThan(0);
    for (const r of judged)
      expect(omniDemoAnswer((r.body as { messages: { content: string }[] }).messages[0].content).kind).toBe('judge');
    const now = await loadOmniBenchmark(root, { runs: [RUN] });
    const score = scoreOmniRun(now, now.runs.get(RUN)!);
    expect(score.components.shopText).toBeDefined();
    await wb.runCommand('Persona Lab: Open OmniBehavior Dashboard');
    const dash = await wb.findWebviewFrame(`#omnidash-root[data-run="${RUN}"]`, { timeout: 60_000 });
    await waitFor(
      async () =>
        (await dash.locator('.overall').textContent()) ===
        `overall ${score.overall === undefined ? '—' : score.overall.toFixed(1)}`,
      {
        timeout: 30_000,
        message: 'the dashboard to show the judged overall',
      },
    );
    // Judged, the run has its overall; its figures still say they are of one user.
    expect(await dash.locator('.overall-why').count()).toBe(0);
    expect(await dash.locator('.coverage').innerText()).toMatch(/^Every figure here is over 1 of \d+ users, /);
    await wb.screenshot('omni-dashboard-judged');
  });
});
