// Gold rows on a label server shared by database roles (schema v4): only the adjudicator group writes them, each
// signed by the session's role; an annotator is refused even when someone grants the table to annotators (the
// trigger, not only the grant); no decision is removed, and an undo is the only change, made once.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { goldSet } from '../../src/core/labels/gold';
import type { StepRef } from '../../src/core/labels/model';
import { ServerGoldStore } from '../../src/core/labels/server/goldStore';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { ADJUDICATOR_ROLE, ANNOTATOR_ROLE } from '../../src/core/storage/pgRoles';
import { createTestDatabase, describePg, pgUrl } from '../support/pg';
import { stepLabel } from '../support/labelRows';

const tag = randomBytes(3).toString('hex');
const ann = `ann_${tag}`;
const bob = `bob_${tag}`;
const carol = `carol_${tag}`;
const ref: StepRef = { benchmark: 'bench', platform: 'weibo', userId: 'u1', stepId: 1, run: 'demo' };

describePg('gold labels on a label server', () => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: ServerLabelStore[] = [];
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
    return { labels: s, gold: new ServerGoldStore(s) };
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
  const goldCount = () => admin((c) => c.query<{ n: number }>('SELECT count(*)::int AS n FROM gold_labels'));

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('label_gold'));
    await open();
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

  it('lets the adjudicator decide, change and undo, signed by her role; annotators read the decisions', async () => {
    const a = await open(ann);
    const b = await open(bob);
    const c = await open(carol);
    await a.labels.push({
      uid: `a-${tag}`,
      author: ann,
      madeAt: 'x',
      ops: [{ action: { kind: 'add', row: stepLabel({ author: ann, label: 'wrong_tag' }) } }],
    });
    await b.labels.push({
      uid: `b-${tag}`,
      author: bob,
      madeAt: 'x',
      ops: [{ action: { kind: 'add', row: stepLabel({ author: bob, label: 'missed_post' }) } }],
    });
    const first = await c.gold.decide({ ref, labels: ['wrong_tag'], note: 'bob missed it' });
    expect(first.adjudicator).toBe(carol);
    await c.gold.decide({ ref, labels: ['missed_post', 'wrong_tag'] });
    const unit = async () => goldSet(await a.labels.list(), await a.gold.adjudications()).units[0];
    expect(await unit()).toMatchObject({
      status: 'adjudicated',
      gold: ['missed_post', 'wrong_tag'],
      adjudicator: carol,
    });
    expect((await c.gold.undo(ref))?.labels).toEqual(['missed_post', 'wrong_tag']);
    expect(await unit()).toMatchObject({ status: 'adjudicated', gold: ['wrong_tag'], note: 'bob missed it' });
    // Never an annotator: the label authors are the two annotators only.
    expect(await a.labels.authors()).toEqual([ann, bob].sort());
    expect((await a.gold.list({}, true)).map((g) => [g.adjudicator, g.undone?.by ?? null])).toEqual([
      [carol, null],
      [carol, carol],
    ]);
  });

  it('refuses an annotator writing or undoing a decision, even with the table granted to annotators', async () => {
    const a = await open(ann);
    const before = await goldCount();
    await expect(a.gold.decide({ ref, labels: ['forged'] })).rejects.toThrow(
      new RegExp(`role ${ann} may not settle gold labels`),
    );
    await expect(a.gold.undo(ref)).rejects.toThrow(new RegExp(`role ${ann} may not settle gold labels`));
    await admin((c) => c.query(`GRANT INSERT, UPDATE, DELETE ON gold_labels TO ${ANNOTATOR_ROLE}`));
    await admin((c) => c.query(`GRANT USAGE ON SEQUENCE gold_labels_id_seq TO ${ANNOTATOR_ROLE}`));
    try {
      await expect(a.gold.decide({ ref, labels: ['forged'] })).rejects.toThrow(
        new RegExp(`role ${ann} may not settle gold labels: only members of ${ADJUDICATOR_ROLE}`),
      );
      await expect(a.gold.undo(ref)).rejects.toThrow(/may not settle gold labels/);
      const raw = new Client({ connectionString: as(ann) });
      await raw.connect();
      try {
        await expect(raw.query('DELETE FROM gold_labels')).rejects.toThrow(/may not settle gold labels/);
      } finally {
        await raw.end();
      }
    } finally {
      await admin((c) => c.query(`REVOKE INSERT, UPDATE, DELETE ON gold_labels FROM ${ANNOTATOR_ROLE}`));
    }
    expect(await goldCount()).toEqual(before);
    expect((await a.gold.adjudications()).map((d) => d.labels)).toEqual([['wrong_tag']]);
  });

  it('keeps the adjudicator to her own name and the trail whole', async () => {
    const c = await open(carol);
    const raw = new Client({ connectionString: as(carol) });
    await raw.connect();
    try {
      await expect(
        raw.query(
          `INSERT INTO gold_labels (uid, benchmark, platform, user_id, step_id, run, labels, adjudicator, created_at)
           VALUES ('forged-${tag}', 'bench', 'weibo', 'u1', 1, 'demo', '[]', '${bob}', 'x')`,
        ),
      ).rejects.toThrow(new RegExp(`may not write a gold decision in the name of ${bob}`));
      // Not granted to her at all; the trigger would refuse it too (the previous test's DELETE).
      await expect(raw.query('DELETE FROM gold_labels')).rejects.toThrow(/permission denied for table gold_labels/);
      await expect(raw.query(`UPDATE gold_labels SET labels = '["x"]'`)).rejects.toThrow(/may only undo a live/);
    } finally {
      await raw.end();
    }
    expect((await c.gold.list({}, true)).length).toBe(2);
  });
});
