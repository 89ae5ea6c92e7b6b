// Compare's side-by-side in the real workbench on a copy of sample/: a row shows that step of run A and run B side
// by side in the compare view itself (no more editor groups), each side's picks and hit/miss marks as the runs'
// result files say (read by the core loader), the flipped tags as the two pick sets differ, on the first screen of a
// 1440×900 window; ] and [ walk the rows and Esc comes back to the list on the row last shown; a side's *Open in
// Step View* opens that run's own step view, where a label goes on that run (read back through the CLI).
// Screenshots under test-results/e2e/compare-side-by-side*.png.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseLabelFile } from '../../src/core/labels/exportImport';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { DEFAULT_TEMPLATE } from '../../src/core/spb/prompt/prompt';
import { BUILTIN_TEMPLATE_MARK } from '../../src/core/spb/prompt/runOrigin';
import { POOL_CLASSES, type Benchmark, type Platform } from '../../src/core/spb/types';
import { pressIn, repoRoot, startWorkbench, waitFor, type Workbench } from './harness';

const [A, B] = ['demo-llm', 'random'];

function stepOf(bench: Benchmark, key: string) {
  const [platform, userId, stepId] = key.split('/');
  const user = bench.users.get(platform as Platform)!.get(userId)!;
  return user.steps.find((s) => s.stepId === Number(stepId))!;
}

function predictionOf(bench: Benchmark, run: string, key: string): unknown[] {
  const [platform, userId, stepId] = key.split('/');
  return bench.runs
    .get(run)!
    .results.get(platform as Platform)!
    .get(userId)!
    .steps.get(Number(stepId))!.prediction;
}

/** What the run's result file says for the step, as the marks the view must show: tag -> hit / wrongPick. */
function expectedPicks(bench: Benchmark, run: string, key: string): Record<string, string> {
  const step = stepOf(bench, key);
  const positives = new Set([...step.split.tKeep, ...step.split.tNew]);
  const pool = new Set(POOL_CLASSES.flatMap((c) => step.split[c]));
  const out: Record<string, string> = {};
  for (const p of predictionOf(bench, run, key))
    if (typeof p === 'string' && pool.has(p)) out[p] = positives.has(p) ? 'hit' : 'wrongPick';
  return out;
}

/** The pool tags one run picked and the other did not, sorted. */
function expectedFlips(bench: Benchmark, key: string): string[] {
  const pool = new Set(POOL_CLASSES.flatMap((c) => stepOf(bench, key).split[c]));
  const [a, b] = [A, B].map((r) => new Set(predictionOf(bench, r, key).filter((p) => pool.has(p as string))));
  return [...pool].filter((t) => a.has(t) !== b.has(t)).sort();
}

/** The picked pool tags a pinned step view shows, with their marks. */
const shownPicks = (frame: Frame) =>
  frame.locator('.groups li.tag').evaluateAll((lis) => {
    const out: Record<string, string> = {};
    for (const li of lis) {
      const mark = li.getAttribute('data-mark') ?? '';
      if (mark === 'hit' || mark === 'wrongPick') out[li.querySelector('.tag-text')?.textContent ?? ''] = mark;
    }
    return out;
  });

/** The picks of one side of the compare view's pair page, with their marks (pool tags only). */
const sidePicks = (frame: Frame, side: 'a' | 'b') =>
  frame.locator(`.pair-page .cmp-cell[data-side="${side}"][data-row="Picks"] li.tag`).evaluateAll((lis) => {
    const out: Record<string, string> = {};
    for (const li of lis) {
      const mark = li.getAttribute('data-mark') ?? '';
      if (mark === 'hit' || mark === 'wrongPick') out[li.querySelector('.tag-text')?.textContent ?? ''] = mark;
    }
    return out;
  });

describe("compare: a row shows both runs' answers side by side in the compare view", () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let bench: Benchmark;
  let cmp: Frame;
  let keys: string[] = [];

  const pinnedViews = async () => {
    let n = 0;
    for (const f of wb.page.frames())
      if (!f.isDetached() && (await f.$('#step-root[data-pinned]').catch(() => null))) n++;
    return n;
  };

  const pinnedFrame = (run: string, key: string) =>
    wb.findWebviewFrame(`#step-root[data-pinned="${run}"][data-step="${key}"][data-run="${run}"] .groups li.tag`, {
      timeout: 30_000,
    });

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-cmp-steps-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true, filter: (src) => !src.includes('.personalab') });
    // Run B as if Persona Lab had made it with its built-in template: Compare Runs must say so.
    const manifest = {
      format: 'persona-lab-run',
      version: 1,
      template: { hash: 'h', id: 'i', text: DEFAULT_TEMPLATE },
    };
    writeFileSync(join(root, 'results', B, 'run.json'), JSON.stringify(manifest));
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

  it('shows run A and run B side by side in the compare view itself, on the first screen', async () => {
    await wb.openView('Persona Lab');
    await waitFor(() => wb.sideBar.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    await wb.runWithPicks('Persona Lab: Compare Runs…', [A, B]);
    cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]', { timeout: 60_000 });
    expect(await cmp.locator('.page-head h1').textContent()).toContain(`${A} vs ${B} †`);
    expect(await cmp.locator('.note.run-marks').textContent()).toContain(`${B} (${BUILTIN_TEMPLATE_MARK})`);
    const rows = cmp.locator('.vlist .vrow');
    keys = await rows.evaluateAll((rs) => rs.slice(0, 3).map((r) => r.getAttribute('data-key') ?? ''));
    // The first row is the biggest Recall regression, so the two runs picked differently there.
    const key = keys[0];
    const [wantA, wantB] = [expectedPicks(bench, A, key), expectedPicks(bench, B, key)];
    expect(wantA).not.toEqual(wantB);
    const groupsBefore = await wb.editor.groups().count();

    await rows.first().click();
    await cmp.locator(`.pair-page[data-pair="${key}"]`).waitFor({ timeout: 30_000 });
    expect(await cmp.locator('#dash-root').getAttribute('data-view')).toBe('pair');
    expect(await cmp.locator('.list-page').isHidden()).toBe(true);
    expect(await sidePicks(cmp, 'a')).toEqual(wantA);
    expect(await sidePicks(cmp, 'b')).toEqual(wantB);
    const heads = await cmp.locator('.pair-page .cmp-col-head h3').allTextContents();
    expect(heads.map((h) => h.trim())).toEqual([`A · ${A}`, `B · ${B}`]);
    const flipped = await cmp.locator('.pair-page ul.flips li .tag-text').allTextContents();
    expect(flipped.sort()).toEqual(expectedFlips(bench, key));
    // Recall's row: A's and B's values and B − A, as the list row said.
    const rowDelta = await cmp.locator('.pair-page table.deltas tr[data-metric="Recall"] td.delta').textContent();
    expect(rowDelta).toMatch(/^[−+±]/);
    // No editor group was added and no step view opened.
    expect(await wb.editor.groups().count()).toBe(groupsBefore);
    expect(await pinnedViews()).toBe(0);
    // On a 1440×900 window both sides' picks and personas start on the first screen of the panel.
    for (const row of ['Picks', 'Persona written'])
      for (const side of ['a', 'b']) {
        const top = await cmp
          .locator(`.pair-page .cmp-cell[data-side="${side}"][data-row="${row}"]`)
          .evaluate((e) => e.getBoundingClientRect().top - window.innerHeight);
        expect(top, `${row} of ${side} starts in view`).toBeLessThan(0);
      }
    expect(existsSync(await wb.screenshot('compare-side-by-side'))).toBe(true);
    expect(wb.consoleLog.filter((l) => /pageerror|Content Security Policy|Refused to/.test(l))).toEqual([]);
  });

  it('] and [ walk the rows; Esc comes back to the list on the row last shown', async () => {
    await cmp.locator('.pair-page').click({ position: { x: 5, y: 5 } });
    await pressIn(cmp.locator('body'), ']');
    await cmp.locator(`.pair-page[data-pair="${keys[1]}"]`).waitFor({ timeout: 30_000 });
    expect(await sidePicks(cmp, 'b')).toEqual(expectedPicks(bench, B, keys[1]));
    await pressIn(cmp.locator('body'), ']');
    await cmp.locator(`.pair-page[data-pair="${keys[2]}"]`).waitFor({ timeout: 30_000 });
    await pressIn(cmp.locator('body'), '[');
    await cmp.locator(`.pair-page[data-pair="${keys[1]}"]`).waitFor({ timeout: 30_000 });
    await pressIn(cmp.locator('body'), 'Escape');
    await waitFor(async () => (await cmp.locator('#dash-root').getAttribute('data-view')) === 'list', {
      message: 'the list to come back',
    });
    expect(await cmp.locator('.pair-host').isHidden()).toBe(true);
    expect(await cmp.locator('.vlist .vrow.active').getAttribute('data-key')).toBe(keys[1]);
  });

  it("Open in Step View opens that run's own step view", async () => {
    await cmp.locator(`.vlist .vrow[data-key="${keys[1]}"]`).click();
    await cmp.locator(`.pair-page[data-pair="${keys[1]}"]`).waitFor({ timeout: 30_000 });
    await cmp.locator(`.pair-page [data-open-run="${B}"]`).click();
    const frameB = await pinnedFrame(B, keys[1]);
    expect(await shownPicks(frameB)).toEqual(expectedPicks(bench, B, keys[1]));
    expect(await frameB.locator('.step-header .run.pinned').textContent()).toContain(`run ${B}`);
    expect(await pinnedViews()).toBe(1);
  });

  it("a label set in run B's view goes on run B", async () => {
    const key = keys[1];
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
    await cmp.locator(`.pair-page [data-open-run="${A}"]`).click();
    const frameA = await pinnedFrame(A, key);
    expect(
      await frameA
        .locator(`.labels-bar[data-run="${A}"] .label-chip[data-label-id="${labelId}"]`)
        .getAttribute('aria-pressed'),
    ).toBe('false');
    await wb.screenshot('compare-side-by-side-labelled');
  });

  /** How the pair page lays out: its width, its columns, the pick chips' tag text and the title. */
  const pairLayout = () =>
    cmp.locator('.pair-page').evaluate((page) => {
      const box = (e: Element) => e.getBoundingClientRect();
      const chips = [...page.querySelectorAll('.cmp-cell li.tag .tag-text')].map((t) => {
        const style = getComputedStyle(t);
        const lineHeight = parseFloat(style.lineHeight) || 1.4 * parseFloat(style.fontSize);
        return {
          text: t.textContent ?? '',
          width: box(t).width,
          lines: Math.round(box(t).height / lineHeight),
          em: parseFloat(style.fontSize),
        };
      });
      const title = page.querySelector('.pair-title')!;
      return {
        width: box(page).width,
        columns: getComputedStyle(page.querySelector('.cmp-grid')!).gridTemplateColumns.split(' ').length,
        chips,
        title: { text: title.textContent ?? '', width: box(title).width, scroll: title.scrollWidth },
      };
    });

  const expectReadable = (layout: Awaited<ReturnType<typeof pairLayout>>) => {
    expect(layout.chips.length).toBeGreaterThan(0);
    for (const c of layout.chips) {
      // Never one character per line: a short tag stays on one line, wider than a character.
      expect(c.width, `chip ${c.text}`).toBeGreaterThan(1.5 * c.em);
      if (c.text.length <= 12) expect(c.lines, `lines of chip ${c.text}`).toBe(1);
    }
    expect(layout.title.text).toMatch(/step \d+\/\d+/);
    expect(layout.title.width, 'the title is not collapsed').toBeGreaterThan(100);
    expect(layout.title.scroll, 'the title is whole').toBeLessThanOrEqual(layout.title.width + 1);
  };

  it('in a third of the window the pair page goes one column, chips and title whole', async () => {
    await wb.editor.tab('Compare').first().click();
    cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]');
    await cmp.locator(`.pair-page[data-pair="${keys[1]}"]`).waitFor({ timeout: 30_000 });
    const layout = await pairLayout();
    expect(layout.width, 'the compare view shares the window with two step views').toBeLessThan(560);
    expect(layout.columns).toBe(1);
    expectReadable(layout);
    // In one column each cell says its side.
    expect(
      await cmp
        .locator('.pair-page .cmp-cell[data-side="b"][data-row="Picks"] h4')
        .evaluate((h) => getComputedStyle(h, '::before').content),
    ).toBe('"B · "');
    await wb.screenshot('compare-narrow-third');
  });

  it('in half of a narrower window: two columns, and the summary keeps its W / T / L columns whole', async () => {
    await wb.runCommand('View: Join All Editor Groups');
    await wb.page.setViewportSize({ width: 960, height: 900 });
    try {
      await wb.editor.tab('Compare').first().click();
      cmp = await wb.findWebviewFrame('#dash-root[data-page="compare"][data-state="shown"]');
      await cmp.locator(`.pair-page[data-pair="${keys[1]}"]`).waitFor({ timeout: 30_000 });
      const layout = await pairLayout();
      expect(layout.width).toBeLessThan(680);
      expect(layout.columns).toBe(2);
      expectReadable(layout);
      await wb.screenshot('compare-narrow-pair');
      await cmp.locator('.pair-page').click({ position: { x: 5, y: 5 } });
      await pressIn(cmp.locator('body'), 'Escape');
      await waitFor(async () => (await cmp.locator('#dash-root').getAttribute('data-view')) === 'list', {
        message: 'the list to come back',
      });
      const summary = await cmp.locator('.summary-card').evaluate((card) => {
        const scroll = card.querySelector('.summary-scroll')!;
        const right = card.getBoundingClientRect().right;
        const wtl = [...card.querySelectorAll('tbody td.wtl-users, tbody td.wtl-steps')];
        return {
          scroll: [scroll.scrollWidth, scroll.clientWidth],
          wtlInside: wtl.every((td) => td.getBoundingClientRect().right <= right),
          wtl: wtl.map((td) => td.textContent ?? ''),
        };
      });
      await cmp.locator('.summary-card').evaluate((e) => e.scrollIntoView());
      await wb.screenshot('compare-narrow-summary');
      // scrollWidth and clientWidth round the table's fractional width differently: 1 px is not a scroll.
      expect(summary.scroll[0], 'summary scrollWidth vs clientWidth').toBeLessThanOrEqual(summary.scroll[1] + 1);
      expect(summary.wtlInside).toBe(true);
      // The step list's column names wrap rather than being cut.
      const cut = await cmp
        .locator('.compare-steps .vrow.head > span')
        .evaluateAll((spans) => spans.filter((h) => h.scrollWidth > h.clientWidth + 1).map((h) => h.textContent));
      expect(cut).toEqual([]);
      // and the rows' Δ figures are whole.
      const cutDeltas = await cmp
        .locator('.compare-steps .vlist .vrow .line > span.d')
        .evaluateAll((spans) => spans.filter((d) => d.scrollWidth > d.clientWidth + 1).map((d) => d.textContent));
      expect(cutDeltas).toEqual([]);
      expect(
        summary.wtl.every((t) => /^\d+ \/ \d+ \/ \d+$|^—$/.test(t)),
        summary.wtl.join(' | '),
      ).toBe(true);
    } finally {
      await wb.page.setViewportSize({ width: 1440, height: 900 });
    }
  });
});
