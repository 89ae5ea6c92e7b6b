// The PI Audit view in the real workbench on a copy of sample/ (plus a phone number in a bio next to HTML and
// Markdown, and an e-mail address in a run's reasoning): the audit runs by itself, every planted string of
// sample/pi-manifest.json shows under its category, no placeholder is a finding, the counts agree with the CLI,
// a click opens the step view at the finding's step with its span outlined and in view (a bio's on the user's first
// step, a reasoning's in its run), Open Finding in File opens the line pretty-printed with the span selected, verdicts
// are stored in SQLite and change the counts, and the exported Markdown and JSON reports hold the confirmed leak and
// the verdict trail.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_INFO, PI_CATEGORIES } from '../../src/core/pi/placeholders';
import type { StepAuditReport } from '../../src/core/spb/pi/audit';
import { VerdictStore } from '../../src/core/pi/verdicts';
import { PLATFORM_LABELS } from '../../src/core/spb/score/tables';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { rowActionIcons, rowActions, rowName, twistie } from './support/sideBar';
import {
  auditPage,
  auditPane,
  auditRows,
  editLine,
  outlinedFinding,
  type Planted,
  type SeenFinding,
} from './auditPage';

const AUTHOR = 'e2e-auditor';
const XSS_BIO = ' <img src=x onerror="globalThis.__plAuditXss=1"> **not bold** 电话 13912345678';
const PLACEHOLDER = /<(PHONE|ID|BANK|EMAIL|CONTACT|PLATE|IP|GEO|DEVICE|SELF)>/;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

describe('PI Audit view in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let cli: StepAuditReport;
  const planted = (
    JSON.parse(readFileSync(join(repoRoot, 'sample/pi-manifest.json'), 'utf8')) as { planted: Planted[] }
  ).planted;

  const { pane, rowLocator, setExpanded, waitRow, readFindings, categoryRow, contextMenu, exportTo } = auditPage(
    () => wb,
    () => cli,
  );

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-audit-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    // The StreamProfileBench audit alone: with sample/omnibehavior and sample/personamem beside it the view would audit
    // them too (traceAudit.test.ts, personaMemAudit.test.ts).
    rmSync(join(root, 'omnibehavior'), { recursive: true, force: true });
    rmSync(join(root, 'personamem'), { recursive: true, force: true });
    editLine(join(root, 'data/douban_inference_tasks.jsonl'), 1, (r) => (r.bio = `${String(r.bio)}${XSS_BIO}`));
    // Results lines hold Python's bare NaN: edit the text, not a JSON round trip. The first reasoning is step 1's.
    const results = join(root, 'results/demo-llm/inference_results_zhihu.jsonl');
    const [first, ...rest] = readFileSync(results, 'utf8').split('\n');
    writeFileSync(
      results,
      [first!.replace(/"reasoning":\s*"/, '$&该用户留了邮箱 reader.zh@example.org。'), ...rest].join('\n'),
    );
    // The CLI exits 1 when it finds something: read its JSON either way.
    const out = spawnSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'audit', root, '--json'], {
      encoding: 'utf8',
    });
    cli = JSON.parse(out.stdout) as StepAuditReport;
    expect(cli.findings.length).toBe(planted.length + 2);
    wb = await startWorkbench({
      folder: root,
      theme: 'light',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.labels.author': AUTHOR, 'personaLab.audit.autoRun': 'small' },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`audit-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('audits the benchmark by itself (autoRun: small) and shows every category with the CLI counts', async () => {
    await wb.openView('Persona Lab');
    const box = await wb.sideBar.part().boundingBox();
    const sash = wb.sideBar.sash();
    if (box && (await sash.count())) {
      await wb.page.mouse.move(box.x + box.width, box.y + box.height / 2);
      await wb.page.mouse.down();
      await wb.page.mouse.move(box.x + 640, box.y + box.height / 2, { steps: 5 });
      await wb.page.mouse.up();
    }
    await wb.waitForExtensionHostLine(`[info] audit: ${cli.findings.length} finding(s)`, { timeout: 60_000 });
    // Categories with findings start expanded: collapse them all, so that the ten category rows fit.
    await pane().collapseAll();
    // Room for the audit, whatever the other views hold: the PI Audit view alone is expanded.
    await wb.showOnlyView('PI Audit');
    for (const c of PI_CATEGORIES) {
      const row = await categoryRow(c);
      const found = cli.findings.filter((f) => f.category === c).length;
      expect(row.description, c).toBe(`${found} open · ${plural(cli.totals.placeholders[c], 'placeholder')}`);
    }
    // The summary: one fact per row, under the benchmark's name (even alone), and when the audit ran.
    await waitRow('Summary', 1, (r) => /^ran \d{4}-\d\d-\d\d \d\d:\d\d$/.test(r.description), 'when it ran');
    await setExpanded('Summary', 1, true);
    await setExpanded('StreamProfileBench', 2, true, { label: 'Summary', level: 1 });
    const n = cli.findings.length;
    await waitRow('Findings', 3, (r) => r.description === String(n), 'the findings row of the summary');
    await waitRow('Open', 3, (r) => r.description === `${n} (no verdict yet)`, 'the open row of the summary');
    await wb.screenshot('audit-summary-rows');
    await setExpanded('Summary', 1, false);
  });

  it('lists every planted string under its category, platform and user, and no placeholder as a finding', async () => {
    const seen: SeenFinding[] = [];
    for (const c of PI_CATEGORIES)
      if (cli.findings.some((f) => f.category === c)) seen.push(...(await readFindings(c)));
    expect(seen).toHaveLength(cli.findings.length);
    for (const p of planted) {
      const hit = seen.find((s) => s.category === p.category && s.label === p.text);
      expect(hit, `${p.category} ${p.text}`).toBeDefined();
      expect(hit!.user).toBe(p.userId);
      expect(hit!.description.startsWith(p.stepId === null ? 'profile · bio' : `step ${p.stepId} · posts_text`)).toBe(
        true,
      );
    }
    for (const s of seen) expect(s.label, 'a placeholder shown as a finding').not.toMatch(PLACEHOLDER);
    const fromRun = seen.find((s) => s.label === 'reader.zh@example.org');
    expect(fromRun?.description).toBe('run demo-llm · step 1 · reasoning · high');
    // Per-platform counts of one category: placeholders and findings, as the CLI counts them.
    await setExpanded(CATEGORY_INFO.PLATE.label, 1, true);
    for (const p of ['weibo', 'douban'] as const) {
      const ph = cli.counts
        .filter((r) => r.category === 'PLATE' && r.platform === p)
        .reduce((s, r) => s + r.placeholders, 0);
      const found = cli.findings.filter((f) => f.category === 'PLATE' && f.platform === p).length;
      await waitRow(
        PLATFORM_LABELS[p],
        2,
        (r) => r.description === `${found} open · ${plural(ph, 'placeholder')}`,
        `PLATE on ${p}: ${found} open, ${ph} placeholders`,
      );
    }
    await setExpanded(CATEGORY_INFO.PLATE.label, 1, false);
  });

  it("a click opens the step view at the finding's step, its span outlined and in view", async () => {
    const phone = planted.find((p) => p.category === 'PHONE')!;
    await setExpanded(CATEGORY_INFO.PHONE.label, 1, true);
    await setExpanded(PLATFORM_LABELS.weibo, 2, true, { label: CATEGORY_INFO.PHONE.label, level: 1 });
    await setExpanded(phone.userId, 3, true);
    await rowLocator(phone.text, 4).click();
    const frame = await wb.findWebviewFrame(`#step-root[data-step="weibo/${phone.userId}/${phone.stepId}"]`, {
      timeout: 60_000,
    });
    const seen = await outlinedFinding(frame, phone.text);
    // In a post of the batch, on the purple PI mark the step view draws itself.
    expect(seen.area).toBe('batch');
    expect(seen.category).toBe('PHONE');
    // The legend's chip of a finding holds its whole wavy underline inside its own box (it was cut off).
    const chip = await frame.locator('.pi-legend mark.pi-finding').evaluate((m) => {
      const s = getComputedStyle(m);
      const r = m.getBoundingClientRect();
      const legend = m.closest('.pi-legend')!.getBoundingClientRect();
      return {
        display: s.display,
        room: parseFloat(s.paddingBottom) - parseFloat(s.textUnderlineOffset),
        inside: r.bottom <= legend.bottom,
      };
    });
    expect(chip.display).toBe('inline-block');
    expect(chip.room).toBeGreaterThanOrEqual(3);
    expect(chip.inside).toBe(true);
    await wb.screenshot('audit-step-highlight');
  });

  it("a bio's finding opens the user's first step with the bio shown whole and the span outlined", async () => {
    const bio = cli.findings.find((f) => f.text === '13912345678')!;
    await setExpanded(CATEGORY_INFO.PHONE.label, 1, true);
    await setExpanded(PLATFORM_LABELS.douban, 2, true, { label: CATEGORY_INFO.PHONE.label, level: 1 });
    await setExpanded(bio.userId, 3, true);
    await rowLocator(bio.text, 4).click();
    const frame = await wb.findWebviewFrame(`#step-root[data-step="douban/${bio.userId}/1"]`, { timeout: 60_000 });
    const seen = await outlinedFinding(frame, bio.text);
    expect(seen.area).toBe('bio');
    await setExpanded(PLATFORM_LABELS.douban, 2, false, { label: CATEGORY_INFO.PHONE.label, level: 1 });
  });

  it("a reasoning's finding opens its step in the finding's run with the span outlined", async () => {
    const email = cli.findings.find((f) => f.text === 'reader.zh@example.org')!;
    await setExpanded(CATEGORY_INFO.PHONE.label, 1, false);
    await setExpanded(CATEGORY_INFO.EMAIL.label, 1, true);
    await setExpanded(PLATFORM_LABELS.zhihu, 2, true, { label: CATEGORY_INFO.EMAIL.label, level: 1 });
    await setExpanded(email.userId, 3, true);
    await rowLocator(email.text, 4).click();
    const frame = await wb.findWebviewFrame(
      `#step-root[data-step="zhihu/${email.userId}/${email.stepId}"][data-run="demo-llm"]`,
      { timeout: 60_000 },
    );
    const seen = await outlinedFinding(frame, email.text);
    expect(seen.area).toBe('reasoning');
    await wb.screenshot('audit-step-highlight-reasoning');
    await setExpanded(CATEGORY_INFO.EMAIL.label, 1, false);
  });

  it('Open Finding in File (context menu) opens the line pretty-printed with the span selected', async () => {
    const phone = planted.find((p) => p.category === 'PHONE')!;
    await setExpanded(CATEGORY_INFO.PHONE.label, 1, true);
    await setExpanded(PLATFORM_LABELS.weibo, 2, true, { label: CATEGORY_INFO.PHONE.label, level: 1 });
    await setExpanded(phone.userId, 3, true);
    await contextMenu(phone.text, 4, 'Open Finding in File');
    await wb.waitForExtensionHostLine(`audit: opened ${phone.file}:${phone.line} pretty-printed, `);
    await wb.editor.tab(`weibo_inference_tasks.jsonl line ${phone.line}`).first().waitFor({ timeout: 30_000 });
    const status = wb.editor.selection();
    await expect
      .poll(() => status.innerText().catch(() => ''), { timeout: 30_000 })
      .toMatch(new RegExp(`^Ln \\d+, Col \\d+ \\(${phone.text.length} selected\\)$`));
    await wb.screenshot('audit-source');
  });

  it('records verdicts with the author in SQLite; false positives leave the open counts', async () => {
    const phone = planted.find((p) => p.category === 'PHONE')!;
    const phoneCount = cli.findings.filter((f) => f.category === 'PHONE').length;
    await contextMenu(phone.text, 4, 'Confirm Leak');
    await waitRow(phone.text, 4, (r) => r.description.endsWith('· confirmed leak'), 'the finding to show its verdict');
    await waitRow(
      CATEGORY_INFO.PHONE.label,
      1,
      (r) => r.description.startsWith(`${phoneCount - 1} open · 1 confirmed · `),
      'the category to count the confirmed leak',
    );
    await setExpanded(CATEGORY_INFO.PHONE.label, 1, false);

    // The inline action of the BANK finding: hover, click its icon.
    const bank = planted.find((p) => p.category === 'BANK')!;
    await setExpanded(CATEGORY_INFO.BANK.label, 1, true);
    await setExpanded(PLATFORM_LABELS.weibo, 2, true, { label: CATEGORY_INFO.BANK.label, level: 1 });
    await setExpanded(bank.userId, 3, true);
    const row = rowLocator(bank.text, 4);
    await row.hover();
    // Each verdict button says what it does and its key on hover, with a glyph that reads as its verdict.
    const glyphs = await rowActionIcons(row);
    // Words and keys (c, f, r work while the view has focus).
    expect(glyphs).toEqual([
      'Confirm Leak (C): codicon-error',
      'Mark False Positive (F): codicon-pass',
      'Mark Needs Review (R): codicon-question',
    ]);
    await rowActions(row, 'Mark False Positive (F)').click();
    await waitRow(
      bank.text,
      4,
      (r) => r.description.endsWith('· false positive'),
      'the BANK finding to be a false positive',
    );
    const ph = cli.totals.placeholders.BANK;
    await waitRow(
      CATEGORY_INFO.BANK.label,
      1,
      (r) => r.description === `0 open · 1 false positive · ${plural(ph, 'placeholder')}`,
      'BANK: no open finding left',
    );
    const n = cli.findings.length;
    await setExpanded('Summary', 1, true);
    await setExpanded('StreamProfileBench', 2, true, { label: 'Summary', level: 1 });
    await waitRow('Open', 3, (r) => r.description === `${n - 2} (no verdict yet)`, 'the summary to count open ones');
    await waitRow('Confirmed leaks', 3, (r) => r.description === '1', 'the summary to count the confirmed leak');
    await waitRow('False positives', 3, (r) => r.description === '1', 'the summary to count the false positive');
    await setExpanded('Summary', 1, false);

    const db = VerdictStore.open(join(root, '.personalab/audit.db'), { mustExist: true });
    try {
      const trail = db.trail({ benchmark: 'sample' });
      expect(trail.map((r) => [r.verdict, r.category, r.author])).toEqual([
        ['confirmed-leak', 'PHONE', AUTHOR],
        ['false-positive', 'BANK', AUTHOR],
      ]);
      expect(Date.now() - Date.parse(trail[0]!.createdAt)).toBeLessThan(3_600_000);
    } finally {
      db.close();
    }
    // Both verdicts in view for the screenshot: the confirmed phone number above the false-positive card number.
    await setExpanded(CATEGORY_INFO.PHONE.label, 1, true);
    await setExpanded(PLATFORM_LABELS.weibo, 2, true, { label: CATEGORY_INFO.PHONE.label, level: 1 });
    await setExpanded(phone.userId, 3, true);
    await rowLocator(phone.text, 4).waitFor({ state: 'visible', timeout: 30_000 });
    await wb.page.mouse.move(5, 5);
    await wb.screenshot('audit-light');
  });

  it('keeps the verdicts when the audit runs again', async () => {
    const before = wb.logLines().filter((l) => l.includes('[info] audit: ') && l.includes('finding(s) in')).length;
    await wb.runCommand('Persona Lab: Run PI Audit');
    await waitFor(
      () => wb.logLines().filter((l) => l.includes('[info] audit: ') && l.includes('finding(s) in')).length > before,
      {
        timeout: 60_000,
        message: 'a second audit run',
      },
    );
    const bank = planted.find((p) => p.category === 'BANK')!;
    await waitRow(bank.text, 4, (r) => r.description.endsWith('· false positive'), 'the verdict after the re-run');
  });

  it('exports the Markdown and JSON reports with the confirmed leak and the verdict trail', async () => {
    const md = join(tmp, 'report.md');
    await exportTo(md);
    const text = readFileSync(md, 'utf8');
    const phone = planted.find((p) => p.category === 'PHONE')!;
    const leaks = text.slice(text.indexOf('## Confirmed leaks (1)'), text.indexOf('## Findings'));
    expect(leaks).toContain(phone.text);
    expect(leaks).toContain(AUTHOR);
    expect(text).toMatch(/## Verdict trail \(2\)/);
    for (const p of planted) expect(text).toContain(p.text);

    const json = join(tmp, 'report.json');
    await exportTo(json);
    const report = JSON.parse(readFileSync(json, 'utf8')) as StepAuditReport;
    expect(report.confirmedLeaks.map((f) => f.text)).toEqual([phone.text]);
    expect(report.verdictTrail.map((r) => r.verdict)).toEqual(['confirmed-leak', 'false-positive']);
    expect(report.byVerdict['false-positive']).toBe(1);
    expect(report.findings).toHaveLength(cli.findings.length);
  });

  it("shows dataset text in a finding's tooltip as text", async () => {
    await setExpanded(CATEGORY_INFO.PHONE.label, 1, true);
    await setExpanded(PLATFORM_LABELS.douban, 2, true, { label: CATEGORY_INFO.PHONE.label, level: 1 });
    const user = cli.findings.find((f) => f.text === '13912345678')!.userId;
    await setExpanded(user, 3, true);
    await rowName(rowLocator('13912345678', 4)).hover();
    const hover = wb.hover('not bold');
    await hover.waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await hover.innerText()).replace(/\u00a0/g, ' ');
    expect(text).toContain('<img src=x onerror="globalThis.__plAuditXss=1">');
    expect(text).toContain('**not bold**');
    expect(await hover.locator('img').count()).toBe(0);
    expect(await wb.page.evaluate(() => (globalThis as Record<string, unknown>).__plAuditXss)).toBeUndefined();
    await wb.screenshot('audit-tooltip');
    await wb.page.mouse.move(5, 5);
  });
});

describe('PI Audit view with autoRun never', () => {
  let wb: Workbench;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-audit-default-'));
    cpSync(join(repoRoot, 'sample'), join(tmp, 'sample'), { recursive: true });
    // The manual flow: the default (`small`) would audit the sample by itself.
    wb = await startWorkbench({ folder: join(tmp, 'sample'), settings: { 'personaLab.audit.autoRun': 'never' } });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await wb?.screenshot(`audit-default-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('waits for Run PI Audit in the view title, then lists the findings; no verdict database is created by reading', async () => {
    await wb.showOnlyView('PI Audit');
    const view = auditPane(wb);
    await expect
      .poll(
        () =>
          view
            .message()
            .innerText()
            .catch(() => ''),
        { timeout: 60_000 },
      )
      .toContain('Not audited yet');
    expect(await view.rows().count()).toBe(0);
    // The title actions show on hover, and a context key set meanwhile can re-render them under the pointer: hover
    // again until the click lands.
    const run = view.action('Run PI Audit');
    await waitFor(
      async () => {
        await view.header().hover();
        return run.click({ timeout: 2_000 }).then(
          () => true,
          () => false,
        );
      },
      { timeout: 30_000, message: 'the Run PI Audit title action to take a click' },
    );
    // Both benchmarks of the sample, each named in the summary with its facts.
    await waitFor(
      async () => {
        const rows = await auditRows(wb);
        const under = (name: string) => {
          const i = rows.findIndex((r) => r.level === 2 && r.label === name);
          return i >= 0 && rows[i + 1]?.level === 3 && rows[i + 1]?.label === 'Findings';
        };
        return under('StreamProfileBench') && under('OmniBehavior');
      },
      { timeout: 60_000, message: 'both benchmarks in the summary rows' },
    );
    // Folded, so that the categories below it are in view in a short pane.
    await twistie(view.row('Summary', 1).first()).click();
    const phone = view.row('Phone', 1);
    await phone.first().waitFor({ state: 'visible', timeout: 30_000 });
    expect(existsSync(join(tmp, 'sample/.personalab/audit.db'))).toBe(false);
  });
});
