// Where the adjudication pass writes its decisions (extension/labels/adjudicate/goldBackend.ts): the label file's gold
// rows in the adjudicator's name, or a label server's, signed by the session's role, where an annotator is refused.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepRef } from '../../src/core/labels/model';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { ADJUDICATOR_ROLE, ANNOTATOR_ROLE } from '../../src/core/storage/pgRoles';
import { fileGold, serverGold } from '../../src/extension/labels/adjudicate/goldBackend';
import { createTestDatabase, describePg, pgUrl } from '../support/pg';

const ref: StepRef = { benchmark: 'bench', platform: 'weibo', userId: 'u1', stepId: 1, run: 'demo' };
const noPassword = () => Promise.resolve(undefined);

describe('the pass on a label file', () => {
  it('decides in the adjudicator name, a newer decision counts, and undo reverts the newest', async () => {
    const gold = fileGold(join(mkdtempSync(join(tmpdir(), 'pl-adjudicate-file-')), 'labels.db'));
    try {
      expect(await gold.adjudications()).toEqual([]);
      await gold.decide(ref, ['b', 'a', 'a'], 'judy');
      await gold.decide(ref, ['c'], 'judy');
      const latest = async () => {
        const all = await gold.adjudications('bench');
        return all.length ? all.reduce((x, y) => (y.createdAt >= x.createdAt ? y : x)) : undefined;
      };
      expect(await latest()).toMatchObject({ labels: ['c'], adjudicator: 'judy' });
      expect(await gold.undo(ref, 'judy')).toBe(true);
      expect(await gold.adjudications()).toEqual([expect.objectContaining({ labels: ['a', 'b'] })]);
      expect(await gold.undo(ref, 'judy')).toBe(true);
      expect(await gold.undo(ref, 'judy')).toBe(false);
      expect(await gold.adjudications('other')).toEqual([]);
    } finally {
      gold.close();
    }
  });
});

describePg('the pass on a label server', () => {
  const tag = randomBytes(3).toString('hex');
  const ann = `ann_${tag}`;
  const carol = `carol_${tag}`;
  let url: string;
  let drop: () => Promise<void>;
  const as = (role: string): string => {
    const u = new URL(url);
    u.username = role;
    u.password = `pw-${role}`;
    return u.toString();
  };
  const admin = async (fn: (c: Client) => Promise<unknown>): Promise<void> => {
    const c = new Client({ connectionString: pgUrl() });
    await c.connect();
    try {
      await fn(c);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('adjudicate_pass'));
    await (await ServerLabelStore.open(url)).close();
    await admin(async (c) => {
      for (const who of [ann, carol]) {
        await c.query(`CREATE ROLE ${who} LOGIN PASSWORD 'pw-${who}'`);
        await c.query(`GRANT ${ANNOTATOR_ROLE} TO ${who}`);
      }
      await c.query(`GRANT ${ADJUDICATOR_ROLE} TO ${carol}`);
    });
  });
  afterAll(async () => {
    await drop();
    await admin(async (c) => {
      for (const who of [ann, carol]) await c.query(`DROP ROLE IF EXISTS ${who}`);
    });
  });

  it("signs the adjudicator's decision with her role, whatever name the window gives, and undoes it", async () => {
    const gold = serverGold(as(carol), noPassword);
    try {
      await gold.decide(ref, ['x'], 'someone-else');
      expect(await gold.adjudications('bench')).toEqual([
        expect.objectContaining({ labels: ['x'], adjudicator: carol }),
      ]);
      expect(await gold.undo(ref, 'someone-else')).toBe(true);
      expect(await gold.adjudications()).toEqual([]);
    } finally {
      gold.close();
    }
  });

  it('refuses an annotator, saying who may settle', async () => {
    const gold = serverGold(as(ann), noPassword);
    try {
      await expect(gold.decide(ref, ['x'], ann)).rejects.toThrow(/may not settle gold labels/);
      expect(await gold.adjudications()).toEqual([]);
    } finally {
      gold.close();
    }
  });
});
