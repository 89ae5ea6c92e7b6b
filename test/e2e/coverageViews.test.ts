// A run of one user beside the sample's whole runs, at 1280×800 with the secondary side bar open: the run dashboard
// does not tick it by default and says what it covers; ticked, its figures carry their coverage and are never marked
// best; Compare Runs says each side's coverage and what the comparison is over. The key figures (the tables' Avg.,
// the paired summary's Δ and Users W / T / L) are measured to be inside the page, with no sideways scroll.
// Screenshots: test-results/e2e/coverage-*.png.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';

/** Long on purpose: the tables cut it in the middle and give it whole in the tooltip. */
const PARTIAL = 'experiment-2026-12-06-one-user-of-weibo-demo';
const WHOLE = ['demo-llm', 'history-frequency', 'random', 'recent-batch'];

/**
 * Where an element is: its right edge, and the right edge of what shows of it (the page's width, and each box around
 * it that scrolls sideways), with whether any of those boxes is scrolled away from its start.
 */
async function inView(frame: Frame, selector: string) {
  return frame
    .locator(selector)
    .first()
    .evaluate((e) => {
      let shown = document.documentElement.clientWidth;
      let scrolled = false;
      for (let box = e.parentElement; box; box = box.parentElement) {
        const x = getComputedStyle(box).overflowX;
        if (x !== 'auto' && x !== 'scroll' && x !== 'hidden') continue;
        shown = Math.min(shown, box.getBoundingClientRect().right);
        if (box.scrollLeft > 0) scrolled = true;
      }
      return { right: e.getBoundingClientRect().right, shown, scrolled };
    });
}

describe('coverage and the key figures at 1280×800 with the secondary side bar open', () => {
  let wb: Workbench;
  let tmp: string;
  let dash: Frame;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-coverage-'));
    cpSync(join(repoRoot, 'sample'), tmp, { recursive: true, filter: (src) => !src.includes('.personalab') });
    // One user of demo-llm on Weibo, as the UI writes a run of one user.
    const line = readFileSync(join(tmp, 'results/demo-llm/inference_results_weibo.jsonl'), 'utf8').split('\n')[0];
    mkdirSync(join(tmp, 'results', PARTIAL), { recursive: true });
    writeFileSync(join(tmp, 'results', PARTIAL, 'inference_results_weibo.jsonl'), `${line}\n`);
    wb = await startWorkbench({
      folder: tmp,
      theme: 'dark',
      viewport: { width: 1280, height: 800 },
      settings: { 'personaLab.audit.autoRun': 'never' },
    });
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.benchmarks.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await wb.openSecondarySideBar();
    expect((await wb.secondarySideBar().boundingBox())?.width).toBeGreaterThan(150);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`coverage-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('does not tick the one-user run by default, says what it covers, and shows Avg. in view', async () => {
    await wb.runCommand('Persona Lab: Open Run Dashboard');
    dash = await wb.findWebviewFrame('#dash-root[data-page="dashboard"][data-state="shown"]', { timeout: 60_000 });
    await wb.waitForExtensionHostLine(/dashboard: showing 4 run\(s\)/);
    const boxes = await dash
      .locator('vscode-checkbox[data-run]')
      .evaluateAll((cbs) =>
        cbs.map((c) => [c.getAttribute('data-run'), (c as HTMLInputElement).checked, c.getAttribute('data-coverage')]),
      );
    expect(boxes.filter(([, checked]) => checked).map(([run]) => run)).toEqual(WHOLE);
    const partial = boxes.find(([run]) => run === PARTIAL)!;
    expect(partial[1]).toBe(false);
    expect(partial[2]).toMatch(/^over 1 of \d+ users, \d+ of \d+ steps$/);
    expect(await dash.locator('vscode-option[value=""]').textContent()).toBe('Whole benchmark');
    // Avg. R and Avg. F1^NS of Table 4 come right after the run's name, inside the page, with no sideways scroll.
    for (const col of ['Avg. R', 'Avg. F1^NS']) {
      const at = await inView(dash, `[data-table="t4"] td[data-col="${col}"]`);
      expect(at.right, `${col}'s right edge vs what shows of it`).toBeLessThanOrEqual(at.shown);
      expect(at.scrolled, `${col} seen only by scrolling sideways`).toBe(false);
    }
    await wb.screenshot('coverage-dashboard-default');
  });

  it('ticked, the one-user run carries its coverage and is never marked best', async () => {
    await dash.locator(`vscode-checkbox[data-run="${PARTIAL}"]`).click();
    await waitFor(async () => (await dash.locator('[data-table="t4"] tbody tr').count()) === 5, {
      message: 'five runs in Table 4',
    });
    const row = dash.locator(`[data-table="t4"] tr[data-run="${PARTIAL}"]`);
    expect(await row.locator('.run-coverage').textContent()).toMatch(/^over 1 of \d+ users, \d+ of \d+ steps$/);
    // cut in the middle, whole in the tooltip
    expect(await row.locator('.run-name').textContent()).toMatch(/^experiment-2.*….*weibo-demo$/);
    expect(await row.locator('th').getAttribute('title')).toContain(PARTIAL);
    expect(await dash.locator(`tr[data-run="${PARTIAL}"] td.rank-1, tr[data-run="${PARTIAL}"] td.rank-2`).count()).toBe(
      0,
    );
    // the whole runs are still ranked against each other
    expect(await dash.locator('[data-table="t4"] td.rank-1[data-col="Avg. R"]').count()).toBe(1);
    expect(await dash.locator('vscode-option[value=""]').textContent()).toBe('Whole benchmark (1 run over part of it)');
    expect(await dash.locator('.sample-choice .coverage-note').textContent()).toContain(PARTIAL);
    const at = await inView(dash, '[data-table="t4"] td[data-col="Avg. R"]');
    expect(at.right).toBeLessThanOrEqual(at.shown);
    expect(at.scrolled).toBe(false);
    await wb.screenshot('coverage-dashboard-partial');
  });

  it("Compare Runs says each side's coverage and what it is over, with Δ and Users W / T / L in view", async () => {
    await wb.runWithPicks('Persona Lab: Compare Runs…', ['demo-llm', PARTIAL]);
    const cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]', { timeout: 60_000 });
    await cmp.locator('tr[data-metric="Recall"] td.wtl-users').waitFor({ timeout: 60_000 });
    const note = (await cmp.locator('.coverage-note').textContent()) ?? '';
    expect(note).toMatch(/A covers all \d+ users, all \d+ steps; B covers 1 of \d+ users, \d+ of \d+ steps\./);
    expect(note).toMatch(/over the \d+ scored steps? of 1 user that both have/);
    for (const sel of ['tr[data-metric="Recall"] td.diff', 'tr[data-metric="Recall"] td.wtl-users']) {
      const at = await inView(cmp, sel);
      expect(at.right, `${sel}'s right edge vs what shows of it`).toBeLessThanOrEqual(at.shown);
      expect(at.scrolled, `${sel} seen only by scrolling sideways`).toBe(false);
    }
    await wb.screenshot('coverage-compare');
  });
});
