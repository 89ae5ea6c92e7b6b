// The PI Audit view on an OmniBehavior benchmark in the real workbench, on a fresh copy of sample/omnibehavior: the
// view lists exactly the planted strings of pi-manifest.json (category → OmniBehavior → user → finding), a click opens
// the trace view at the finding's test action with its history record revealed and the finding outlined in it (the
// trace's PI section lists the audit's findings instead of offering a scan), and a verdict recorded in the view is
// read back through the CLI's audit report (which audits the folder itself and joins the verdict database).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_INFO, type PiCategory } from '../../src/core/pi/placeholders';
import { auditPane, auditRows, outlinedFinding, type Row } from './auditPage';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { escapeRegExp } from './support/quickInput';
import { rowDescription, twistie } from './support/sideBar';

const AUTHOR = 'e2e-trace-auditor';

interface Planted {
  category: PiCategory;
  text: string;
  file: string;
  line: number;
  userId: string;
  recordIndex: number | null;
  testAction: number;
}

describe('PI Audit view on OmniBehavior traces in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  const planted = (
    JSON.parse(readFileSync(join(repoRoot, 'sample/omnibehavior/pi-manifest.json'), 'utf8')) as { planted: Planted[] }
  ).planted;
  const phone = planted.find((p) => p.category === 'PHONE' && p.recordIndex !== null && p.recordIndex < p.testAction)!;

  const pane = () => auditPane(wb);
  const rows = () => auditRows(wb);

  /** Expands the row `label` at `level` that lies below the row `under` (by index; -1: anywhere). */
  async function expand(label: string, level: number, under = -1): Promise<Row> {
    return waitFor(
      async () => {
        const all = await rows();
        const r = all.find((x) => x.level === level && x.label === label && x.index > under);
        if (!r) return undefined;
        if (r.expanded === 'true') return r;
        await twistie(pane().rowAt(r.index)).click();
        return undefined;
      },
      { timeout: 30_000, message: `${label} to expand` },
    );
  }

  /** The rows one level below `parent`, up to the next row at its level or above. */
  async function childrenOf(parent: Row): Promise<Row[]> {
    const all = await rows();
    const out: Row[] = [];
    for (const r of all.filter((x) => x.index > parent.index)) {
      if (r.level <= parent.level) break;
      if (r.level === parent.level + 1) out.push(r);
    }
    return out;
  }

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'pl-trace-audit-'));
    root = join(tmp, 'omnibehavior');
    cpSync(join(repoRoot, 'sample/omnibehavior'), root, { recursive: true });
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: {
        'personaLab.labels.author': AUTHOR,
        'personaLab.audit.minConfidence': 'medium',
        'personaLab.audit.autoRun': 'never',
      },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`traceAudit-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('lists exactly the planted findings, by category, OmniBehavior and user', async () => {
    await wb.showOnlyView('PI Audit');
    // Once the OmniBehavior benchmark has loaded, the view offers the audit (and the palette lists it).
    await waitFor(async () => ((await pane().message().textContent()) ?? '').startsWith('Not audited yet'), {
      timeout: 60_000,
      message: 'the benchmark to load',
    });
    await wb.runCommand('Persona Lab: Run PI Audit');
    await wb.waitForExtensionHostLine(`[info] audit (omnibehavior): ${planted.length} finding(s)`, {
      timeout: 120_000,
    });
    // Categories with findings start expanded: fold them all, then open one at a time.
    await pane().collapseAll();
    const seen: string[] = [];
    for (const category of [...new Set(planted.map((p) => p.category))]) {
      const cat = await expand(CATEGORY_INFO[category].label, 1);
      const omni = await expand('OmniBehavior', 2, cat.index);
      const want = planted.filter((p) => p.category === category);
      expect(omni.description).toMatch(new RegExp(`^${want.length} open · `));
      for (const userId of [...new Set(want.map((p) => p.userId))]) {
        const user = await expand(userId, 3, omni.index);
        const n = want.filter((p) => p.userId === userId).length;
        const kids = await waitFor(
          async () => {
            const k = await childrenOf(user);
            return k.length === n ? k : undefined;
          },
          { timeout: 30_000, message: `${n} finding(s) of ${category}/${userId}` },
        );
        for (const k of kids) {
          const p = want.find(
            (x) => x.userId === userId && x.text === k.label && k.description.includes(`#${x.testAction}`),
          );
          expect(p, `${category}/${userId}/${k.label} ${k.description}`).toBeDefined();
          if (p!.recordIndex !== null && p!.recordIndex < p!.testAction)
            expect(k.description).toContain(`history ${p!.recordIndex}`);
          seen.push(`${category}/${userId}/${k.label}/${p!.testAction}`);
        }
      }
      // The list is virtualised and the pane short: fold the category again before the next.
      await twistie(pane().rowAt(cat.index)).click();
    }
    expect(seen.sort()).toEqual(planted.map((p) => `${p.category}/${p.userId}/${p.text}/${p.testAction}`).sort());
    await wb.screenshot('traceAudit-view');
  });

  it('a click opens the trace at the test action with the history record revealed and the finding outlined', async () => {
    const cat = await expand(CATEGORY_INFO.PHONE.label, 1);
    const omni = await expand('OmniBehavior', 2, cat.index);
    await expand(phone.userId, 3, omni.index);
    const row = pane()
      .row(new RegExp(escapeRegExp(phone.text)), 4)
      .first();
    await row.click();
    const frame = await wb.findWebviewFrame(`#trace-root[data-trace="${phone.userId}#${phone.testAction}"]`, {
      timeout: 60_000,
    });
    const detail = frame.locator('.record-detail');
    await waitFor(async () => (await detail.getAttribute('data-index')) === String(phone.recordIndex), {
      timeout: 30_000,
      message: `record ${phone.recordIndex} to show`,
    });
    expect(await detail.textContent()).toContain(phone.text);
    await waitFor(async () => (await frame.locator(`.vrow.opened[data-record="${phone.recordIndex}"]`).count()) === 1, {
      message: 'the record’s row to be highlighted',
    });
    await waitFor(
      async () => (await frame.locator('.labels-bar').getAttribute('data-target')) === String(phone.recordIndex),
      { message: 'the labels bar to target the record' },
    );
    // The finding, outlined in the record's text and scrolled into view.
    const seen = await outlinedFinding(frame, phone.text);
    expect(seen.area).toBe('timeline');
    expect(await detail.locator('mark.pi-target').getAttribute('data-category')).toBe('PHONE');
    // The PI section lists the audit's findings in this trace (no offer to scan what the audit has flagged).
    const pi = frame.locator('div.pi');
    // The marks in the trace are the audit's, never taken for the PI section.
    expect(await frame.locator('.pi').count()).toBe(1);
    expect(await pi.getAttribute('data-state')).toBe('audited');
    const listed = await pi.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.children[3]?.textContent));
    expect(listed).toContain(phone.text);
    expect(await pi.locator('vscode-button').textContent()).not.toContain('Scan for Personal Information');
    await wb.screenshot('traceAudit-trace');
    await pi.scrollIntoViewIfNeeded();
    await wb.screenshot('traceAudit-trace-pi');
  });

  it('records a verdict that the CLI report reads back', async () => {
    const row = pane()
      .row(new RegExp(escapeRegExp(phone.text)), 4)
      .first();
    await row.click({ button: 'right' });
    await wb.menu.item('Confirm Leak').hover();
    await wb.menu.press('Enter');
    await waitFor(async () => (await rowDescription(row).textContent())?.endsWith('· confirmed leak'), {
      timeout: 30_000,
      message: 'the verdict on the row',
    });
    const out = spawnSync(
      process.execPath,
      [
        join(repoRoot, 'dist/cli.js'),
        'audit',
        root,
        '--json',
        '--min-confidence',
        'medium',
        '--db',
        join(root, '.personalab/audit.db'),
      ],
      { encoding: 'utf8' },
    );
    const report = JSON.parse(out.stdout) as {
      benchmarkFormat?: string;
      confirmedLeaks: { text: string; file: string; line: number; verdictBy: string }[];
    };
    expect(report.benchmarkFormat).toBe('omnibehavior');
    expect(report.confirmedLeaks.map((f) => [f.text, f.file, f.line, f.verdictBy])).toEqual([
      [phone.text, phone.file, phone.line, AUTHOR],
    ]);
    await wb.screenshot('traceAudit-verdict');
  });
});

describe('personaLab.audit.autoRun on an OmniBehavior folder', () => {
  let wb: Workbench;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'pl-trace-autorun-'));
    cpSync(join(repoRoot, 'sample/omnibehavior'), join(tmp, 'omnibehavior'), { recursive: true });
    wb = await startWorkbench({
      folder: join(tmp, 'omnibehavior'),
      settings: { 'personaLab.audit.autoRun': 'small', 'personaLab.audit.minConfidence': 'medium' },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`traceAutoRun-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('audits the traces by itself once the PI Audit view shows, as for StreamProfileBench', async () => {
    const planted = (
      JSON.parse(readFileSync(join(repoRoot, 'sample/omnibehavior/pi-manifest.json'), 'utf8')) as { planted: Planted[] }
    ).planted;
    await wb.showOnlyView('PI Audit');
    await wb.waitForExtensionHostLine(`[info] audit (omnibehavior): ${planted.length} finding(s)`, {
      timeout: 120_000,
    });
    // No one ran the command: the view shows the result, not the "Not audited yet" message.
    await waitFor(
      async () => {
        const message =
          (await auditPane(wb)
            .message()
            .textContent()
            .catch(() => '')) ?? '';
        return !message.startsWith('Not audited yet') && (await auditRows(wb)).length > 0;
      },
      { timeout: 60_000, message: 'the audit result in the view' },
    );
  });
});
