// The PI Audit on a PersonaMem folder in the real workbench, on a copy of sample/personamem (whose generator plants
// three invented contact details): the view lists each finding under its category → PersonaMem → split → context,
// a click opens the question view at the first question whose history holds the message, with the message revealed,
// its history row flagged and the value outlined, while the focus stays in the PI Audit view, so that a verdict key
// records on the finding; the CLI's audit report reads the verdict back. Open Finding in File opens a message's
// context line pretty-printed with the value selected.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditPersonaMem, type PmAuditFinding, type PmAuditResult } from '../../src/core/personamem/audit';
import { personaMem } from '../../src/core/personamem/format';
import type { PersonaMemBench } from '../../src/core/personamem/types';
import { CATEGORY_INFO } from '../../src/core/pi/placeholders';
import { contextLabel } from '../../src/extension/benchmarks/personamem/audit/model';
import { auditPage, outlinedFinding } from './auditPage';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';

const AUTHOR = 'e2e-pmem-auditor';

describe('PI Audit on a PersonaMem folder in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let audit: PmAuditResult;
  let mail: PmAuditFinding;
  // The page object's readFindings reads a StreamProfileBench report: the rows here are PersonaMem's.
  const { pane, setExpanded, waitRow, rowLocator, contextMenu } = auditPage(
    () => wb,
    () => {
      throw new Error('not a StreamProfileBench audit');
    },
  );
  /** Expands the finding's category, PersonaMem, split and context rows. */
  const openRows = async (f: PmAuditFinding) => {
    const category = CATEGORY_INFO[f.category].label;
    await setExpanded(category, 1, true);
    await setExpanded('PersonaMem', 2, true, { label: category, level: 1 });
    await setExpanded(`split ${f.split}`, 3, true, { label: 'PersonaMem', level: 2 });
    await setExpanded(contextLabel(f), 4, true, { label: `split ${f.split}`, level: 3 });
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'pl-pmem-audit-'));
    root = join(tmp, 'personamem');
    cpSync(join(repoRoot, 'sample/personamem'), root, { recursive: true });
    audit = await auditPersonaMem((await personaMem.load(root)).bench as PersonaMemBench);
    expect(audit.findings.map((f) => f.part).sort()).toEqual(['history', 'history', 'question']);
    mail = audit.findings.find((f) => f.category === 'EMAIL')!;
    expect(mail.questionId).not.toBeNull();
    wb = await startWorkbench({
      folder: root,
      theme: 'dark',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.labels.author': AUTHOR, 'personaLab.audit.autoRun': 'never' },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`pmemAudit-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('lists every finding under its category, PersonaMem, split and context', async () => {
    await wb.showOnlyView('PI Audit');
    await waitFor(async () => ((await pane().message().textContent()) ?? '').startsWith('Not audited yet'), {
      timeout: 60_000,
      message: 'the PersonaMem folder to load',
    });
    await wb.runCommand('Persona Lab: Run PI Audit');
    await wb.waitForExtensionHostLine(`[info] audit (personamem): ${audit.findings.length} finding(s)`, {
      timeout: 120_000,
    });
    await pane().collapseAll();
    for (const f of audit.findings) {
      await openRows(f);
      const where = f.messageIndex !== null ? `message #${f.messageIndex}` : f.part;
      await waitRow(f.text, 5, (r) => r.description.startsWith(`${where} · ${f.confidence}`), `${f.text} listed`);
      await setExpanded(CATEGORY_INFO[f.category].label, 1, false);
    }
    await wb.screenshot('pmemAudit-view');
  });

  it('a click opens the question whose history holds the message, the message revealed and the value outlined', async () => {
    await openRows(mail);
    await rowLocator(mail.text, 5).click();
    const frame = await wb.findWebviewFrame(`#question-root[data-question="${mail.questionId}"]`, {
      timeout: 60_000,
    });
    const detail = frame.locator('.message-detail');
    await waitFor(async () => (await detail.getAttribute('data-index')) === String(mail.messageIndex), {
      timeout: 30_000,
      message: `message #${mail.messageIndex} to open`,
    });
    const seen = await outlinedFinding(frame, mail.text);
    expect(seen.category).toBe('EMAIL');
    expect(seen.area).toBe('history');
    // Its history row carries the PI flag, and the PI section lists the audit's findings in this question.
    expect(await frame.locator(`.vrow.pi-flagged[data-index="${mail.messageIndex}"]`).count()).toBe(1);
    const pi = frame.locator('div.pi');
    expect(await pi.getAttribute('data-state')).toBe('audited');
    const listed = await pi.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.children[3]?.textContent));
    expect(listed).toContain(mail.text);
    await wb.screenshot('pmemAudit-question');
  });

  it('the focus stayed in the PI Audit view: c records a confirmed leak, which the CLI report reads back', async () => {
    await pane().press('c');
    await waitRow(mail.text, 5, (r) => r.description.endsWith('· confirmed leak'), 'the verdict by its key');
    const out = spawnSync(
      process.execPath,
      [join(repoRoot, 'dist/cli.js'), 'audit', root, '--json', '--db', join(root, '.personalab/audit.db')],
      { encoding: 'utf8' },
    );
    const report = JSON.parse(out.stdout) as {
      benchmarkFormat?: string;
      confirmedLeaks: { text: string; file: string; line: number; verdictBy: string }[];
    };
    expect(report.benchmarkFormat).toBe('personamem');
    expect(report.confirmedLeaks.map((f) => [f.text, f.file, f.line, f.verdictBy])).toEqual([
      [mail.text, mail.file, mail.line, AUTHOR],
    ]);
  });

  it("Open Finding in File opens the message's context line pretty-printed, the value selected", async () => {
    const phone = audit.findings.find((f) => f.category === 'PHONE')!;
    await openRows(phone);
    await contextMenu(phone.text, 5, 'Open Finding in File');
    await wb.waitForExtensionHostLine(`audit: opened ${phone.file}:${phone.line} pretty-printed, ${phone.field} `);
    await wb.editor.tab(`${phone.file} line ${phone.line}`).first().waitFor({ timeout: 30_000 });
    await expect
      .poll(
        () =>
          wb.editor
            .selection()
            .innerText()
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toMatch(new RegExp(`^Ln \\d+, Col \\d+ \\(${phone.text.length} selected\\)$`));
    await setExpanded(CATEGORY_INFO.PHONE.label, 1, false);
  });
});
