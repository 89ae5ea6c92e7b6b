// `npm start -- --check` fails, naming the font package, where the browser draws Chinese as tofu: the check draws two
// CJK glyphs in Debian's Chromium, with the machine's fonts and with a font configuration that has no font at all.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumBin } from '../../scripts/lib/chromium.mjs';
import { CJK_MISSING, cjkRenders } from '../../scripts/lib/startCheck.mjs';

const work = mkdtempSync(join(tmpdir(), 'pl-cjk-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function rendersWith(env: NodeJS.ProcessEnv): Promise<boolean> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: chromiumBin, headless: true, args: chromiumArgs, env });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><meta charset="utf-8"><body></body>');
    return await cjkRenders(page);
  } finally {
    await browser.close();
  }
}

describe('the CJK glyph check of npm start -- --check', () => {
  it('passes with the CJK font CI installs (fonts-wqy-microhei)', async () => {
    expect(await rendersWith({ ...process.env, HOME: work })).toBe(true);
  });

  it('fails without any CJK font, and the message names the packages', async () => {
    const conf = join(work, 'fonts.conf');
    // A font configuration with no font directory: every glyph is the missing-glyph box.
    writeFileSync(conf, `<?xml version="1.0"?>\n<fontconfig><cachedir>${work}/fc-cache</cachedir></fontconfig>\n`);
    expect(await rendersWith({ ...process.env, HOME: work, FONTCONFIG_FILE: conf })).toBe(false);
    expect(CJK_MISSING).toMatch(/fonts-wqy-microhei.*fonts-noto-cjk/);
  });
});
