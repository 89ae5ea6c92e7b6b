// XSS in the trace view: an OmniBehavior folder whose profile, context, keywords, dialogue, scene name and raw outputs
// carry script payloads opens in the real workbench; every payload shows as text and nothing runs.
import { rmSync } from 'node:fs';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYLOADS } from '../fixtures/make-xss-bench';
import { PHONE, makeXssOmni, type XssOmni } from '../fixtures/make-xss-omni';
import { startWorkbench, waitFor, type Workbench } from './harness';
import { twistie } from './support/sideBar';

async function anyPwned(wb: Workbench): Promise<string[]> {
  const hits: string[] = [];
  for (const frame of wb.page.frames()) {
    if (frame.isDetached()) continue;
    const v = await frame
      .evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned)
      .catch(() => undefined);
    if (v !== undefined) hits.push(`${frame.url()}: ${String(v)}`);
  }
  return hits;
}

describe('XSS payloads in an OmniBehavior trace are shown as text and never run', () => {
  let wb: Workbench;
  let bench: XssOmni;
  let frame: Frame;

  beforeAll(async () => {
    bench = makeXssOmni();
    wb = await startWorkbench({ folder: bench.root, theme: 'dark' });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`traceXss-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (bench) rmSync(bench.root, { recursive: true, force: true });
  });

  it('opens the poisoned test action in the trace view and shows every payload as text', async () => {
    await wb.openView('Persona Lab');
    const userRow = wb.sideBar.benchmarks.rows({ level: 2 }).filter({ hasText: bench.userId }).first();
    await userRow.waitFor({ state: 'visible', timeout: 60_000 });
    await twistie(userRow).click();
    await wb.sideBar.benchmarks
      .rows({ level: 3 })
      .filter({ hasText: `#${bench.index} Video Browsing` })
      .first()
      .click();
    frame = await wb.findWebviewFrame(`#trace-root[data-trace="${bench.userId}#${bench.index}"]`, { timeout: 60_000 });

    expect(await frame.locator('.profile-text').textContent()).toBe(bench.profile);
    const context = await frame.locator('.context-table td').allTextContents();
    expect(context).toEqual(expect.arrayContaining([PAYLOADS.template, PAYLOADS.svg, PAYLOADS.iframe]));
    await waitFor(async () => (await frame.locator('.timeline').getAttribute('data-count')) === String(bench.index), {
      message: 'the timeline',
    });
    expect(await frame.locator('.timeline-count').textContent()).toBe(
      `${bench.index} of ${bench.index} records before the test action`,
    );
    await waitFor(async () => (await frame.locator('.vlist .vrow').count()) === bench.index, { message: 'the rows' });
    // A row is placed before its record arrives (the view fetches windows of records): wait for the texts.
    const summaries = await waitFor(
      async () => {
        const texts = await frame.locator('.vlist .vrow .sm').allTextContents();
        return texts.length > 3 && texts.slice(0, 4).every((t) => t !== '') ? texts : undefined;
      },
      { message: 'the rows to show their records' },
    );
    expect(summaries.slice(0, 3)).toEqual([PAYLOADS.title, `“${PAYLOADS.textarea}”`, `user: ${PAYLOADS.style}`]);
    // The record whose scene is a payload cannot be decoded: it shows as unreadable, pointing at its line.
    expect(summaries[3]).toMatch(/^see line \d+ of the file$/);
    expect(await frame.locator('.vlist .vrow[data-index="3"] .sc').textContent()).toBe('unreadable');

    const q = frame.locator('.question[data-field="video_liked"]');
    await q.locator('vscode-button[data-raw="video_liked"]').click();
    await q.locator('.raw-output').waitFor({ state: 'visible' });
    expect(await q.locator('.raw-output').textContent()).toBe(`Answer: Yes ${PAYLOADS.script}`);
    await frame.locator('.vlist .vrow[data-index="0"]').click();
    await frame.locator('.record-detail').waitFor({ state: 'visible' });
    expect(await frame.locator('.record-detail').textContent()).toContain(JSON.stringify(PAYLOADS.title));
    await wb.screenshot('traceXss');
  });

  it('scans the trace for personal information and opens the record of a finding', async () => {
    const pi = frame.locator('.pi');
    await pi.locator('vscode-button').click();
    await waitFor(async () => (await pi.getAttribute('data-state')) === 'done', { message: 'the PI scan' });
    const rows = await pi
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 4).map((c) => c.textContent)));
    expect(rows).toContainEqual(['#2 action[0].content[1]', 'PHONE', expect.any(String), PHONE]);
    await pi.locator('tbody tr[data-index="2"]').first().click();
    await waitFor(async () => (await frame.locator('.record-detail').getAttribute('data-index')) === '2', {
      message: 'the record of the finding',
    });
    expect(await frame.locator('.record-detail').textContent()).toContain(PHONE);
    await pi.scrollIntoViewIfNeeded();
    await wb.screenshot('traceXss-pi');
  });

  it('runs nothing and puts no markup from the data into the view', async () => {
    expect(await anyPwned(wb)).toEqual([]);
    const injected = await frame.evaluate(() => {
      const root = document.getElementById('trace-root')!;
      return [...root.querySelectorAll('script, img, svg, iframe, a, textarea, style, title')].map((e) => e.outerHTML);
    });
    expect(injected).toEqual([]);
    const scripts = await frame.evaluate(() =>
      [...document.scripts].map((s) => ({ src: s.src, nonce: s.nonce !== '', text: s.text })),
    );
    expect(scripts.filter((s) => s.src !== '').map((s) => [s.src.replace(/^.*\/dist\//, 'dist/'), s.nonce])).toEqual([
      ['dist/webview/trace.js', true],
    ]);
    expect(scripts.filter((s) => s.text.includes('__pwned'))).toEqual([]);
  });
});
