// `persona-lab audit --db postgres://…`: the verdicts read from a label server (password from PGPASSWORD) give the
// same report as a verdict file holding the same verdicts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runAuditCommand, type AuditCliOptions } from '../../src/cli/audit';
import type { CliIo } from '../../src/cli/labelsIo';
import { auditBenchmark } from '../../src/core/spb/pi/audit';
import { ServerVerdictStore } from '../../src/core/pi/server/store';
import { openVerdictReplica, VerdictSync } from '../../src/core/pi/server/sync';
import { loadBenchmark } from '../../src/core/spb/format/load';
import { createTestDatabase, describePg } from '../support/pg';
import { SAMPLE } from '../support/committedSample';

const dir = mkdtempSync(join(tmpdir(), 'pl-pi-server-cli-'));

async function cli(args: string[], opts: AuditCliOptions = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { write: (t) => out.push(t), out: (t) => out.push(t + '\n'), err: (t) => err.push(t + '\n') };
  const code = await runAuditCommand(args, opts, io);
  return { code, out: out.join(''), err: err.join('') };
}

describePg('audit --db with a label server', () => {
  let url: string;
  let bare: string;
  let drop: () => Promise<void>;
  const file = join(dir, 'verdicts.db');

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('pi_verdict_cli'));
    const u = new URL(url);
    process.env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
    bare = u.toString();
    // Two people give verdicts in their own replicas; `file` is the first one's, holding everyone's once synced.
    const bench = await loadBenchmark(SAMPLE, { runs: [] });
    const [phone, ...rest] = (await auditBenchmark(bench, { runs: [] })).findings;
    const mine = openVerdictReplica(file, url);
    const theirs = openVerdictReplica(join(dir, 'theirs.db'), url);
    const syncs = [mine, theirs].map((r) => new VerdictSync(r.outbox, () => ServerVerdictStore.open(url)));
    try {
      const at = (day: number) => `2025-01-0${day}T00:00:00Z`;
      mine.store.record({
        benchmark: 'sample',
        target: phone,
        verdict: 'needs-review',
        author: 'alice',
        createdAt: at(1),
      });
      for (const f of rest)
        mine.store.record({
          benchmark: 'sample',
          target: f,
          verdict: 'false-positive',
          author: 'alice',
          createdAt: at(2),
        });
      await syncs[0].sync();
      theirs.store.record({
        benchmark: 'sample',
        target: phone,
        verdict: 'confirmed-leak',
        author: 'bob',
        note: 'planted',
        createdAt: at(3),
      });
      theirs.store.record({
        benchmark: 'other',
        target: phone,
        verdict: 'false-positive',
        author: 'bob',
        createdAt: at(4),
      });
      expect((await syncs[1].sync()).pending).toBe(0);
      expect((await syncs[0].sync()).pulled).toBe(2);
    } finally {
      for (const s of syncs) await s.close();
      mine.store.close();
      theirs.store.close();
    }
  });
  afterAll(async () => {
    delete process.env.PGPASSWORD;
    await drop();
  });

  it('reads the verdicts from the server (password from PGPASSWORD) and reports as from the file', async () => {
    expect(bare).not.toMatch(/:[^@/]+@/);
    const fromFile = await cli([SAMPLE], { db: file, json: true });
    const fromServer = await cli([SAMPLE], { db: bare, json: true });
    expect(fromServer.err).toBe('');
    expect(fromServer.code).toBe(1);
    // The same report but the time it was made.
    const timeless = (json: string) => json.replace(/"generatedAt":"[^"]*"/, '');
    expect(timeless(fromServer.out)).toBe(timeless(fromFile.out));
    const report = JSON.parse(fromServer.out) as { verdictTrail: { id: number; author: string }[] };
    expect(report.verdictTrail.map((v) => v.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(report.verdictTrail.map((v) => v.author)).toEqual([...Array(7).fill('alice'), 'bob']);
    const text = await cli([SAMPLE], { db: bare });
    expect(text.out).toBe((await cli([SAMPLE], { db: file })).out);
    expect(text.out).toContain('[PHONE/high] 13800138000 (confirmed-leak)');
    const md = join(dir, 'report.md');
    await cli([SAMPLE], { db: bare, out: md });
    expect(readFileSync(md, 'utf8')).toContain('## Verdict trail (8)');
  });

  it('says why when the server cannot be used, and exits 1', async () => {
    const r = await cli([SAMPLE], { db: 'postgres://nobody@127.0.0.1:1/none' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^persona-lab: cannot reach the label server nobody@127\.0\.0\.1:1\/none/);
    expect(r.out).toBe('');
  });
});
