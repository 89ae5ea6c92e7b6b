// `persona-lab labels …` with a postgres:// URL where a database path goes: the same numbers as from a file holding
// the same labels, the password from PGPASSWORD, an import sent once, and the projects' progress.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toJsonl } from '../../src/core/labels/exportImport';
import { goldLine } from '../../src/core/labels/goldFile';
import type { LabelRow } from '../../src/core/labels/model';
import { itemOf, testActionItemOf } from '../../src/core/labels/server/projectItems';
import { LabelQueues } from '../../src/core/labels/server/queue';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { createTestDatabase, describePg } from '../support/pg';
import { labelsCli as cli } from './labelStore-fixture';
import { stepLabel } from '../support/labelRows';

const row = (author: string, stepId: number, label: string, note = ''): LabelRow =>
  stepLabel({ author, stepId, label, note, userId: 'wb_01' });

describePg('labels commands on a label server', () => {
  let url: string;
  let bare: string;
  let drop: () => Promise<void>;
  const dir = mkdtempSync(join(tmpdir(), 'pl-server-cli-'));
  const rows: LabelRow[] = [];
  for (let step = 1; step <= 12; step++) {
    rows.push(row('ann', step, step % 3 ? 'wrong-tag' : 'missed-positive', step === 2 ? 'a note' : ''));
    rows.push(row('bo', step, step % 4 ? 'wrong-tag' : 'missed-positive'));
    if (step % 2) rows.push(row('cy', step, 'wrong-tag'));
  }
  const file = join(dir, 'labels.jsonl');
  writeFileSync(file, toJsonl(rows));

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('label_cli'));
    const u = new URL(url);
    process.env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
    bare = u.toString();
  });
  afterAll(async () => {
    delete process.env.PGPASSWORD;
    await drop();
  });

  it('imports a file into the server (password from PGPASSWORD) once, and reads the same summary as a file', async () => {
    expect(bare).not.toContain(':persona-lab-test@');
    const first = await cli(['import', bare, file]);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain(`${rows.length} new`);
    const again = await cli(['import', bare, file]);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`0 new, ${rows.length} already present`);
    const server = await ServerLabelStore.open(url);
    try {
      expect(await server.count()).toBe(rows.length);
      expect((await server.eventsSince(0, 1000)).length).toBe(1);
    } finally {
      await server.close();
    }
    const local = join(dir, 'same.db');
    expect((await cli(['import', local, file])).code).toBe(0);
    const fromServer = await cli(['summary', bare], { json: true });
    const fromFile = await cli(['summary', local], { json: true });
    expect(fromServer.code).toBe(0);
    expect(JSON.parse(fromServer.out)).toEqual(JSON.parse(fromFile.out));
    expect(Object.keys(JSON.parse(fromServer.out).labelAgreement[0].perLabel)).toEqual([
      'missed-positive',
      'wrong-tag',
    ]);
    const exported = await cli(['export', bare]);
    expect(exported.out.trim().split('\n')).toHaveLength(rows.length);
  });

  it('leaves out of an export a server row larger than any label can be, and names it', async () => {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      // A client that ignores our limits wrote a 200 kB note straight into the table.
      await c.query("UPDATE labels SET note = repeat('x', 200000) WHERE author = 'cy' AND step_id = 1");
    } finally {
      await c.end();
    }
    const exported = await cli(['export', bare]);
    expect(exported.out.trim().split('\n')).toHaveLength(rows.length - 1);
    expect(exported.out.length).toBeLessThan(20_000);
    expect(exported.err).toMatch(/left out label \d+ by cy: it takes \d+ bytes, more than the 65536 a label can need/);
  });

  it('says why when the server refuses the login, naming it without the password', async () => {
    process.env.PGPASSWORD = 'wrong';
    try {
      const r = await cli(['summary', bare]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/refused the login/);
      expect(r.err).not.toContain('wrong');
    } finally {
      process.env.PGPASSWORD = decodeURIComponent(new URL(url).password);
    }
  });

  it('says that a password is needed when none is given', async () => {
    delete process.env.PGPASSWORD;
    try {
      const r = await cli(['export', bare]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/asks for a password and none was given; set it \(PGPASSWORD/);
      // The extension's way: the password from its secret storage, the URL without one.
      const server = await ServerLabelStore.open(bare, { password: decodeURIComponent(new URL(url).password) });
      expect(await server.count()).toBe(rows.length);
      await server.close();
    } finally {
      process.env.PGPASSWORD = decodeURIComponent(new URL(url).password);
    }
  });

  it('lists the projects with their progress per annotator', async () => {
    const server = await ServerLabelStore.open(url);
    try {
      const queues = new LabelQueues(server);
      const p = await queues.create({
        name: 'week 49',
        benchmark: 'bench',
        runs: ['demo'],
        labels: [],
        overlap: 2,
        createdBy: 'lead',
        items: ['a', 'b', 'c'].map((u) => itemOf('demo', { platform: 'weibo', userId: u, stepId: 1 })),
      });
      const item = await queues.next(p, 'ann');
      await queues.submit(p, item!, 'ann');
      await queues.next(p, 'bo');
      await queues.create({
        name: 'week 50',
        benchmark: 'omnibehavior',
        runs: ['demo'],
        labels: [],
        overlap: 1,
        createdBy: 'lead',
        items: [testActionItemOf('demo', { userId: 'u1', index: 7 })],
      });
    } finally {
      await server.close();
    }
    const r = await cli(['projects', bare]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('week 49 (bench, runs demo): 0 of 3 steps done, 2 annotator(s) each; 1 of 6 submitted');
    expect(r.out).toContain('  ann: 1 submitted, 0 open');
    expect(r.out).toContain('  bo: 0 submitted, 1 open');
    // An OmniBehavior project counts test actions.
    expect(r.out).toContain('week 50 (omnibehavior, runs demo): 0 of 1 test actions done, 1 annotator(s) each');
    const json = JSON.parse((await cli(['projects', bare], { json: true })).out);
    expect(json[0].progress).toMatchObject({ items: 3, done: 0, submitted: 1 });
    expect(json.map((p: { itemKind: string }) => p.itemKind)).toEqual(['step', 'testAction']);
    expect((await cli(['projects', join(dir, 'same.db')])).code).toBe(2);
  });

  it("imports and exports gold decisions, and labels gold --project keeps the project's items", async () => {
    const decision = (stepId: number, labels: string[]) =>
      goldLine({
        uid: `gold-${stepId}`,
        ref: { benchmark: 'bench', platform: 'weibo', userId: 'wb_01', stepId, run: 'demo' },
        labels,
        how: 'adjudicated',
        adjudicator: 'carol',
        note: '',
        createdAt: '2026-12-06T00:00:00.000Z',
      });
    const goldFile = join(dir, 'gold.jsonl');
    writeFileSync(goldFile, `${decision(1, ['wrong-tag'])}\n${decision(6, ['missed-positive'])}\n`);
    const imported = await cli(['import', bare, goldFile]);
    expect(imported.code).toBe(0);
    expect(imported.out).toContain('gold: 2 decision(s) added');
    const server = await ServerLabelStore.open(url);
    try {
      await new LabelQueues(server).create({
        name: 'gold week',
        benchmark: 'bench',
        runs: ['demo'],
        labels: [],
        overlap: 2,
        createdBy: 'lead',
        items: [1, 2, 3, 4].map((stepId) => itemOf('demo', { platform: 'weibo', userId: 'wb_01', stepId })),
      });
    } finally {
      await server.close();
    }
    const all = JSON.parse((await cli(['gold', bare], { json: true })).out);
    expect(all.counts).toMatchObject({ units: 12, adjudicated: 2 });
    const week = await cli(['gold', bare], { json: true, project: 'gold week' });
    expect(week.code).toBe(0);
    expect(JSON.parse(week.out).counts).toMatchObject({ units: 4, adjudicated: 1 });
    const unknown = await cli(['gold', bare], { project: 'nope' });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('--project nope: no such project');
    const exported = await cli(['export', bare]);
    expect(exported.out.split('\n').filter((l) => l.includes('"kind":"gold"'))).toHaveLength(2);
  });
});
