// What a label may hold, on every store it can reach: a value PostgreSQL cannot store (NUL, an unpaired surrogate) is
// refused when the label or note is made, with the reason; a queued change the server refuses for its content is set
// aside with the reason and never holds back the changes behind it; rows pulled from a server obey the local limits.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { LabelSync, openReplica } from '../../src/core/labels/server/sync';
import { LabelStore } from '../../src/core/labels/store';
import { ServerVerdictStore } from '../../src/core/pi/server/store';
import { openVerdictReplica, VerdictSync } from '../../src/core/pi/server/sync';
import { VerdictStore } from '../../src/core/pi/verdicts';
import { createTestDatabase, describePg } from '../support/pg';
import { stepLabel } from '../support/labelRows';

const row = (author: string, label: string, userId = 'u1', note = ''): LabelRow =>
  stepLabel({ author, label, userId, note });

const tmp = (name: string) => join(mkdtempSync(join(tmpdir(), `pl-input-${name}-`)), 'labels.db');

describe('a value no label store keeps', () => {
  it('is refused when the label or note is made in the SQLite store, with the reason and where', () => {
    const store = LabelStore.open(tmp('sqlite'));
    try {
      expect(() => store.add(row('ann', 'wrong\0tag'))).toThrow(
        /label holds a NUL character \(U\+0000\) at character 6, which a label server \(PostgreSQL\) cannot store/,
      );
      expect(() => store.add(row('ann', 'ok', 'user\uD800x'))).toThrow(
        /userId holds an unpaired surrogate \(U\+D800\) at character 5/,
      );
      store.add(row('ann', 'ok'));
      expect(() => store.setNote(row('ann', 'ok'), 'a 😀 then \0')).toThrow(
        /the note holds a NUL character \(U\+0000\) at character 10/,
      );
      expect(() => store.setNote(row('ann', 'ok'), 'lone \uDC00')).toThrow(/the note holds an unpaired surrogate/);
      expect(store.list().map((r) => [r.label, r.note])).toEqual([['ok', '']]);
      // A well-formed pair is a character like any other.
      store.setNote(row('ann', 'ok'), 'fine 😀');
    } finally {
      store.close();
    }
  });

  it('is refused in a PI verdict too', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pl-input-verdict-')), 'verdicts.db');
    const store = VerdictStore.open(path);
    try {
      expect(() =>
        store.record({ benchmark: 'b', target: verdictTarget, verdict: 'false-positive', author: 'ann', note: 'x\0' }),
      ).toThrow(/the verdict's note holds a NUL character/);
    } finally {
      store.close();
    }
  });
});

const verdictTarget = {
  key: 'k',
  text: 'a@b.c',
  file: 'f.jsonl',
  line: 1,
  field: 'text',
  start: 0,
  end: 1,
  category: 'EMAIL',
  platform: 'weibo',
  userId: 'u1',
  stepId: 1,
  run: '',
} satisfies Parameters<VerdictStore['record']>[0]['target'];

describePg('a label server and what it refuses', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: { close(): Promise<void> }[] = [];
  const open = async () => {
    const s = await ServerLabelStore.open(url);
    opened.push(s);
    return s;
  };
  const replica = (name: string) => {
    const { store, outbox } = openReplica(tmp(name), url);
    const sync = new LabelSync(store, outbox, open);
    opened.push({ close: async () => (await sync.close(), store.close()) });
    return { store, outbox, sync };
  };
  const admin = async <T>(fn: (c: Client) => Promise<T>): Promise<T> => {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('label_input'));
  });
  afterAll(async () => {
    for (const o of opened.reverse()) await o.close();
    await drop();
  });

  it('sets aside queued changes refused for their content, with the reason; the label behind them reaches the server', async () => {
    const { store, outbox, sync } = replica('nul');
    // Queued by an older Persona Lab, which took the NUL: forced into the queue as it would be found there. The
    // first is refused by the client's own check on the server store, the second (a NUL where no person types) by
    // PostgreSQL itself.
    store.transaction(() => outbox.written([{ action: { kind: 'add', row: row('ann', 'bad\0label') } }]));
    store.transaction(() =>
      outbox.written([{ action: { kind: 'add', row: { ...row('ann', 'hashed'), contentHash: 'h\0' } } }]),
    );
    store.add(row('ann', 'behind_it'));
    expect(outbox.pendingCount()).toBe(3);
    const report = await sync.sync();
    expect(report).toMatchObject({ state: 'online', pending: 0, pushed: 1 });
    expect(report.conflicts.map((c) => c.reason)).toEqual([
      expect.stringMatching(/^refused: invalid label: label holds a NUL character \(U\+0000\) at character 4/),
      expect.stringMatching(/^the server refused it: .*(0x00|\\u0000)/),
    ]);
    const server = await open();
    expect((await server.list({ author: 'ann' })).map((r) => r.label)).toEqual(['behind_it']);
    // The refused changes are kept for the person, not lost; nothing is left to send.
    expect(outbox.conflicts().map((c) => c.op.action)).toMatchObject([
      { kind: 'add', row: { label: 'bad\0label' } },
      { kind: 'add', row: { label: 'hashed' } },
    ]);
    expect(store.list({ author: 'ann' }).map((r) => r.label)).toEqual(['behind_it']);
    expect(await sync.sync()).toMatchObject({ state: 'online', pending: 0, pushed: 0 });
  });

  it('pulls past rows the local store would refuse, saying which, and bounds what a pull page brings', async () => {
    const event = (note: string) => [{ action: { kind: 'add', row: row('zed', `n${note.length}`, 'u9', note) } }];
    await admin(async (c) => {
      for (const ops of [event('x'.repeat(5000)), event('y'.repeat(200_000)), event('fine')])
        await c.query(
          "INSERT INTO label_events (uid, author, ops, status, made_at) VALUES ($1, 'zed', $2, 'applied', 'now')",
          [randomUUID(), JSON.stringify(ops)],
        );
    });
    const server = await open();
    const all = await server.eventsSince(0);
    const big = all.find((e) => e.oversize);
    expect(big?.oversize).toMatch(/more than 65536 per operation/);
    expect(big?.ops).toEqual([]);
    expect(await server.eventsSince(0, 500, 1)).toHaveLength(1);

    const { store, outbox, sync } = replica('pull');
    const report = await sync.sync();
    expect(report.state).toBe('online');
    expect(report.skipped).toHaveLength(2);
    expect(report.skipped.join('\n')).toMatch(/a note may hold at most 4000 characters; this one has 5000/);
    expect(report.skipped.join('\n')).toMatch(/more than 65536 per operation/);
    expect(store.list({ author: 'zed' }).map((r) => r.note)).toEqual(['fine']);
    expect(outbox.pulledSeq).toBe(await server.lastSeq());
  });

  it('sets aside a queued verdict the server refuses, and sends the one behind it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'pl-input-vreplica-')), 'verdicts.db');
    const { store, outbox } = openVerdictReplica(path, url);
    const sync = new VerdictSync(outbox, async () => {
      const s = await ServerVerdictStore.open(url);
      opened.push(s);
      return s;
    });
    opened.push({ close: async () => (await sync.close(), store.close()) });
    const bad = store.record({ benchmark: 'b', target: verdictTarget, verdict: 'false-positive', author: 'ann' });
    // As an older Persona Lab would have kept it.
    const db = new Database(path);
    db.prepare('UPDATE pi_verdicts SET note = ? WHERE id = ?').run('bad\0note', bad.id);
    db.close();
    store.record({ benchmark: 'b', target: verdictTarget, verdict: 'confirmed-leak', author: 'ann', note: 'behind' });
    const report = await sync.sync();
    expect(report).toMatchObject({ state: 'online', pending: 0, pushed: 1 });
    expect(report.setAside).toEqual([
      expect.stringMatching(/the verdict on k \(f\.jsonl:1\) by ann: the server refused it/),
    ]);
    const server = await ServerVerdictStore.open(url);
    opened.push(server);
    expect((await server.trail()).map((v) => v.note)).toEqual(['behind']);
    expect(store.trail().map((v) => v.note)).toContain('bad\0note');
  });
});
