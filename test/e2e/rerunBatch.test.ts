// Batch runs from the UI in the real workbench against a scripted server of this process: a persona ablation with
// its step-wise Recall table, a chain re-run into a new run folder selected from the finish notification, and a
// platform run cancelled from its progress notification and resumed without redoing finished steps. Every step is in
// the history database, and the key in no file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COLD_START_PERSONA } from '../../src/core/spb/prompt/prompt';
import { failedRequests, isErrorRecord } from '../../src/core/spb/score/failedRequests';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { kForPool, scoreStep } from '../../src/core/spb/score/step';
import type { Benchmark, Run } from '../../src/core/spb/types';
import { reply, type ScriptedServer } from '../support/scriptedServer';
import { waitFor, type Workbench } from './harness';
import { button, rowDescription } from './support/sideBar';
import { findTarget, historyRows, keyLeaks, pct, pp, type Target } from './rerunExpect';
import { KEY, MODEL, setKey, startSession, ui, type Session, type Ui, openRerunSection } from './rerunSession';

describe('batch runs from the UI in the real workbench', () => {
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
    session = await startSession('persona-lab-batch-');
    ({ wb, server, ws, bench, run } = session);
    target = findTarget(bench, run);
    u = ui(wb);
    await setKey(wb, u, KEY);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`rerunBatch-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await session?.close();
  });

  it('runs a persona ablation for the user and shows step-wise Recall side by side', async () => {
    const { user } = target;
    // Cold-start prompts get the last k pool tags, the others the first k: the two modes differ after step 1.
    const lastK = (pool: string[]) => pool.slice(pool.length - kForPool(pool.length));
    server.setScript((req) =>
      req.info.persona === COLD_START_PERSONA
        ? reply.json({ persona_summary: 'p', predicted_tags: lastK(req.info.pool ?? []), reasoning: 'r' })
        : reply.smart(),
    );
    frame = await u.openStep(user, user.steps[0]);
    await openRerunSection(frame);
    await frame.locator('.rerun-toolbar vscode-button[data-command="runAblation"]').click();
    await u.title('(1/2): template');
    await u.row("Persona Lab's template (not the benchmark's prompt)").click();
    await u.title('(2/2): run name');
    const base = await u.input().inputValue();
    await u.input().press('Enter');
    const table = await waitFor(
      async () => {
        const f = await wb.findWebviewFrame('.ablation-table', { timeout: 120_000 });
        return (await f.locator('.rerun-slot').getAttribute('data-state')) !== 'running' ? f : undefined;
      },
      { timeout: 120_000, message: 'the ablation table' },
    );
    frame = table;
    server.setScript(undefined);
    const shown = await frame
      .locator('.ablation-table tbody tr')
      .evaluateAll((els) => els.map((e) => [...e.querySelectorAll('th, td')].map((c) => c.textContent)));
    const expected = user.steps.map((s, i) => {
      const r = (picks: string[]) => scoreStep(s.split, picks);
      const none = r(lastK(s.pool));
      const full = r(i === 0 ? lastK(s.pool) : s.pool.slice(0, kForPool(s.pool.length)));
      return [
        `step ${s.stepId}`,
        none ? pct(none.Recall) : '—',
        full ? pct(full.Recall) : '—',
        none && full ? pp(full.Recall - none.Recall) : '—',
      ];
    });
    expect(shown).toEqual(expected);
    for (const mode of ['none', 'full']) {
      const dir = join(ws, 'results', `${base}-${mode}`);
      expect(existsSync(join(dir, 'inference_results_weibo.jsonl')), dir).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'))).toMatchObject({
        personaMode: mode,
        status: 'finished',
        endpoint: { model: MODEL },
      });
    }
    await frame.locator('.ablation').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('rerun-ablation');
  });

  it('re-runs a chain from a step into a new run folder that can then be selected', async () => {
    const { user, step, carried } = target;
    await u.settled();
    frame = await u.openStep(user, step);
    const sent = server.requests.length;
    await openRerunSection(frame);
    await frame.locator('.rerun-toolbar vscode-button[data-command="rerunChain"]').click();
    await u.title('(1/4): template');
    await u.row("Persona Lab's template (not the benchmark's prompt)").click();
    await u.title('(2/4): persona mode');
    await u.row(/Full persona/).click();
    await u.title(`(3/4): persona of step ${step.stepId}`);
    await u.row(/Carried from/).click();
    await u.title('(4/4): run name');
    const name = await u.input().inputValue();
    expect(name).toMatch(new RegExp(`^pl-template-${user.userId}-s${step.stepId}-full-\\d{8}-\\d{4}$`));
    await u.input().press('Enter');
    const toast = wb.toasts(`run ${name} finished`);
    await toast.waitFor({ timeout: 60_000 });
    expect(await toast.innerText()).toContain(
      `${user.steps.length - user.steps.indexOf(step)}/${user.steps.length - user.steps.indexOf(step)} steps · 0 failed · 1/1 users`,
    );
    // The chain starts with the persona the selected run's step received, then threads its own.
    const chain = server.requests.slice(sent);
    expect(chain.map((r) => r.info.step)).toEqual(
      user.steps.filter((s) => s.stepId >= step.stepId).map((s) => s.stepId),
    );
    expect(chain[0].info.persona).toBe(carried);
    await button(toast, 'Select Run').click();
    await wb.sideBar.rows({ hasText: name }).first().waitFor({ timeout: 30_000 });
    const manifest = JSON.parse(readFileSync(join(ws, 'results', name, 'run.json'), 'utf8'));
    expect(manifest).toMatchObject({
      status: 'finished',
      personaMode: 'full',
      selection: { userId: user.userId, fromStep: step.stepId, startPersona: { kind: 'run', run: run.name } },
    });
    expect(JSON.stringify(manifest)).not.toContain(KEY);
    // Made with Persona Lab's template: the tree says it is not the benchmark's prompt.
    const root = wb.sideBar.rows({ level: 1, hasText: `run: ${name}` }).first();
    expect(await rowDescription(root).innerText()).toContain("not the benchmark's prompt");
    await wb.screenshot('rerun-chain-selected');
  });

  it('cancels a platform run from its progress notification and resumes it without redoing finished steps', async () => {
    const platform = 'douban';
    const users = [...bench.users.get(platform)!.values()];
    const total = users.reduce((n, x) => n + x.steps.length, 0);
    server.setScript(() => reply.delay(250));
    const sent = server.requests.length;
    await u.contextMenu(wb.sideBar.rows({ hasText: /^Douban/ }).first(), 'Re-run Platform…', '(1/3): template');
    await u.row("Persona Lab's template (not the benchmark's prompt)").click();
    await u.title('(2/3): persona mode');
    await u.row(/No persona/).click();
    await u.title('(3/3): run name');
    const name = await u.input().inputValue();
    await u.input().press('Enter');
    const progress = wb.toasts(`${platform} → ${name}`);
    await waitFor(async () => /[1-9]\d*\/\d+ steps/.test(await progress.innerText().catch(() => '')), {
      timeout: 60_000,
      message: 'progress with counts',
    });
    expect(await progress.innerText()).toMatch(
      new RegExp(`\\d+/${total} steps · 0 failed · \\d+/${users.length} users`),
    );
    await progress.hover();
    await button(progress, 'Cancel').click();
    const cancelled = wb.toasts(`run ${name} cancelled`);
    await cancelled.waitFor({ timeout: 60_000 });
    const dir = join(ws, 'results', name);
    const journal = () =>
      readFileSync(join(dir, '.journal.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { t: string; user: string; step: number })
        .filter((e) => e.t === 'step');
    const before = journal();
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(total);
    const resumeFrom = server.requests.length;
    await button(cancelled, 'Resume').click();
    await wb.toasts(`run ${name} finished (resumed)`).waitFor({ timeout: 60_000 });
    server.setScript(undefined);
    const done = new Set(before.map((e) => `${e.user}/${e.step}`));
    const byUser = new Map(users.map((u) => [u.username, u.userId]));
    const again = server.requests.slice(resumeFrom).map((r) => `${byUser.get(r.info.user ?? '')}/${r.info.step}`);
    expect(again.filter((k) => done.has(k))).toEqual([]);
    expect(journal()).toHaveLength(total);
    expect(
      readFileSync(join(dir, `inference_results_${platform}.jsonl`), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(users.length);
    expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'))).toMatchObject({
      status: 'finished',
      sessions: 2,
      counts: { steps: total, done: total },
    });
    expect(server.requests.length - sent).toBeGreaterThanOrEqual(total);
  });

  it('Re-run Failed Requests… sends only the failed request into a copy of the run, which is left as it was', async () => {
    await u.settled();
    const failedRun = [...bench.runs.values()].find((r) =>
      [...r.results.values()].some((byUser) =>
        [...byUser.values()].some((res) => [...res.steps.values()].some((st) => isErrorRecord(st))),
      ),
    )!;
    const failedSteps = [...failedRun.results].flatMap(([platform, byUser]) =>
      [...byUser].flatMap(([userId, res]) =>
        [...res.steps.values()]
          .filter((st) => isErrorRecord(st))
          .map((st) => ({ platform, userId, stepId: st.stepId })),
      ),
    );
    expect(failedSteps.length).toBeGreaterThan(0);
    const fromFiles = () =>
      readdirSync(join(ws, 'results', failedRun.name)).map((f) =>
        readFileSync(join(ws, 'results', failedRun.name, f), 'utf8'),
      );
    const before = fromFiles();
    server.setScript(() => reply.smart());
    const sent = server.requests.length;
    await u.palette('Persona Lab: Re-run Failed Requests…');
    // The selected run may be another one (an earlier test selected its chain run): then the runs with failures.
    const first = await waitFor(
      async () => {
        const text = (await wb.quick.title().textContent()) ?? '';
        return /\((1|2)\/3\)/.test(text) ? text : undefined;
      },
      { timeout: 30_000, message: 'the first quick input of Re-run Failed Requests' },
    );
    if (first.includes('(1/3): run')) await u.row(failedRun.name).click();
    await u.title(`of ${failedRun.name} (2/3): prompt`);
    await u.row("Persona Lab's template (not the benchmark's prompt)").click();
    await u.title('(3/3): name of the copy');
    const name = await u.input().inputValue();
    expect(name).toBe(`${failedRun.name}-retried-pl-template`);
    await u.input().press('Enter');
    await wb.toasts(`run ${name} finished`).waitFor({ timeout: 60_000 });
    server.setScript(undefined);
    const requests = server.requests.slice(sent);
    expect(requests).toHaveLength(failedSteps.length);
    const users = [...bench.users.values()].flatMap((m) => [...m.values()]);
    const byName = new Map(users.map((usr) => [usr.username, usr.userId]));
    expect(requests.map((r) => `${byName.get(r.info.user ?? '')}/${r.info.step}`).sort()).toEqual(
      failedSteps.map((f) => `${f.userId}/${f.stepId}`).sort(),
    );
    expect(fromFiles()).toEqual(before);
    const copy = await loadBenchmark(ws, { runs: [name] });
    const run2 = copy.runs.get(name)!;
    const rows = (r: Run) =>
      [...r.results.values()].flatMap((byUser) =>
        [...byUser.values()].flatMap((res) => [...res.steps.values()].map((st) => `${res.userId}/${st.stepId}`)),
      );
    expect(rows(run2).sort()).toEqual(rows(failedRun).sort());
    expect(failedRequests(copy, run2).failed).toBe(0);
    expect(JSON.parse(readFileSync(join(ws, 'results', name, 'run.json'), 'utf8'))).toMatchObject({
      status: 'finished',
      selection: { onlyFailedOf: failedRun.name },
    });
  });

  it('keeps every step of the runs in the history database and the key in no file', async () => {
    const rows = historyRows(ws);
    expect(rows.filter((r) => /^ablation-.*-(none|full)$/.test(r.run))).toHaveLength(2 * target.user.steps.length);
    expect(rows.every((r) => r.model === MODEL && r.base_url === server.baseURL && r.meta === null)).toBe(true);
    expect(keyLeaks(ws, wb, KEY)).toEqual([]);
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });
});
