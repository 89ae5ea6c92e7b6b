// The label server on a real PostgreSQL: migrations once under the lock, events exactly once, conflicts kept and
// shown to the second writer, a replica that queues while the server is away and drains in order when it is back.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import { openReplica, LabelSync } from '../../src/core/labels/server/sync';
import { opKey } from '../../src/core/labels/server/ops';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { SERVER_MIGRATIONS } from '../../src/core/labels/server/schema';
import { createTestDatabase, describePg } from '../support/pg';
import { stepLabel } from '../support/labelRows';

const row = (author: string, label: string, userId = 'u1', note = ''): LabelRow =>
  stepLabel({ author, label, userId, note });

describePg('the label server', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: { close(): Promise<void> }[] = [];
  const open = async () => {
    const s = await ServerLabelStore.open(url);
    opened.push(s);
    return s;
  };
  const replica = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `pl-replica-${name}-`));
    const { store, outbox } = openReplica(join(dir, 'labels.db'), url);
    const sync = new LabelSync(store, outbox, open);
    opened.push({ close: async () => (await sync.close(), store.close()) });
    return { store, outbox, sync };
  };

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('label_server'));
  });
  afterAll(async () => {
    for (const o of opened.reverse()) await o.close();
    await drop();
  });

  it('migrates once when several clients connect at the same time, and refuses a newer schema', async () => {
    const stores = await Promise.all([open(), open(), open(), open()]);
    expect(stores).toHaveLength(4);
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      const v = await c.query<{ version: number }>("SELECT version FROM persona_lab_schema WHERE what = 'label store'");
      expect(v.rows).toEqual([{ version: SERVER_MIGRATIONS.length }]);
      await c.query("UPDATE persona_lab_schema SET version = version + 1 WHERE what = 'label store'");
      await expect(ServerLabelStore.open(url)).rejects.toThrow(/newer than this Persona Lab knows/);
      await c.query("UPDATE persona_lab_schema SET version = version - 1 WHERE what = 'label store'");
    } finally {
      await c.end();
    }
  });

  it('applies an event sent twice once, and says the second was a duplicate', async () => {
    const s = await open();
    const event = {
      uid: 'twice-1',
      author: 'ann',
      madeAt: 'now',
      ops: [{ action: { kind: 'add' as const, row: row('ann', 'x') } }],
    };
    const first = await s.push(event);
    const again = await s.push(event);
    expect(first).toMatchObject({ status: 'applied', duplicate: false });
    expect(again).toEqual({ ...first, duplicate: true });
    expect((await s.list({ author: 'ann', label: 'x' })).length).toBe(1);
    await expect(
      s.push({ uid: 'bad', author: 'ann', madeAt: 'now', ops: [{ action: { kind: 'add', row: row('', 'x') } }] }),
    ).rejects.toThrow(/invalid label/);
  });

  it('keeps both events of a note changed in two places and sets the second back to what the server holds', async () => {
    const a = replica('a');
    const b = replica('b');
    a.store.add(row('bo', 'wrong_tag'));
    await a.sync.sync();
    await b.sync.sync();
    expect(b.store.get(row('bo', 'wrong_tag'))?.note).toBe('');
    a.store.setNote(row('bo', 'wrong_tag'), 'from the laptop');
    b.store.setNote(row('bo', 'wrong_tag'), 'from the desktop');
    expect((await a.sync.sync()).conflicts).toEqual([]);
    const second = await b.sync.sync();
    expect(second.state).toBe('online');
    expect(second.conflicts).toHaveLength(1);
    expect(second.conflicts[0].reason).toBe('its note was changed to "from the laptop" meanwhile');
    expect(second.conflicts[0].op.action).toMatchObject({ kind: 'setNote', note: 'from the desktop' });
    expect(b.store.get(row('bo', 'wrong_tag'))?.note).toBe('from the laptop');
    const server = await open();
    const events = (await server.eventsSince(0, 1000)).filter((e) => e.ops.some((o) => o.action.kind === 'setNote'));
    expect(events.map((e) => e.status)).toEqual(['applied', 'conflict']);
  });

  it('queues while the server cannot be reached and sends the queue in order, once, when it is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-replica-offline-'));
    const { store, outbox } = openReplica(join(dir, 'labels.db'), url);
    let reachable = false;
    const sync = new LabelSync(store, outbox, async () => {
      if (!reachable) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      return open();
    });
    opened.push({ close: async () => (await sync.close(), store.close()) });
    store.add(row('cy', 'missed_positive', 'u7'));
    store.setNote(row('cy', 'missed_positive', 'u7'), 'first');
    store.setNote(row('cy', 'missed_positive', 'u7'), 'second');
    store.remove(row('cy', 'missed_positive', 'u7'));
    store.add(row('cy', 'missed_positive', 'u7', 'last'));
    const away = await sync.sync();
    expect(away).toMatchObject({ state: 'offline', pending: 5, pushed: 0 });
    expect(away.error).toMatch(/ECONNREFUSED/);
    reachable = true;
    const back = await sync.sync();
    expect(back).toMatchObject({ state: 'online', pending: 0, pushed: 5, conflicts: [] });
    const server = await open();
    expect((await server.list({ author: 'cy' })).map((r) => r.note)).toEqual(['last']);
    // The log names the session's role that sent each event (here the test's superuser): cy's are those on her rows.
    const mine = (await server.eventsSince(0, 1000)).filter((e) => opKey(e.ops[0].action).author === 'cy');
    expect(mine.map((e) => e.ops[0].action.kind)).toEqual(['add', 'setNote', 'setNote', 'remove', 'add']);
    expect(mine.every((e) => e.status === 'applied')).toBe(true);
    // Another window sees it.
    const other = replica('other');
    await other.sync.sync();
    expect(other.store.list({ author: 'cy' }).map((r) => r.note)).toEqual(['last']);
  });

  it('refuses a replica file of another server, naming both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-replica-other-'));
    const { store } = openReplica(join(dir, 'labels.db'), url);
    store.close();
    expect(() => openReplica(join(dir, 'labels.db'), 'postgres://someone@elsewhere:5432/labels')).toThrow(
      /this file copies the label server postgres@127\.0\.0\.1:\d+\/\w+, not someone@elsewhere:5432\/labels/,
    );
  });

  it('sends an event whose acknowledgement was lost once: the server drops the copy', async () => {
    const { store, outbox, sync } = replica('lost-ack');
    store.add(row('di', 'stale'));
    const [event] = outbox.pending();
    const server = await open();
    await server.push(event);
    const r = await sync.sync();
    expect(r).toMatchObject({ state: 'online', pushed: 1, pending: 0 });
    expect((await server.eventsSince(0, 1000)).filter((e) => e.uid === event.uid)).toHaveLength(1);
    expect((await server.list({ author: 'di' })).length).toBe(1);
  });
});
