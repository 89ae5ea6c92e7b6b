// XSS: a benchmark whose bio, username, posts, tags, personas and reasoning carry script payloads opens in the real
// workbench; the step view shows every payload as text, nothing runs, and no markup gets into the view.
import { rmSync } from 'node:fs';
import type { Frame } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYLOADS, TAG_PAYLOADS, makeXssBench, type XssBench } from '../fixtures/make-xss-bench';
import { startWorkbench, waitFor, type Workbench } from './harness';

const pwned = () => (globalThis as unknown as { __pwned?: unknown }).__pwned;

async function anyPwned(wb: Workbench): Promise<string[]> {
  const hits: string[] = [];
  for (const frame of wb.page.frames()) {
    if (frame.isDetached()) continue;
    const v = await frame.evaluate(pwned).catch(() => undefined);
    if (v !== undefined) hits.push(`${frame.url()}: ${String(v)}`);
  }
  return hits;
}

describe('XSS payloads in the dataset are shown as text and never run', () => {
  let wb: Workbench;
  let bench: XssBench;
  let frame: Frame;

  beforeAll(async () => {
    bench = makeXssBench();
    wb = await startWorkbench({ folder: bench.root, theme: 'dark' });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`xss-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (bench) rmSync(bench.root, { recursive: true, force: true });
  });

  it('opens the poisoned step in the step view', async () => {
    await wb.openView('Persona Lab');
    // The workspace holds data/*_inference_tasks.jsonl, so it opens by itself: wait for the tree to fill.
    await waitFor(() => wb.sideBar.rows().count(), {
      timeout: 60_000,
      message: 'the benchmark tree',
    });
    // Palette -> Open Step -> user -> step (the harness's runCommand expects the palette to close after the command).
    await wb.runWithPicks('Persona Lab: Open Step', [bench.userId, 'step 2/2']);
    frame = await wb.findWebviewFrame(`#step-root[data-step="weibo/${bench.userId}/2"]`, { timeout: 60_000 });
    await wb.screenshot('xss-step-view');
    // The payloads came in the page's HTML (the step a new panel holds for its first paint), in one attribute.
    const page = await frame.evaluate(() => {
      const [mark] = performance.getEntriesByName('persona-lab:first-show') as PerformanceMark[];
      const held = JSON.parse(document.body.getAttribute('data-first-messages') ?? 'null') as {
        messages: { model?: { header?: { bio?: string } } }[];
      } | null;
      return {
        fromHtml: (mark?.detail as { fromHtml?: unknown } | undefined)?.fromHtml,
        // Anywhere in the page, not only in the view's root: markup or scripts other than the bundle.
        injected: [...document.body.querySelectorAll('script, img, svg, iframe, a, textarea, style, title')]
          .filter((e) => !(e instanceof HTMLScriptElement && e.src.endsWith('/dist/webview/step.js')))
          .map((e) => e.outerHTML),
        bio: held?.messages[0]?.model?.header?.bio,
      };
    });
    expect(page).toEqual({ fromHtml: true, injected: [], bio: bench.bio });
  });

  it('runs nothing: window.__pwned stays unset in the page and in every frame', async () => {
    expect(await anyPwned(wb)).toEqual([]);
  });

  it('puts no markup from the data into the view', async () => {
    const injected = await frame.evaluate(() => {
      const root = document.getElementById('step-root')!;
      return [...root.querySelectorAll('script, img, svg, iframe, a, textarea, style, title')].map((e) => e.outerHTML);
    });
    expect(injected).toEqual([]);
    // Scripts in the document: VS Code's own inline host script and our bundle (with the nonce), nothing from the data.
    const scripts = await frame.evaluate(() =>
      [...document.scripts].map((s) => ({ src: s.src, nonce: s.nonce !== '', text: s.text })),
    );
    expect(scripts.filter((s) => s.src !== '').map((s) => [s.src.replace(/^.*\/dist\//, 'dist/'), s.nonce])).toEqual([
      ['dist/webview/step.js', true],
    ]);
    expect(scripts.filter((s) => s.text.includes('__pwned'))).toEqual([]);
  });

  it('shows every payload as text: bio, username, tags, posts, personas, reasoning', async () => {
    const text = (sel: string) => frame.locator(sel).allTextContents();
    expect(await frame.locator('.bio').textContent()).toBe(bench.bio);
    expect(await frame.locator('.username').textContent()).toBe(`U_${PAYLOADS.img}`);
    const tags = await text('.group .tag-text');
    for (const t of Object.values(TAG_PAYLOADS).flat()) expect(tags).toContain(t);
    const posts = (await text('.post')).join('\n');
    for (const p of [
      PAYLOADS.script,
      PAYLOADS.iframe,
      PAYLOADS.title,
      PAYLOADS.textarea,
      PAYLOADS.style,
      PAYLOADS.mdJsUrl,
      PAYLOADS.jsUrl,
      PAYLOADS.template,
    ]) {
      expect(posts).toContain(p);
    }
    expect(await frame.locator('.persona-box.received .prose').textContent()).toBe(bench.personas[0]);
    expect(await frame.locator('.persona-box.written .prose').textContent()).toBe(bench.personas[1]);
    expect(await frame.locator('.reasoning').textContent()).toBe(bench.reasoning);
    expect(await text('[data-extra="outOfPool"] li')).toEqual([`#${PAYLOADS.iframe}#`]);
    // Visible, not just present in the DOM.
    await frame.getByText(PAYLOADS.script, { exact: false }).first().waitFor({ state: 'visible' });
    await frame.locator('.group .tag-text', { hasText: PAYLOADS.img }).first().waitFor({ state: 'visible' });
  });

  it('keeps the diff text-only too, and still nothing ran after hovering and clicking around', async () => {
    const diffText = await frame.locator('.persona-diff .diff').textContent();
    expect(diffText).toContain('</textarea>');
    await frame.locator('.bio').hover();
    await frame.locator('.group .tag').first().click();
    await frame.locator('.post').first().click();
    expect(await anyPwned(wb)).toEqual([]);
    const injected = await frame.evaluate(
      () => document.querySelectorAll('#step-root img, #step-root script, #step-root iframe').length,
    );
    expect(injected).toBe(0);
  });
});
