// PI carried through the chain in the workbench, on a sample whose demo-llm personas copy a post's
// phone number and write an e-mail address of the model's own (test/fixtures/personaPi.ts): the PI Audit groups each
// value's persona findings under one chain row that says where it entered and where it was carried, as the CLI's
// `audit --json` does, and the step view's tooltip on the persona's finding names the chain.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chainShort } from '../../src/core/spb/pi/chains';
import type { StepAuditReport } from '../../src/core/spb/pi/audit';
import { MODEL_EMAIL, MODEL_USER, PHONE_USER, writePersonaPi } from '../fixtures/personaPi';
import { auditPage } from './auditPage';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { rowName } from './support/sideBar';

describe('PI chains in the PI Audit view and the step view', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let cli: StepAuditReport;
  const { pane, setExpanded, waitRow } = auditPage(
    () => wb,
    () => cli,
  );

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-chains-'));
    root = join(tmp, 'sample');
    writePersonaPi(join(repoRoot, 'sample'), root);
    // The chains are StreamProfileBench's: the sample's other benchmarks stay out of this workspace.
    rmSync(join(root, 'omnibehavior'), { recursive: true, force: true });
    rmSync(join(root, 'personamem'), { recursive: true, force: true });
    const out = spawnSync(process.execPath, [join(repoRoot, 'dist/cli.js'), 'audit', root, '--json'], {
      encoding: 'utf8',
    });
    cli = JSON.parse(out.stdout) as StepAuditReport;
    expect(cli.chains).toHaveLength(2);
    wb = await startWorkbench({
      folder: root,
      theme: 'light',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.audit.autoRun': 'small' },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await wb?.screenshot(`piChains-FAILED-${ctx.task.name}`).catch(() => {});
  });

  afterAll(async () => {
    await wb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('groups the persona findings of each value under its chain, as audit --json gives it', async () => {
    await wb.openView('Persona Lab');
    await wb.waitForExtensionHostLine(`[info] audit: ${cli.findings.length} finding(s)`, { timeout: 60_000 });
    await pane().collapseAll();
    await wb.showOnlyView('PI Audit');
    for (const [category, platform, user] of [
      ['Phone', 'Weibo', PHONE_USER],
      ['E-mail', 'Douban', MODEL_USER],
    ]) {
      await setExpanded(category, 1, true);
      await setExpanded(platform, 2, true, { label: category, level: 1 });
      await setExpanded(user, 3, true);
      const chain = cli.chains!.find((c) => c.userId === user)!;
      const row = await waitRow(chain.text, 4, (r) => r.description === chainShort(chain), `the chain row of ${user}`);
      expect(row.expanded).toBe('true');
      await wb.screenshot(`pi-chain-${user}`);
      await setExpanded(category, 1, false);
    }
    expect(cli.chains!.find((c) => c.userId === MODEL_USER)!.text).toBe(MODEL_EMAIL);
  });

  it('keys record verdicts in the PI Audit view and walk to the next open finding', async () => {
    await setExpanded('Phone', 1, true);
    await setExpanded('Weibo', 2, true, { label: 'Phone', level: 1 });
    await setExpanded(PHONE_USER, 3, true);
    const chain = cli.chains!.find((c) => c.userId === PHONE_USER)!;
    const first = pane().rows({ level: 5 }).first();
    await first.click();
    const selected = async () => (await rowName(pane().selectedRow()).first().textContent()) ?? '';
    const label = await selected();
    await pane().press('c');
    await waitRow(label, 5, (r) => r.description.endsWith('· confirmed leak'), 'the finding confirmed by its key');
    // The selection moved on to the next finding without a verdict.
    await waitFor(async () => (await selected()) !== label, { timeout: 30_000, message: 'the next open finding' });
    const second = await selected();
    await pane().press('f');
    await waitRow(second, 5, (r) => r.description.endsWith('· false positive'), 'the second finding marked by f');
    await waitRow(
      PHONE_USER,
      3,
      (r) => r.description.includes('1 confirmed') && r.description.includes('1 false positive'),
      'the user row to count both verdicts',
    );
    expect(chain.findings).toHaveLength(2);
    await wb.screenshot('pi-audit-keys');
  });

  it("the step view's tooltip on a persona's finding names its chain", async () => {
    await wb.runWithPicks('Persona Lab: Open Step', [PHONE_USER, 'step 3/3']);
    const frame = await wb.findWebviewFrame(`#step-root[data-step="weibo/${PHONE_USER}/3"]`, { timeout: 60_000 });
    const chain = cli.chains!.find((c) => c.userId === PHONE_USER)!;
    const titles = await waitFor(
      async () => {
        const t = await frame
          .locator('.persona-box mark')
          .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
        return t.length ? t : undefined;
      },
      { timeout: 30_000, message: 'the persona marks' },
    );
    const named = titles.filter((t) => t.includes(`In the personas: ${chain.description}`));
    // The received persona (step 2's) and the written one (step 3's) each hold the number.
    expect(named.length, titles.join('\n')).toBeGreaterThanOrEqual(2);
  });
});
