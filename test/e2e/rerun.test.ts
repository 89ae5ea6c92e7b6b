// Re-runs in the real workbench against a scripted OpenAI-compatible server started here: the API key is set through
// the palette, a step is re-run from the step view (quick picks for template and persona) and from the tree's
// context menu, the comparison is read inside the webview (picks, flipped tags, metric deltas, reply facts), earlier
// attempts are listed and shown, request and raw reply open read-only, a template is created with completion and
// live diagnostics, a persona ablation shows its table, and the key is in no file the workbench or we wrote.
import Database from 'better-sqlite3';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/core/load';
import { COLD_START_PERSONA } from '../../src/core/prompt';
import { kForPool, scoreStep } from '../../src/core/score';
import type { Benchmark, Run, Step, User } from '../../src/core/types';
import { reply, startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { filesUnder, findTarget, pct, pp, type Target } from './rerunExpect';

const KEY = 'sk-e2e-SECRET-0123456789abcdef';
const MODEL = 'scripted-model';

describe('re-runs in the real workbench', () => {
  let wb: Workbench;
  let server: ScriptedServer;
  let bench: Benchmark;
  let run: Run;
  let target: Target;
  let ws: string;
  let frame: Frame;

  const widget = () => wb.page.locator('.quick-input-widget');
  const input = () => widget().locator('input.input');
  const row = (label: string | RegExp) =>
    widget().locator('.quick-input-list .monaco-list-row').filter({
      has: wb.page.locator('.label-name', { hasText: typeof label === 'string' ? new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) : label }),
    }).first();
  const title = (text: string) => widget().locator('.quick-input-title', { hasText: text }).waitFor({ timeout: 30_000 });

  /** Runs a palette command whose own quick pick or input box follows (so the widget never hides in between). */
  async function palette(command: string): Promise<void> {
    await wb.page.keyboard.press('Escape');
    await input().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => {});
    await waitFor(async () => {
      if (await input().isVisible()) return true;
      await wb.page.keyboard.press('F1');
      await input().waitFor({ state: 'visible', timeout: 2_000 });
      return true;
    }, { message: 'the command palette' });
    await input().fill(`>${command}`);
    await row(command).click();
  }

  async function openStep(user: User, step: Step): Promise<void> {
    await palette('Persona Lab: Open Step');
    await title('Open Step (1/2)');
    await input().fill(user.userId);
    await row(user.userId).click();
    await title('Open Step (2/2)');
    await input().fill(`step ${step.stepId}/${step.totalSteps}`);
    await row(`step ${step.stepId}/${step.totalSteps}`).click();
    await widget().waitFor({ state: 'hidden' });
    frame = await wb.findWebviewFrame(`#step-root[data-step="weibo/${user.userId}/${step.stepId}"]`, { timeout: 60_000 });
  }

  /** Answers Re-run Step's two quick picks. */
  async function answerRerun(template: string | RegExp, persona: RegExp): Promise<void> {
    await title('(1/2): template');
    await row(template).click();
    await title('(2/2): persona');
    await row(persona).click();
  }

  const compared = (id: number) => waitFor(async () => {
    const f = await wb.findWebviewFrame(`.cmp[data-attempt="${id}"]`, { timeout: 60_000 });
    frame = f;
    return (await f.locator('.rerun-slot').getAttribute('data-state')) === 'compared';
  }, { timeout: 60_000, message: `attempt #${id} beside the original` });

  beforeAll(async () => {
    const sample = join(repoRoot, 'sample');
    bench = await loadBenchmark(sample);
    run = bench.runs.get([...bench.runs.keys()][0])!;
    target = findTarget(bench, run);
    ws = mkdtempSync(join(tmpdir(), 'persona-lab-rerun-'));
    cpSync(sample, ws, { recursive: true });
    server = await startScriptedServer();
    wb = await startWorkbench({
      folder: ws,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.endpoint.baseURL': server.baseURL, 'personaLab.endpoint.model': MODEL },
    });
    await wb.openView('Persona Lab');
    await waitFor(() => wb.page.locator('.part.sidebar .monaco-list-row').count(), { timeout: 60_000, message: 'the benchmark tree' });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      await wb?.screenshot(`rerun-FAILED-${ctx.task.name}`).catch(() => {});
      console.log(`--- last console lines\n${wb?.consoleLog.slice(-40).join('\n')}`);
    }
  });

  afterAll(async () => {
    await wb?.close();
    await server?.close();
    if (ws && process.env.PERSONA_LAB_E2E_KEEP !== '1') rmSync(ws, { recursive: true, force: true });
  });

  it('Set API Key takes the key in a password input box from the palette', async () => {
    await palette('Persona Lab: Set API Key');
    const box = widget().locator('input[type="password"]');
    await box.waitFor({ timeout: 30_000 });
    await box.fill(KEY);
    await box.press('Enter');
    await waitFor(async () => (await wb.notifications()).some((n) => n.includes('API key stored')), { message: 'the key-stored notification' });
  });

  it('re-runs a step from the step view and shows it beside the original', async () => {
    const { user, step, result, carried, rerunPicks } = target;
    await openStep(user, step);
    await frame.locator('.nav-row vscode-button[data-command="rerunStep"]').click();
    await answerRerun('built-in default', /Carried from/);
    await compared(1);

    // The request: the configured model, temperature 0, JSON mode, the key, and the carried persona in the prompt.
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body).toMatchObject({ model: MODEL, temperature: 0, response_format: { type: 'json_object' } });
    expect(req.info).toMatchObject({ user: user.username, step: step.stepId, persona: carried, pool: step.pool });

    // Picks of each side, with flips.
    const side = (s: string) => frame.locator(`.cmp-cell[data-side="${s}"][data-row="Picks"] .pick .tag-text`).allTextContents();
    expect(await side('rerun')).toEqual(rerunPicks);
    expect(await side('original')).toEqual([...new Set(result.prediction.filter((p): p is string => typeof p === 'string'))]);
    const flips = await frame.locator('.cmp-flipped .flip').evaluateAll((els) => els.map((e) => [e.querySelector('.tag-text')?.textContent ?? '', e.getAttribute('data-flip') ?? '']));
    expect([...flips].sort()).toEqual([...target.flips].sort());
    expect(flips.map(([, k]) => k)).toEqual([...flips.map(([, k]) => k)].sort((a, b) => ['gained', 'lost', 'newWrong', 'fixedWrong'].indexOf(a) - ['gained', 'lost', 'newWrong', 'fixedWrong'].indexOf(b)));
    expect(await frame.locator('.cmp-flipped .flip[data-flip="gained"] .flip-text').first().textContent()).toBe('miss → hit');

    // Metric deltas.
    const before = scoreStep(step.split, result.prediction)!;
    const after = scoreStep(step.split, rerunPicks)!;
    const cells = await frame.locator('table.deltas tr[data-metric="Recall"] td').allTextContents();
    expect(cells).toEqual([pct(before.Recall), pct(after.Recall), pp(after.Recall - before.Recall)]);
    for (const key of ['Recall_Novelty', 'Recall_Stability'] as const) {
      if (Number.isNaN(before[key]) || Number.isNaN(after[key])) continue;
      expect(await frame.locator(`table.deltas tr[data-metric="${key}"] td.delta`).textContent()).toBe(pp(after[key] - before[key]));
    }

    // Personas, reasoning and reply facts.
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Persona received"] .prose').textContent()).toBe(carried);
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Persona written"] .prose').textContent()).toBe(`persona of ${user.username} after step ${step.stepId}`);
    expect(await frame.locator('.cmp-cell[data-side="original"][data-row="Persona written"] .prose').textContent()).toBe(result.personaSummary);
    expect(await frame.locator('.cmp-persona-diff .diff ins, .cmp-persona-diff .diff del').count()).toBeGreaterThan(0);
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Reasoning"] .prose').textContent()).toBe(`received persona: ${carried}`);
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
    await palette('Persona Lab: Reveal Step by User ID…');
    await waitFor(async () => !(await input().inputValue()).startsWith('>'), { message: 'the reveal input box' });
    await input().fill(`${user.userId} ${step.stepId}`);
    await input().press('Enter');
    await widget().waitFor({ state: 'hidden' });
    const node = wb.page.locator('.part.sidebar .monaco-list-row.selected');
    await node.waitFor({ timeout: 30_000 });
    // The menu can swallow a click that comes while it is still opening: click until the quick pick shows.
    const item = wb.page.locator('.context-view .action-label', { hasText: /^Re-run Step…$/ });
    const picking = widget().locator('.quick-input-title', { hasText: '(1/2): template' });
    await waitFor(async () => {
      if (await picking.isVisible()) return true;
      if (!(await item.isVisible())) await node.click({ button: 'right' });
      await item.click({ timeout: 2_000 }).catch(() => {});
      await picking.waitFor({ timeout: 2_000 }).catch(() => {});
      return picking.isVisible();
    }, { message: 'Re-run Step… from the context menu' });
    await answerRerun('built-in default', /None \(cold start\)/);
    await compared(2);
    expect(server.requests[1].info.persona).toBe(COLD_START_PERSONA);
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Persona received"] .prose').textContent()).toBe('None: the prompt had the cold-start text.');

    const rows = frame.locator('table.attempt-table tbody tr');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-attempt')))).toEqual(['2', '1']);
    expect(await rows.nth(0).getAttribute('aria-selected')).toBe('true');
    await rows.nth(1).click();
    await compared(1);
    expect(await frame.locator('table.attempt-table tbody tr.selected').getAttribute('data-attempt')).toBe('1');
    await frame.locator('.attempts').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-attempts');
  });

  it('opens the request and the raw reply as read-only documents', async () => {
    await frame.locator('vscode-button[data-open="request"]').click();
    const tab = wb.page.locator('.part.editor .tab', { hasText: /^Request #1 · / });
    await tab.waitFor({ timeout: 30_000 });
    const lines = wb.page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines');
    // Monaco renders spaces as no-break spaces, and wrapped lines as lines of their own.
    const shown = async () => (await lines.innerText()).replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
    await waitFor(async () => (await shown()).includes(`POST ${server.baseURL}/chat/completions`), { message: 'the request text' });
    expect(await shown()).toContain(`model: ${MODEL}`);
    expect(await shown()).toContain('persona: carried from the base run');
    await lines.click();
    await wb.page.keyboard.type('x');
    await wb.page.locator('.monaco-editor-overlaymessage', { hasText: /read-only/i }).waitFor({ timeout: 10_000 });
    await wb.screenshot('rerun-request-document');
    await frame.locator('vscode-button[data-open="raw"]').click();
    await wb.page.locator('.part.editor .tab', { hasText: /^Raw reply #1 · .*\.json/ }).waitFor({ timeout: 30_000 });
    await waitFor(async () => (await shown()).includes('"persona_summary"'), { message: 'the raw reply text' });
  });

  it('Preview Prompt opens the rendered prompt of the step with the carried persona', async () => {
    const { user, step, carried } = target;
    await frame.locator('.rerun-toolbar vscode-button[data-command="previewPrompt"]').click();
    await title('Preview Prompt for');
    await row('built-in default').click();
    await wb.page.locator('.part.editor .tab', { hasText: `Prompt · ${user.userId} step ${step.stepId} · built-in default.md` }).waitFor({ timeout: 30_000 });
    const lines = wb.page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines');
    const shown = async () => (await lines.innerText()).replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
    await waitFor(async () => (await shown()).includes(`# Posts of step ${step.stepId}`), { message: 'the rendered prompt' });
    // Wrapped CJK lines gain a break where the text has none: compare without any whitespace.
    expect((await shown()).replace(/\s+/g, '')).toContain(carried.replace(/\s+/g, '').slice(0, 30));
    expect(await shown()).not.toContain('{{');
    // It is exactly what the first re-run sent.
    expect(server.requests[0].prompt).toContain(`# Posts of step ${step.stepId}`);
  });

  it('shows a re-run that failed after three tries with its error record', async () => {
    const { user, step } = target;
    server.setScript(() => reply.status(500));
    const sent = server.requests.length;
    await openStep(user, step);
    await frame.locator('.nav-row vscode-button[data-command="rerunStep"]').click();
    await answerRerun('built-in default', /Carried from/);
    await compared(3);
    server.setScript(undefined);
    expect(server.requests.length - sent).toBe(3);
    expect(await frame.locator('[data-fact="tries"]').textContent()).toBe('3 of 3');
    expect(await frame.locator('.flags-none').textContent()).toMatch(/^No reply text came back/);
    const reasoning = await frame.locator('.cmp-cell[data-side="rerun"][data-row="Reasoning"] .prose').textContent();
    expect(reasoning).toMatch(/^Error: .*500/);
    expect(await frame.locator('.cmp-cell[data-side="rerun"][data-row="Picks"] .empty').textContent()).toBe('No tags picked.');
    expect(await frame.locator('table.attempt-table tbody tr[data-attempt="3"] td').nth(5).textContent()).toBe('error');
    await waitFor(async () => (await wb.notifications()).some((n) => n.includes('no usable reply after 3 tries')), { message: 'the failure notification' });
    await frame.locator('.cmp-details').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-failed');
    await wb.runCommand('Notifications: Clear All Notifications');
  });

  it('New Prompt Template creates a .plprompt file with slot completion and live diagnostics', async () => {
    await palette('Persona Lab: New Prompt Template…');
    await waitFor(async () => !(await input().inputValue()).startsWith('>'), { message: 'the name input box' });
    await input().fill('short');
    await input().press('Enter');
    const file = join(ws, '.personalab', 'templates', 'short.plprompt');
    await waitFor(() => existsSync(file), { message: 'the template file' });
    await wb.page.locator('.part.editor .tab', { hasText: 'short.plprompt' }).waitFor();
    const editor = wb.page.locator('.part.editor .editor-group-container.active .monaco-editor').first();
    await editor.locator('.view-lines').click();
    await wb.page.keyboard.press('Control+End');
    await wb.page.keyboard.type('\n{{pool');
    const suggest = wb.page.locator('.editor-widget.suggest-widget');
    await suggest.locator('.monaco-list-row', { hasText: 'pool_json' }).waitFor({ timeout: 30_000 });
    await wb.screenshot('template-completion');
    await wb.page.keyboard.press('Escape');
    // Hover over a slot: its meaning from SLOT_NAMES.
    await editor.locator('.view-lines span', { hasText: /^posts$/ }).first().hover();
    await wb.page.locator('.monaco-hover', { hasText: 'The batch B_n' }).first().waitFor({ timeout: 30_000 });
    await editor.locator('.view-lines').click({ position: { x: 5, y: 5 } });
    await wb.page.keyboard.press('Control+End');
    await wb.page.keyboard.press('ArrowLeft');
    await wb.page.keyboard.press('ArrowLeft');
    await wb.page.keyboard.type('_nope}}');
    await editor.locator('.squiggly-error').first().waitFor({ timeout: 30_000 });
    const status = wb.page.locator('#status\\.problems');
    await waitFor(async () => /[1-9]/.test((await status.getAttribute('aria-label')) ?? ''), { message: 'a problem in the status bar' });
    await wb.screenshot('template-diagnostics');
    // Delete the bad line (typing `{` over a selection would wrap it: surroundingPairs).
    await wb.page.keyboard.press('Home');
    await wb.page.keyboard.press('Shift+End');
    await wb.page.keyboard.press('Delete');
    await waitFor(async () => (await editor.locator('.squiggly-error').count()) === 0, { message: 'the diagnostics to clear' });
    await wb.page.keyboard.press('Control+S');
    await waitFor(() => readFileSync(file, 'utf8').endsWith('\n\n'), { message: 'the template to be saved' });
  });

  it('runs a persona ablation for the user and shows step-wise Recall side by side', async () => {
    const { user } = target;
    // Cold-start prompts get the last k pool tags, the others the first k: the two modes differ after step 1.
    const lastK = (pool: string[]) => pool.slice(pool.length - kForPool(pool.length));
    server.setScript((req) => (req.info.persona === COLD_START_PERSONA ? reply.json({ persona_summary: 'p', predicted_tags: lastK(req.info.pool ?? []), reasoning: 'r' }) : reply.smart()));
    await openStep(user, user.steps[0]);
    await frame.locator('.rerun-toolbar vscode-button[data-command="runAblation"]').click();
    await title('(1/2): template');
    await row('built-in default').click();
    await title('(2/2): run name');
    const base = await input().inputValue();
    await input().press('Enter');
    const table = await waitFor(async () => {
      const f = await wb.findWebviewFrame('.ablation-table', { timeout: 120_000 });
      return (await f.locator('.rerun-slot').getAttribute('data-state')) !== 'running' ? f : undefined;
    }, { timeout: 120_000, message: 'the ablation table' });
    frame = table;
    server.setScript(undefined);
    const shown = await frame.locator('.ablation-table tbody tr').evaluateAll((els) => els.map((e) => [...e.querySelectorAll('th, td')].map((c) => c.textContent)));
    const expected = user.steps.map((s, i) => {
      const r = (picks: string[]) => scoreStep(s.split, picks);
      const none = r(lastK(s.pool));
      const full = r(i === 0 ? lastK(s.pool) : s.pool.slice(0, kForPool(s.pool.length)));
      return [`step ${s.stepId}`, none ? pct(none.Recall) : '—', full ? pct(full.Recall) : '—', none && full ? pp(full.Recall - none.Recall) : '—'];
    });
    expect(shown).toEqual(expected);
    for (const mode of ['none', 'full']) {
      const dir = join(ws, 'results', `${base}-${mode}`);
      expect(existsSync(join(dir, 'inference_results_weibo.jsonl')), dir).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'))).toMatchObject({ personaMode: mode, status: 'finished', endpoint: { model: MODEL } });
    }
    await frame.locator('.ablation').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-ablation');
  });

  /** Waits until no benchmark reload has run for a moment: the reloads after a run write results. */
  async function settled(): Promise<void> {
    let quietSince = Date.now();
    await waitFor(async () => {
      if ((await wb.page.locator('.part.statusbar').innerText()).includes('loading benchmark')) quietSince = Date.now();
      return Date.now() - quietSince > 1500;
    }, { timeout: 30_000, message: 'the benchmark reloads to settle' });
  }

  it('re-runs a chain from a step into a new run folder that can then be selected', async () => {
    const { user, step, carried } = target;
    await settled();
    await openStep(user, step);
    const sent = server.requests.length;
    await frame.locator('.rerun-toolbar vscode-button[data-command="rerunChain"]').click();
    await title('(1/4): template');
    await row('built-in default').click();
    await title('(2/4): persona mode');
    await row(/Full persona/).click();
    await title(`(3/4): persona of step ${step.stepId}`);
    await row(/Carried from/).click();
    await title('(4/4): run name');
    const name = await input().inputValue();
    expect(name).toMatch(new RegExp(`^built-in-default-${user.userId}-s${step.stepId}-full-\\d{8}-\\d{4}$`));
    await input().press('Enter');
    const toast = wb.page.locator('.notification-toast', { hasText: `run ${name} finished` });
    await toast.waitFor({ timeout: 60_000 });
    expect(await toast.innerText()).toContain(`${user.steps.length - user.steps.indexOf(step)}/${user.steps.length - user.steps.indexOf(step)} steps · 0 failed · 1/1 users`);
    // The chain starts with the persona the selected run's step received, then threads its own.
    const chain = server.requests.slice(sent);
    expect(chain.map((r) => r.info.step)).toEqual(user.steps.filter((s) => s.stepId >= step.stepId).map((s) => s.stepId));
    expect(chain[0].info.persona).toBe(carried);
    await toast.locator('.monaco-button', { hasText: 'Select Run' }).click();
    await wb.page.locator('.part.sidebar .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 30_000 });
    const manifest = JSON.parse(readFileSync(join(ws, 'results', name, 'run.json'), 'utf8'));
    expect(manifest).toMatchObject({ status: 'finished', personaMode: 'full', selection: { userId: user.userId, fromStep: step.stepId, startPersona: { kind: 'run', run: run.name } } });
    expect(JSON.stringify(manifest)).not.toContain(KEY);
    await wb.screenshot('rerun-chain-selected');
  });

  it('cancels a platform run from its progress notification and resumes it without redoing finished steps', async () => {
    const platform = 'douban';
    const users = [...bench.users.get(platform)!.values()];
    const total = users.reduce((n, u) => n + u.steps.length, 0);
    server.setScript(() => reply.delay(250));
    const sent = server.requests.length;
    await wb.page.locator('.part.sidebar .monaco-list-row', { hasText: /^Douban/ }).first().click({ button: 'right' });
    const item = wb.page.locator('.context-view .action-label', { hasText: /^Re-run Platform…$/ });
    await waitFor(async () => {
      if (await widget().locator('.quick-input-title', { hasText: '(1/3): template' }).isVisible()) return true;
      await item.click({ timeout: 2_000 }).catch(() => {});
      return false;
    }, { message: 'Re-run Platform… from the context menu' });
    await row('built-in default').click();
    await title('(2/3): persona mode');
    await row(/No persona/).click();
    await title('(3/3): run name');
    const name = await input().inputValue();
    await input().press('Enter');
    const progress = wb.page.locator('.notification-toast', { hasText: `${platform} → ${name}` });
    await waitFor(async () => /[1-9]\d*\/\d+ steps/.test(await progress.innerText().catch(() => '')), { timeout: 60_000, message: 'progress with counts' });
    expect(await progress.innerText()).toMatch(new RegExp(`\\d+/${total} steps · 0 failed · \\d+/${users.length} users`));
    await progress.hover();
    await progress.locator('.monaco-button', { hasText: 'Cancel' }).click();
    const cancelled = wb.page.locator('.notification-toast', { hasText: `run ${name} cancelled` });
    await cancelled.waitFor({ timeout: 60_000 });
    const dir = join(ws, 'results', name);
    const journal = () => readFileSync(join(dir, '.journal.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { t: string; user: string; step: number }).filter((e) => e.t === 'step');
    const before = journal();
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(total);
    const resumeFrom = server.requests.length;
    await cancelled.locator('.monaco-button', { hasText: 'Resume' }).click();
    await wb.page.locator('.notification-toast', { hasText: `run ${name} finished (resumed)` }).waitFor({ timeout: 60_000 });
    server.setScript(undefined);
    const done = new Set(before.map((e) => `${e.user}/${e.step}`));
    const byUser = new Map(users.map((u) => [u.username, u.userId]));
    const again = server.requests.slice(resumeFrom).map((r) => `${byUser.get(r.info.user ?? '')}/${r.info.step}`);
    expect(again.filter((k) => done.has(k))).toEqual([]);
    expect(journal()).toHaveLength(total);
    expect(readFileSync(join(dir, `inference_results_${platform}.jsonl`), 'utf8').trim().split('\n')).toHaveLength(users.length);
    expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'))).toMatchObject({ status: 'finished', sessions: 2, counts: { steps: total, done: total } });
    expect(server.requests.length - sent).toBeGreaterThanOrEqual(total);
  });

  it('keeps every attempt in the history database and the key in no file', async () => {
    const db = join(ws, '.personalab', 'history.db');
    expect(existsSync(db)).toBe(true);
    expect(readFileSync(join(ws, '.personalab', '.gitignore'), 'utf8')).toContain('history.db');
    const h = new Database(db, { readonly: true, fileMustExist: true });
    const rows = h.prepare('SELECT id, run, model, base_url, meta FROM attempts ORDER BY id').all() as { id: number; run: string; model: string; base_url: string; meta: string | null }[];
    h.close();
    expect(rows.slice(0, 2).map((r) => [r.id, r.run, r.model, JSON.parse(r.meta ?? '{}').personaMode])).toEqual([[1, 'rerun', MODEL, 'carried'], [2, 'rerun', MODEL, 'none']]);
    expect(rows.filter((r) => /^ablation-.*-(none|full)$/.test(r.run))).toHaveLength(2 * target.user.steps.length);
    expect(rows.every((r) => r.base_url === server.baseURL)).toBe(true);

    const key = Buffer.from(KEY);
    // The workspace, and what the workbench run wrote: user data (settings, state, logs), extensions, HOME, XDG. Not
    // the browser profile under tmp/: in the web workbench that is where VS Code's SecretStorage itself lives.
    const scanned = [...filesUnder(ws), ...readdirSync(wb.dir).filter((d) => d !== 'tmp').flatMap((d) => filesUnder(join(wb.dir, d)))];
    expect(scanned.some((f) => f.endsWith('history.db'))).toBe(true);
    expect(scanned.some((f) => f.endsWith('settings.json'))).toBe(true);
    const leaks = scanned.filter((f) => readFileSync(f).includes(key));
    expect(leaks).toEqual([]);
    expect(wb.extensionHostLog.join('\n')).not.toContain(KEY);
    expect(wb.extensionHostFiles()).not.toContain(KEY);
    // The key did reach the server, so the scan above looked for something that existed.
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('follows the theme: the comparison in light and high contrast', async () => {
    const { user, step } = target;
    await wb.runCommand('View: Close All Editors');
    await openStep(user, step);
    await frame.locator('table.attempt-table tbody tr[data-attempt="1"]').click();
    await compared(1);
    for (const [theme, bodyClass, shot] of [['Light Modern', 'vscode-light', 'rerun-comparison-light'], ['Dark High Contrast', 'vscode-high-contrast', 'rerun-comparison-hc']]) {
      await palette('Preferences: Color Theme');
      await input().fill(theme);
      await row(new RegExp(`^\\s*(Default )?${theme}\\s*$`)).click();
      await widget().waitFor({ state: 'hidden' });
      await waitFor(() => frame.evaluate((c) => document.body.classList.contains(c), bodyClass), { message: `the ${theme} theme in the webview` });
      await frame.locator('.rerun-slot').evaluate((e) => e.scrollIntoView());
      await wb.screenshot(shot);
    }
  });
});
