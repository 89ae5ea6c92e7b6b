// A label server shared by a team of database roles: each annotator logs in as their own role, made a member of the
// annotator group with the README's two commands and nothing else; the server signs rows with the session's role and
// keeps each role to its own labels, judge scores, claims and verdicts. The store's owner (an administrator merging a
// colleague's file) and the adjudicator group are the documented exceptions.
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import type { LabelEvent, SyncOp } from '../../src/core/labels/server/ops';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { ServerVerdictStore, type SyncedVerdict } from '../../src/core/pi/server/store';
import { ADJUDICATOR_ROLE, ANNOTATOR_ROLE } from '../../src/core/storage/pgRoles';
import { createTestDatabase, describePg, pgUrl } from '../support/pg';
import { stepLabel } from '../support/labelRows';

const tag = randomBytes(3).toString('hex');
const ann = `ann_${tag}`;
const bob = `bob_${tag}`;
const carol = `carol_${tag}`;

const row = (author: string, label: string, note = ''): LabelRow => stepLabel({ author, label, note });

const event = (author: string, ...ops: SyncOp[]): LabelEvent => ({
  uid: randomUUID(),
  author,
  madeAt: '2026-12-04T10:00:00.000Z',
  ops,
});

const scoreKey = (author: string) => ({
  benchmark: 'bench',
  userId: 'u1',
  index: 0,
  run: 'demo',
  author,
  dimension: 'intent_fidelity' as const,
});
const score = (author: string, n: number) => ({ ...scoreKey(author), score: n, createdAt: 'x', contentHash: '' });

const verdict = (author: string): SyncedVerdict => ({
  uid: randomUUID(),
  benchmark: 'bench',
  key: 'k1',
  file: 'data.jsonl',
  line: 1,
  field: 'text',
  start: 0,
  end: 3,
  category: 'email' as SyncedVerdict['category'],
  textHash: 'h',
  platform: 'weibo',
  userId: 'u1',
  stepId: 1,
  run: '',
  verdict: 'confirmed-leak',
  note: '',
  author,
  createdAt: '2026-12-04T10:00:00.000Z',
});

describePg('a label server shared by database roles', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: { close(): Promise<void> }[] = [];
  const as = (role: string | undefined): string => {
    const u = new URL(url);
    if (role) {
      u.username = role;
      u.password = `pw-${role}`;
    }
    return u.toString();
  };
  const open = async (role?: string) => {
    const s = await ServerLabelStore.open(as(role));
    opened.push(s);
    return s;
  };
  const admin = async <T>(fn: (c: Client) => Promise<T>, database = true): Promise<T> => {
    const c = new Client({ connectionString: database ? url : pgUrl() });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('label_roles'));
    // The administrator connects first: the migrations make the tables, the group roles and their grants.
    await open();
    await ServerVerdictStore.open(url).then((s) => s.close());
    // The README's two commands per person, nothing else.
    await admin(async (c) => {
      for (const who of [ann, bob, carol]) {
        await c.query(`CREATE ROLE ${who} LOGIN PASSWORD 'pw-${who}'`);
        await c.query(`GRANT ${ANNOTATOR_ROLE} TO ${who}`);
      }
      await c.query(`GRANT ${ADJUDICATOR_ROLE} TO ${carol}`);
    }, false);
  });
  afterAll(async () => {
    for (const o of opened.reverse()) await o.close();
    await drop();
    await admin(async (c) => {
      for (const who of [ann, bob, carol]) await c.query(`DROP ROLE IF EXISTS ${who}`);
    }, false);
  });

  it('lets a second and a third role work without a manual grant, each signed by the server', async () => {
    const a = await open(ann);
    const b = await open(bob);
    expect((await a.push(event(ann, { action: { kind: 'add', row: row(ann, 'wrong_tag', 'mine') } }))).status).toBe(
      'applied',
    );
    // The event claims bob as its sender: the log records the session's role.
    await a.push(event(bob, { action: { kind: 'add', row: row(ann, 'missed_post') } }));
    await b.push(event(bob, { action: { kind: 'add', row: row(bob, 'wrong_tag', 'bob says') } }));
    await b.push(event(bob, { action: { kind: 'setScore', key: scoreKey(bob), row: score(bob, 7) } }));
    const log = await admin((c) => c.query<{ author: string }>('SELECT author FROM label_events ORDER BY seq'));
    expect(log.rows.map((r) => r.author)).toEqual([ann, ann, bob, bob]);
    expect((await a.list()).map((r) => `${r.author}:${r.label}`).sort()).toEqual(
      [`${ann}:missed_post`, `${ann}:wrong_tag`, `${bob}:wrong_tag`].sort(),
    );
  });

  it('refuses ann writing, changing or removing as bob, and leaves bob rows and the log as they were', async () => {
    const a = await open(ann);
    const before = await admin((c) => c.query('SELECT count(*)::int AS n FROM label_events'));
    const bobs = row(bob, 'wrong_tag', 'bob says');
    const tries: LabelEvent[] = [
      event(ann, { action: { kind: 'add', row: row(bob, 'forged') } }),
      event(ann, { action: { kind: 'setNote', key: bobs, note: 'overwritten by ann' } }),
      event(ann, { action: { kind: 'remove', key: bobs } }),
      event(ann, { action: { kind: 'setScore', key: scoreKey(bob), row: score(bob, 1) } }),
      event(ann, { action: { kind: 'setScore', key: scoreKey(bob), row: null } }),
    ];
    for (const e of tries) await expect(a.push(e)).rejects.toThrow(new RegExp(`role ${ann} may not`));
    const b = await open(bob);
    const held = (await b.list({ author: bob })).map((r) => `${r.label}:${r.note}`);
    expect(held).toEqual(['wrong_tag:bob says']);
    expect((await b.scores({ author: bob })).map((r) => r.score)).toEqual([7]);
    expect(await admin((c) => c.query('SELECT count(*)::int AS n FROM label_events'))).toEqual(before);
    // Her own rows she changes and removes as before.
    expect(
      (await a.push(event(ann, { action: { kind: 'setNote', key: row(ann, 'wrong_tag'), note: 'edited' } }))).status,
    ).toBe('applied');
    expect((await a.push(event(ann, { action: { kind: 'remove', key: row(ann, 'missed_post') } }))).status).toBe(
      'applied',
    );
  });

  it('keeps verdicts to their signer too', async () => {
    const v = await ServerVerdictStore.open(as(ann));
    opened.push(v);
    await expect(v.push([verdict(bob)])).rejects.toThrow(
      new RegExp(`role ${ann} may not write a row in the name of ${bob}`),
    );
    expect(await v.push([verdict(ann)])).toHaveLength(1);
    expect((await v.trail()).map((r) => r.author)).toEqual([ann]);
  });

  it('lets the adjudicator group and the store owner write under other names (the documented exceptions)', async () => {
    const c = await open(carol);
    const bobs = row(bob, 'wrong_tag', 'bob says');
    expect((await c.push(event(carol, { action: { kind: 'setNote', key: bobs, note: 'settled' } }))).status).toBe(
      'applied',
    );
    const owner = await open();
    expect((await owner.push(event('import', { action: { kind: 'add', row: row(bob, 'imported') } }))).status).toBe(
      'applied',
    );
  });
});
