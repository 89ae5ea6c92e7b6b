// The extension's link of the audit's verdicts to the label server: the replica beside the label replica, the
// password from the secret storage under the labels' key, a verdict sent, a colleague's read in.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type * as vscode from 'vscode';
import { isOversize, ServerVerdictStore } from '../../src/core/pi/server/store';
import { openVerdictReplica } from '../../src/core/pi/server/sync';
import { passwordKey, replicaPath } from '../../src/extension/labels/serverLink';
import { VerdictLink, verdictReplicaPath, verdictServerNote } from '../../src/extension/audit/verdictLink';
import { createTestDatabase, describePg } from '../support/pg';

// serverLink.ts talks to the window at run time; none of that is reached here.
vi.mock('vscode', () => ({}));

it('keeps the verdict replica beside the label replica of the same server, one per server', () => {
  const url = 'postgres://ann@db.example:5432/team';
  const path = verdictReplicaPath('/ws', url);
  expect(dirname(path)).toBe(dirname(replicaPath('/ws', url)));
  expect(path).toMatch(/^\/ws\/\.personalab\/verdicts-server-[0-9a-f]{12}\.db$/);
  expect(verdictReplicaPath('/ws', 'postgres://ann@db.example:5432/other')).not.toBe(path);
  expect(verdictServerNote('ann@db:5432/team', { state: 'offline', pending: 2 })).toBe(
    'verdicts on the label server ann@db:5432/team: cannot be reached; verdicts are kept here, 2 verdict(s) queued here and sent when it is back',
  );
});

describePg('the audit verdicts link', () => {
  let url: string;
  let bare: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('pi_verdict_link'));
    const u = new URL(url);
    u.password = '';
    bare = u.toString();
  });
  afterAll(async () => {
    await drop();
  });

  it("sends a verdict with the password from the secret storage, and reads a colleague's in", async () => {
    const asked: string[] = [];
    const secrets = {
      get: (key: string) => {
        asked.push(key);
        return Promise.resolve(decodeURIComponent(new URL(url).password));
      },
    } as unknown as vscode.SecretStorage;
    const path = join(mkdtempSync(join(tmpdir(), 'pl-verdict-link-')), 'verdicts.db');
    const { store, outbox } = openVerdictReplica(path, bare);
    let pulled = 0;
    const link = new VerdictLink(outbox, bare, secrets, () => pulled++);
    try {
      const target = {
        key: 'k',
        file: 'f',
        line: 1,
        field: 'bio',
        start: 0,
        end: 1,
        category: 'PHONE' as const,
        text: 'x',
        platform: 'weibo',
        userId: 'u',
        stepId: null,
        run: null,
      };
      store.record({ benchmark: 'bench', target, verdict: 'confirmed-leak', author: 'ann' });
      expect(await link.now()).toMatchObject({ state: 'online', pending: 0 });
      expect(asked[0]).toBe(passwordKey(bare));
      // Its own verdict is shown already: no reload for it.
      expect(pulled).toBe(0);
      const server = await ServerVerdictStore.open(url);
      try {
        expect((await server.trail()).map((v) => [v.id, v.author, v.verdict])).toEqual([[1, 'ann', 'confirmed-leak']]);
      } finally {
        await server.close();
      }
      expect(store.trail().map((v) => v.id)).toEqual([1]);
      // A colleague's verdict arrives with the next sync, and the audit is told to re-read.
      const other = await ServerVerdictStore.open(url);
      try {
        const [mine] = await other.rowsSince(0);
        if (isOversize(mine)) throw new Error(mine.oversize);
        await other.push([{ ...mine, uid: 'colleague-1', author: 'bo', verdict: 'false-positive' }]);
      } finally {
        await other.close();
      }
      expect(await link.now()).toMatchObject({ state: 'online', pulled: 1 });
      expect(pulled).toBe(1);
      expect([...store.current('bench').values()].map((v) => [v.id, v.author])).toEqual([[2, 'bo']]);
    } finally {
      link.dispose();
      store.close();
    }
  });
});
