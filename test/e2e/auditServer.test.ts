// PI audit verdicts on a team's label server in the real workbench (a throwaway PostgreSQL cluster): with
// personaLab.labels.server set and the password given through Set Label Server Password, the audit shows a
// colleague's verdict from the server, sends its own there, and shows the colleague's next one within a poll; the
// verdicts live in the replica beside the label replica, not in .personalab/audit.db.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findPgBin, installHint, startCluster, stopCluster, TEST_PASSWORD } from '../../scripts/pg-cluster.mjs';
import { auditBenchmark, type AuditFinding } from '../../src/core/spb/pi/audit';
import { CATEGORY_INFO } from '../../src/core/pi/placeholders';
import type { StepAuditReport } from '../../src/core/spb/pi/audit';
import { ServerVerdictStore } from '../../src/core/pi/server/store';
import { openVerdictReplica, VerdictSync } from '../../src/core/pi/server/sync';
import type { Verdict } from '../../src/core/pi/verdicts';
import { PLATFORM_LABELS } from '../../src/core/spb/score/tables';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { repoRoot, startWorkbench, waitFor, type Workbench } from './harness';
import { auditPage } from './auditPage';

const AUTHOR = 'e2e-auditor';

const noPg = !findPgBin();
if (noPg && process.env.PERSONA_LAB_REQUIRE_PG === '1')
  throw new Error(`PERSONA_LAB_REQUIRE_PG=1 but no PostgreSQL server binaries were found; ${installHint()}`);

describe.skipIf(noPg)('PI audit verdicts on a label server in the real workbench', () => {
  let wb: Workbench;
  let tmp: string;
  let root: string;
  let cluster: { dir: string; url: string };
  let bare: string;
  let phone: AuditFinding;
  let bank: AuditFinding;
  const { rowLocator, setExpanded, waitRow, contextMenu } = auditPage(
    () => wb,
    () => ({}) as StepAuditReport,
  );

  /** A colleague's verdict, given in their own replica and sent to the server. */
  const colleague = async (target: AuditFinding, verdict: Verdict) => {
    const { store, outbox } = openVerdictReplica(join(tmp, 'bob.db'), cluster.url);
    const sync = new VerdictSync(outbox, () => ServerVerdictStore.open(cluster.url));
    try {
      store.record({ benchmark: 'sample', target, verdict, author: 'bob' });
      expect((await sync.sync()).pending).toBe(0);
    } finally {
      await sync.close();
      store.close();
    }
  };

  const serverTrail = async () => {
    const server = await ServerVerdictStore.open(cluster.url);
    try {
      return (await server.trail({ benchmark: 'sample' })).map((v) => [v.author, v.verdict, v.category]);
    } finally {
      await server.close();
    }
  };

  const open = async (f: AuditFinding) => {
    await setExpanded(CATEGORY_INFO[f.category].label, 1, true);
    await setExpanded(PLATFORM_LABELS[f.platform], 2, true, { label: CATEGORY_INFO[f.category].label, level: 1 });
    await setExpanded(f.userId, 3, true);
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'persona-lab-audit-server-'));
    root = join(tmp, 'sample');
    cpSync(join(repoRoot, 'sample'), root, { recursive: true });
    rmSync(join(root, 'omnibehavior'), { recursive: true, force: true });
    rmSync(join(root, 'personamem'), { recursive: true, force: true });
    const findings = (await auditBenchmark(await loadBenchmark(root, { runs: [] }), { runs: [] })).findings;
    phone = findings.find((f) => f.category === 'PHONE')!;
    bank = findings.find((f) => f.category === 'BANK')!;
    cluster = await startCluster();
    const u = new URL(cluster.url);
    u.password = '';
    bare = u.toString();
    await colleague(bank, 'false-positive');
    // In the workspace's settings: code-server's window is a remote one, where a machine-overridable setting
    // (personaLab.labels.server) in the local user settings is not applied. The URL has no password: it is given
    // through Set Label Server Password, into the secret storage.
    mkdirSync(join(root, '.vscode'), { recursive: true });
    writeFileSync(
      join(root, '.vscode', 'settings.json'),
      JSON.stringify({ 'personaLab.labels.author': AUTHOR, 'personaLab.labels.server': bare }, null, 2),
    );
    // Its own code-server (not the shared one): the extension host's environment must not hold a PGPASSWORD.
    wb = await startWorkbench({
      folder: root,
      theme: 'light',
      viewport: { width: 1600, height: 1000 },
      settings: { 'personaLab.audit.autoRun': 'small' },
      // The password comes from the secret storage only.
      env: { PGPASSWORD: '' },
    });
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await wb?.screenshot(`audit-server-FAILED-${ctx.task.name}`).catch(() => {});
    console.log(wb?.logLines().join('\n'));
  });

  afterAll(async () => {
    await wb?.close();
    if (cluster) stopCluster(cluster.dir, { remove: true });
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("shows a colleague's verdict from the server, sends its own, and shows the colleague's next one", async () => {
    // The extension's commands are in the palette once its view container has opened.
    await wb.openView('Persona Lab');
    await wb.quick.startCommand('Persona Lab: Set Label Server Password');
    const box = wb.quick.passwordInput();
    await box.waitFor({ timeout: 30_000 });
    await box.fill(TEST_PASSWORD);
    await box.press('Enter');
    await wb.showOnlyView('PI Audit');
    await wb.waitForExtensionHostLine(
      /verdicts on the label server postgres@127\.0\.0\.1:\d+\/\w+: online, every verdict sent/,
      {
        timeout: 60_000,
      },
    );
    await open(bank);
    await waitRow(bank.text, 4, (r) => r.description.endsWith('· false positive'), "bob's verdict from the server");
    await setExpanded(CATEGORY_INFO.BANK.label, 1, false);

    await open(phone);
    await contextMenu(phone.text, 4, 'Confirm Leak');
    await waitRow(phone.text, 4, (r) => r.description.endsWith('· confirmed leak'), 'the verdict given here');
    await waitFor(async () => (await serverTrail()).length === 2, {
      timeout: 30_000,
      message: () => `the verdict on the server (log: ${wb.logLines().join(' | ')})`,
    });
    expect(await serverTrail()).toEqual([
      ['bob', 'false-positive', 'BANK'],
      [AUTHOR, 'confirmed-leak', 'PHONE'],
    ]);
    const personalab = readdirSync(join(root, '.personalab'));
    expect(personalab.filter((n) => /^verdicts-server-[0-9a-f]{12}\.db$/.test(n))).toHaveLength(1);
    expect(existsSync(join(root, '.personalab/audit.db'))).toBe(false);

    // Bob changes his mind about the phone number: the window's next poll shows it.
    await colleague(phone, 'false-positive');
    await waitRow(phone.text, 4, (r) => r.description.endsWith('· false positive'), "bob's later verdict");
    await rowLocator(phone.text, 4).waitFor({ state: 'visible', timeout: 30_000 });
    await wb.page.mouse.move(5, 5);
    await wb.screenshot('audit-server');
  });
});
