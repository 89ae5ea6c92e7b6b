// Compare's side-by-side action in the real workbench on a copy of sample/: a row opens run A's and run B's own step
// views in the two groups right of the compare view, each titled with its run and showing that run's picks and
// hit/miss marks for the step (checked against the runs' result files read by the core loader); another row reuses
// the same two panels; a label set in B's view goes on run B (read back through the CLI). Screenshots under
// test-results/e2e/compare-side-by-side*.png.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { loadBenchmark } from '../../src/core/spb/load';
import { POOL_CLASSES, type Benchmark, type Platform } from '../../src/core/spb/types';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';

const [A, B] = ['demo-llm', 'random'];

/** What the run's result file says for the step, as the marks the view must show: tag -> hit / wrongPick. */
function expectedPicks(bench: Benchmark, run: string, key: string): Record<string, string> {
  const [platform, userId, stepId] = key.split('/');
  const user = bench.users.get(platform as Platform)!.get(userId)!;
  const step = user.steps.find((s) => s.stepId === Number(stepId))!;
  const prediction = bench.runs
    .get(run)!
    .results.get(platform as Platform)!
    .get(userId)!
    .steps.get(step.stepId)!.prediction;
  const positives = new Set([...step.split.tKeep, ...step.split.tNew]);
  const pool = new Set(POOL_CLASSES.flatMap((c) => step.split[c]));
  const out: Record<string, string> = {};
  for (const p of prediction) if (typeof p === 'string' && pool.has(p)) out[p] = positives.has(p) ? 'hit' : 'wrongPick';
  return out;
}

/** The picked pool tags the view shows, with their marks. */
const shownPicks = (frame: Frame) =>
  frame.locator('.groups li.tag').evaluateAll((lis) => {
    const out: Record<string, string> = {};
    for (const li of lis) {
      const mark = li.getAttribute('data-mark') ?? '';
      if (mark === 'hit' || mark === 'wrongPick') out[li.querySelector('.tag-text')?.textContent ?? ''] = mark;
    }
    return out;
  });

describe("compare: a row opens both runs' step views side by side", () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let bench: Benchmark;
  let cmp: Frame;

  /** The editor group index (0-based, in DOM order) of the tab whose label starts with `prefix`, and how many match. */
  const tabsOf = (prefix: string) =>
    wb.page.locator('.part.editor .tab').evaluateAll((tabs, p) => {
      const groups = [...document.querySelectorAll('.part.editor .editor-group-container')];
      return tabs
        .filter((t) => (t.getAttribute('aria-label') ?? t.textContent ?? '').trim().startsWith(p))
        .map((t) => ({
          group: groups.indexOf(t.closest('.editor-group-container')!),
          label: (t.getAttribute('aria-label') ?? '').trim(),
          active: t.classList.contains('active'),
        }));
    }, prefix);

  const pinnedFrame = (run: string, key: string) =>
    wb.findWebviewFrame(`#step-root[data-pinned="${run}"][data-step="${key}"][data-run="${run}"] .groups li.tag`, {
      timeout: 30_000,
    });

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-cmp-steps-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true, filter: (src) => !src.includes('.personalab') });
    bench = await loadBenchmark(root);
    wb = await startWorkbench({ folder: root, theme: 'dark', settings: { 'personaLab.labels.author': 'e2e-cmp' } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      await wb?.screenshot(`compare-side-by-side-FAILED-${ctx.task.name}`).catch(() => {});
      console.log(wb?.logLines().slice(-25).join('\n'));
    }
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('opens run A and run B in the two groups right of the compare view, each with its own picks', async () => {
    await wb.openView('Persona Lab');
    await waitFor(() => wb.page.locator('.part.sidebar .monaco-list-row').count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await wb.runWithPicks('Persona Lab: Compare Runs…', [A, B]);
    cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]', { timeout: 60_000 });
    const rows = cmp.locator('.vlist .vrow');
    const keys = await rows.evaluateAll((rs) => rs.slice(0, 3).map((r) => r.getAttribute('data-key') ?? ''));
    // The first row is the biggest Recall regression, so the two runs picked differently there.
    const key = keys[0];
    const [wantA, wantB] = [expectedPicks(bench, A, key), expectedPicks(bench, B, key)];
    expect(wantA).not.toEqual(wantB);
    expect(Object.keys(wantA).length + Object.keys(wantB).length).toBeGreaterThan(0);

    await rows.first().click();
    const [frameA, frameB] = [await pinnedFrame(A, key), await pinnedFrame(B, key)];
    expect(frameA).not.toBe(frameB);
    expect(await shownPicks(frameA)).toEqual(wantA);
    expect(await shownPicks(frameB)).toEqual(wantB);
    // Header and title name the run; no re-run part in a pinned view (it is the main view's), a note says so.
    for (const [frame, run] of [
      [frameA, A],
      [frameB, B],
    ] as const) {
      expect(await frame.locator('.step-header .run.pinned').textContent()).toContain(`run ${run}`);
      expect(await frame.locator('[data-command="rerunStep"]').count()).toBe(0);
      expect(await frame.locator('.pinned-note').textContent()).toContain(`run ${run}`);
    }
    const [userId, stepId] = key.split('/').slice(1);
    const compareTab = await tabsOf('Compare:');
    const tabA = await waitFor(async () => (await tabsOf(`${A} · ${userId} · step ${stepId}/`)).at(0), {
      message: `the tab of ${A}`,
    });
    const tabB = await waitFor(async () => (await tabsOf(`${B} · ${userId} · step ${stepId}/`)).at(0), {
      message: `the tab of ${B}`,
    });
    // Side by side, beside the compare view, which stays in view for the next row.
    expect([tabA.group, tabB.group]).toEqual([compareTab[0].group + 1, compareTab[0].group + 2]);
    expect([compareTab[0].active, tabA.active, tabB.active]).toEqual([true, true, true]);
    expect(existsSync(await wb.screenshot('compare-side-by-side'))).toBe(true);
    for (const frame of [frameA, frameB])
      await frame.locator('[data-section="pool"]').evaluate((e) => e.scrollIntoView());
    await wb.screenshot('compare-side-by-side-pool');
    // No page errors and no resource the webviews failed to load.
    expect(wb.consoleLog.filter((l) => /pageerror|Content Security Policy|Refused to/.test(l))).toEqual([]);
  });

  it('another row reuses the same two panels', async () => {
    const rows = cmp.locator('.vlist .vrow');
    const key = (await rows.nth(1).getAttribute('data-key'))!;
    await rows.nth(1).click();
    const [frameA, frameB] = [await pinnedFrame(A, key), await pinnedFrame(B, key)];
    expect(await shownPicks(frameA)).toEqual(expectedPicks(bench, A, key));
    expect(await shownPicks(frameB)).toEqual(expectedPicks(bench, B, key));
    expect((await tabsOf(`${A} · `)).length).toBe(1);
    expect((await tabsOf(`${B} · `)).length).toBe(1);
    const pinnedViews = async () => {
      let n = 0;
      for (const f of wb.page.frames())
        if (!f.isDetached() && (await f.$('#step-root[data-pinned]').catch(() => null))) n++;
      return n;
    };
    expect(await pinnedViews()).toBe(2);
  });

  it("a label set in run B's view goes on run B", async () => {
    const rows = cmp.locator('.vlist .vrow');
    const key = (await rows.nth(1).getAttribute('data-key'))!;
    const frameB = await pinnedFrame(B, key);
    await frameB.locator(`.labels-bar[data-run="${B}"]`).waitFor({ timeout: 30_000 });
    const chip = frameB.locator('.labels-bar .label-chip').first();
    const labelId = (await chip.getAttribute('data-label-id'))!;
    await chip.click();
    await waitFor(async () => (await chip.getAttribute('aria-pressed')) === 'true', {
      message: `${labelId} to be on in ${B}'s view`,
    });
    const db = join(root, '.personalab', 'labels.db');
    const text = execFileSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'labels', 'export', db], {
      encoding: 'utf8',
    });
    const stored = parseLabelFile(text, 'db', 'jsonl').rows.map(
      ({ row }) => `${row.run}:${row.platform}/${row.userId}/${row.stepId}:${row.label}`,
    );
    expect(stored).toEqual([`${B}:${key}:${labelId}`]);
    // Run A's view of the same step does not show it: labels are per run.
    const frameA = await pinnedFrame(A, key);
    expect(
      await frameA
        .locator(`.labels-bar[data-run="${A}"] .label-chip[data-label-id="${labelId}"]`)
        .getAttribute('aria-pressed'),
    ).toBe('false');
    await wb.screenshot('compare-side-by-side-labelled');
  });
});
