// What a replica takes from a shared verdict server is bounded as its own store is: a row larger than any verdict
// can be, or with a note beyond the local limit, is skipped with its reason (never written here, never blocking the
// rows behind it), and one pull page stops at its byte limit. A local verdict's note has the labels' note limit.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_NOTE_LENGTH } from '../../src/core/labels/model';
import { isOversize, ServerVerdictStore } from '../../src/core/pi/server/store';
import { openVerdictReplica, VerdictSync } from '../../src/core/pi/server/sync';
import { VerdictStoreError, type VerdictStore } from '../../src/core/pi/verdicts';
import { createTestDatabase, describePg } from '../support/pg';

const record = (store: VerdictStore, key: string, author: string, note = '') =>
  store.record({
    benchmark: 'bench',
    target: {
      key,
      file: 'data/weibo_inference_tasks.jsonl',
      line: 4,
      field: 'prediction_tasks[1].posts_text',
      start: 0,
      end: 11,
      category: 'PHONE',
      text: '13800138000',
      platform: 'weibo',
      userId: 'u1',
      stepId: 2,
      run: null,
    },
    verdict: 'confirmed-leak',
    author,
    note,
  });

describePg('verdicts pulled from a server', () => {
  let url: string;
  let drop: () => Promise<void>;
  const closers: (() => Promise<void>)[] = [];
  const replica = (name: string) => {
    const path = join(mkdtempSync(join(tmpdir(), `pl-verdict-bounds-${name}-`)), 'verdicts.db');
    const { store, outbox } = openVerdictReplica(path, url);
    const sync = new VerdictSync(outbox, () => ServerVerdictStore.open(url));
    closers.push(async () => (await sync.close(), store.close()));
    return { store, sync };
  };
  /** Sets a server row's note directly, as a client that ignores our limits could. */
  const setServerNote = async (key: string, note: string) => {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      await c.query('UPDATE pi_verdicts SET note = $1 WHERE finding_key = $2', [note, key]);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    ({ url, drop } = await createTestDatabase('pi_verdict_bounds'));
  });
  afterAll(async () => {
    for (const c of closers.reverse()) await c();
    await drop();
  });

  it('refuses a local note longer than a label note may be', () => {
    const { store } = replica('long-note');
    expect(() => record(store, 'k', 'ann', 'x'.repeat(MAX_NOTE_LENGTH + 1))).toThrow(VerdictStoreError);
    expect(() => record(store, 'k', 'ann', 'x'.repeat(MAX_NOTE_LENGTH + 1))).toThrow(/at most 4000 characters/);
    expect(record(store, 'k', 'ann', 'y'.repeat(MAX_NOTE_LENGTH)).note).toHaveLength(MAX_NOTE_LENGTH);
  });

  it('skips a huge row and a too-long note with their reasons, and takes the rows behind them', async () => {
    const writer = replica('writer');
    for (const k of ['huge', 'long', 'fine']) record(writer.store, k, 'bo');
    expect(await writer.sync.sync()).toMatchObject({ state: 'online', pushed: 3 });
    await setServerNote('huge', 'z'.repeat(200_000));
    await setServerNote('long', 'w'.repeat(MAX_NOTE_LENGTH + 10));

    const reader = replica('reader');
    const report = await reader.sync.sync();
    expect(report).toMatchObject({ state: 'online', pulled: 1 });
    expect(report.skipped).toHaveLength(2);
    expect(report.skipped?.[0]).toMatch(/^verdict \d+ from bo: it takes \d+ bytes, more than the 65536/);
    expect(report.skipped?.[1]).toMatch(/from bo: a note may hold at most 4000 characters; this one has 4010/);
    expect(reader.store.trail().map((v) => v.key)).toEqual(['fine']);
    // The replica moved past them: the next sync reads nothing again.
    expect(await reader.sync.sync()).toMatchObject({ pulled: 0 });
    expect((await reader.sync.sync()).skipped).toBeUndefined();
  });

  it('stops a page at its byte limit, and the huge row comes without its text', async () => {
    const server = await ServerVerdictStore.open(url);
    closers.push(() => server.close());
    const all = await server.rowsSince(0);
    expect(all.map((v) => isOversize(v))).toEqual([true, false, false]);
    const huge = all.find(isOversize)!;
    expect(JSON.stringify(huge).length).toBeLessThan(400);
    // A page of 1 byte still brings one full row (a skipped row weighs nothing), and no more.
    expect((await server.rowsSince(0, 500, 1)).map((v) => v.id)).toEqual([all[0].id, all[1].id]);
    expect((await server.rowsSince(all[0].id, 500, 1)).map((v) => v.id)).toEqual([all[1].id]);
    expect(await server.rowsSince(all[0].id, 500, 1_000_000)).toHaveLength(2);
  });
});
