// PI audit verdicts on a label server (a real PostgreSQL): a verdict sent twice is one row, replicas see each
// other's verdicts in the server's order, and a replica that could not reach the server sends its queue once it can.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERDICT_SERVER_MIGRATIONS } from '../../src/core/pi/server/schema';
import { ServerVerdictStore } from '../../src/core/pi/server/store';
import { openVerdictReplica, VerdictSync } from '../../src/core/pi/server/sync';
import {
  LOCAL_VERDICT_IDS,
  VERDICT_COLUMNS,
  VERDICT_MIGRATIONS,
  VERDICT_SCHEMA_VERSION,
  VerdictStore,
  type Verdict,
  type VerdictTarget,
} from '../../src/core/pi/verdicts';
import { createTestDatabase, describePg } from '../support/pg';

const target = (key: string): VerdictTarget => ({
  key,
  file: 'data/weibo_inference_tasks.jsonl',
  line: 4,
  field: 'prediction_tasks[1].posts_text',
  start: 60,
  end: 71,
  category: 'PHONE',
  text: '13800138000',
  platform: 'weibo',
  userId: 'we_b5ce11fb65',
  stepId: 2,
  run: null,
});

const record = (store: VerdictStore, key: string, verdict: Verdict, author: string, note = '') =>
  store.record({ benchmark: 'bench', target: target(key), verdict, author, note });

describePg('PI audit verdicts on the label server', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: { close(): Promise<void> }[] = [];
  const open = async () => {
    const s = await ServerVerdictStore.open(url);
    opened.push(s);
    return s;
  };
  const replica = (name: string, connect: () => Promise<ServerVerdictStore> = open) => {
    const path = join(mkdtempSync(join(tmpdir(), `pl-verdict-replica-${name}-`)), 'verdicts.db');
    const { store, outbox } = openVerdictReplica(path, url);
    const sync = new VerdictSync(outbox, connect);
    opened.push({ close: async () => (await sync.close(), store.close()) });
    return { path, store, outbox, sync };
  };

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('pi_verdict_server'));
  });
  afterAll(async () => {
    for (const o of opened.reverse()) await o.close();
    await drop();
  });

  it('migrates its own schema once beside the label store, and refuses a newer one', async () => {
    await Promise.all([open(), open(), open()]);
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      const v = await c.query<{ version: number }>(
        "SELECT version FROM persona_lab_schema WHERE what = 'verdict store'",
      );
      expect(v.rows).toEqual([{ version: VERDICT_SERVER_MIGRATIONS.length }]);
      await c.query("UPDATE persona_lab_schema SET version = version + 1 WHERE what = 'verdict store'");
      await expect(ServerVerdictStore.open(url)).rejects.toThrow(/verdict store on the server has schema version/);
      await c.query("UPDATE persona_lab_schema SET version = version - 1 WHERE what = 'verdict store'");
    } finally {
      await c.end();
    }
  });

  it('adds a verdict sent twice once, and says the second was a duplicate', async () => {
    const a = replica('twice');
    record(a.store, 'k-twice', 'confirmed-leak', 'ann');
    const [queued] = a.outbox.pending();
    const server = await open();
    const first = await server.push([queued]);
    const again = await server.push([queued]);
    expect(first).toEqual([{ uid: queued.uid, id: first[0].id, duplicate: false }]);
    expect(again).toEqual([{ ...first[0], duplicate: true }]);
    // The replica's own sync sends it a third time (its acknowledgement was lost): still one row.
    const r = await a.sync.sync();
    expect(r).toMatchObject({ state: 'online', pushed: 1, pulled: 0, pending: 0 });
    const rows = await server.trail({ key: 'k-twice' });
    expect(rows.map((v) => [v.id, v.author, v.verdict])).toEqual([[first[0].id, 'ann', 'confirmed-leak']]);
    expect(a.store.trail({ key: 'k-twice' }).map((v) => v.id)).toEqual([first[0].id]);
    await expect(server.push([{ ...queued, uid: 'bad', author: ' ' }])).rejects.toThrow(/needs an author/);
  });

  it("shows two replicas each other's verdicts in the server's order, the same current verdict everywhere", async () => {
    const a = replica('a');
    const b = replica('b');
    // Both read what the earlier tests left on the server first.
    await a.sync.sync();
    await b.sync.sync();
    record(a.store, 'k1', 'confirmed-leak', 'ann', 'a phone number');
    await a.sync.sync();
    record(b.store, 'k1', 'false-positive', 'bo', 'a product code');
    record(a.store, 'k1', 'needs-review', 'ann');
    record(b.store, 'k2', 'confirmed-leak', 'bo');
    // Before either syncs again, each has its own unsent verdicts after what it read.
    expect(a.store.current('bench').get('k1')?.verdict).toBe('needs-review');
    expect(a.store.trail({ key: 'k1' }).at(-1)?.id).toBeGreaterThan(LOCAL_VERDICT_IDS);
    expect((await b.sync.sync()).pulled).toBe(1);
    expect(await a.sync.sync()).toMatchObject({ state: 'online', pushed: 1, pulled: 2, pending: 0 });
    expect((await b.sync.sync()).pulled).toBe(1);
    const server = await open();
    const onServer = (await server.trail({ benchmark: 'bench' })).filter((v) => v.key === 'k1' || v.key === 'k2');
    const said = (rows: { id: number; author: string; key: string; verdict: string; note: string }[]) =>
      rows.map((v) => [v.id, v.author, v.key, v.verdict, v.note]);
    expect(said(onServer).map(([, author, key, verdict]) => [author, key, verdict])).toEqual([
      ['ann', 'k1', 'confirmed-leak'],
      ['bo', 'k1', 'false-positive'],
      ['bo', 'k2', 'confirmed-leak'],
      ['ann', 'k1', 'needs-review'],
    ]);
    for (const r of [a, b]) {
      const trail = r.store.trail({ benchmark: 'bench' }).filter((v) => v.key === 'k1' || v.key === 'k2');
      expect(said(trail)).toEqual(said(onServer));
      expect([...r.store.current('bench')].filter(([k]) => k === 'k1').map(([, v]) => v.verdict)).toEqual([
        'needs-review',
      ]);
    }
  });

  it('queues while the server cannot be reached and sends the queue in order, once, when it is back', async () => {
    let reachable = false;
    const c = replica('offline', async () => {
      if (!reachable) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      return open();
    });
    record(c.store, 'k-off-1', 'confirmed-leak', 'cy');
    record(c.store, 'k-off-2', 'false-positive', 'cy');
    record(c.store, 'k-off-1', 'false-positive', 'cy', 'changed my mind');
    const away = await c.sync.sync();
    expect(away).toMatchObject({ state: 'offline', pushed: 0, pending: 3 });
    expect(away.error).toMatch(/ECONNREFUSED/);
    expect(c.store.trail({ author: 'cy' })).toHaveLength(3);
    reachable = true;
    const back = await c.sync.sync();
    expect(back).toMatchObject({ state: 'online', pushed: 3, pending: 0 });
    expect((await c.sync.sync()).pushed).toBe(0);
    const server = await open();
    const mine = await server.trail({ author: 'cy' });
    expect(mine.map((v) => [v.key, v.verdict, v.note])).toEqual([
      ['k-off-1', 'confirmed-leak', ''],
      ['k-off-2', 'false-positive', ''],
      ['k-off-1', 'false-positive', 'changed my mind'],
    ]);
    expect((await server.current('bench')).get('k-off-1')?.verdict).toBe('false-positive');
    // A window opened afterwards reads the same.
    const d = replica('late');
    await d.sync.sync();
    expect(d.store.trail({ author: 'cy' }).map((v) => v.id)).toEqual(mine.map((v) => v.id));
  });

  it('keeps a replica to its server, and the queue in the same transaction as the verdict', async () => {
    const a = replica('own');
    a.store.close();
    expect(() => openVerdictReplica(a.path, 'postgres://someone@elsewhere:5432/other')).toThrow(
      /copies the verdicts of .* not someone@elsewhere:5432\/other/,
    );
    const again = openVerdictReplica(a.path, url);
    record(again.store, 'k-own', 'needs-review', 'di');
    again.store.close();
    const raw = new Database(a.path, { readonly: true });
    try {
      const queued = raw
        .prepare('SELECT p.finding_key AS key FROM verdict_outbox o JOIN pi_verdicts p ON p.uid = o.uid')
        .all();
      expect(queued).toEqual([{ key: 'k-own' }]);
    } finally {
      raw.close();
    }
  });
});

describe('the verdict file of an earlier version', () => {
  it('gains the uid and the queue, keeps its rows and numbers new ones after them', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pl-verdict-v1-')), 'audit.db');
    const raw = new Database(path);
    raw.exec(VERDICT_MIGRATIONS[0]);
    raw.pragma('user_version = 1');
    raw
      .prepare(`INSERT INTO pi_verdicts (id, ${VERDICT_COLUMNS}) VALUES (7, ${'?, '.repeat(16)}?)`)
      .run('bench', 'k', 'f', 1, 'bio', 0, 1, 'PHONE', 'h', 'weibo', 'u', null, '', 'confirmed-leak', '', 'old', 't');
    raw.close();
    const store = VerdictStore.open(path);
    try {
      expect(store.schemaVersion()).toBe(VERDICT_SCHEMA_VERSION);
      record(store, 'k', 'false-positive', 'new');
      expect(store.trail().map((v) => [v.id, v.author, v.verdict])).toEqual([
        [7, 'old', 'confirmed-leak'],
        [8, 'new', 'false-positive'],
      ]);
    } finally {
      store.close();
    }
  });
});
