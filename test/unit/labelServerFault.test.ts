// A label server stopped and started again while five people label: each keeps labelling into their replica's
// queue, and once the server is back every queue drains, in order and once; no label is lost or doubled, and every
// replica ends with everyone's labels. The server is this file's own cluster (the run's is shared by other files).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LabelRow } from '../../src/core/labels/model';
import { opKey } from '../../src/core/labels/server/ops';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { LabelSync, openReplica, type SyncState } from '../../src/core/labels/server/sync';
import { resumeCluster, startCluster, stopCluster } from '../../scripts/pg-cluster.mjs';
import { describePg } from '../support/pg';

const PEOPLE = 5;
const EACH = 120;

const label = (author: string, i: number): LabelRow => ({
  benchmark: 'bench',
  platform: 'weibo',
  userId: `u${i}`,
  stepId: i % 7,
  run: 'demo',
  author,
  target: { kind: 'step' },
  label: i % 3 ? 'wrong_tag' : 'missed_positive',
  note: i % 5 ? '' : `note ${i} by ${author}`,
  createdAt: '2026-12-04T10:00:00.000Z',
  contentHash: '',
});

describePg('a label server restarted mid-run', () => {
  let cluster: { dir: string; url: string };
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    for (const c of closers.reverse()) await c();
    stopCluster(cluster.dir, { remove: true });
  }, 120_000);

  it('loses nothing: the queues drain once the server is back', async () => {
    const people = Array.from({ length: PEOPLE }, (_, p) => {
      const dir = mkdtempSync(join(tmpdir(), `pl-fault-${p}-`));
      const { store, outbox } = openReplica(join(dir, 'labels.db'), cluster.url);
      const sync = new LabelSync(store, outbox, () => ServerLabelStore.open(cluster.url, { connectTimeoutMs: 2_000 }));
      closers.push(async () => (await sync.close(), store.close()));
      return { name: `person-${p}`, store, sync, seen: new Set<SyncState>() };
    });
    let labelled = 0;
    const work = people.map(async (who) => {
      for (let i = 0; i < EACH; i++) {
        who.store.add(label(who.name, i));
        labelled++;
        who.seen.add((await who.sync.sync()).state);
      }
    });
    const until = async (n: number) => {
      while (labelled < n) await new Promise((r) => setTimeout(r, 5));
    };
    await until((PEOPLE * EACH) / 3);
    stopCluster(cluster.dir);
    const stoppedAt = labelled;
    await until((2 * PEOPLE * EACH) / 3);
    const pendingWhileAway = people.reduce((n, p) => n + p.sync.outbox.pendingCount(), 0);
    resumeCluster(cluster.dir);
    await Promise.all(work);
    expect(stoppedAt).toBeLessThan(PEOPLE * EACH);
    expect(pendingWhileAway).toBeGreaterThan(0);
    expect(people.every((p) => p.seen.has('offline') && p.seen.has('online'))).toBe(true);

    for (const p of people) {
      for (let i = 0; i < 5 && p.sync.outbox.pendingCount() > 0; i++) await p.sync.sync();
      expect(p.sync.outbox.pendingCount()).toBe(0);
    }
    // Everyone's writes reach everyone.
    for (const p of people) await p.sync.sync();
    const server = await ServerLabelStore.open(cluster.url);
    closers.push(() => server.close());
    const rows = await server.list({ benchmark: 'bench' });
    expect(rows).toHaveLength(PEOPLE * EACH);
    const events = await server.eventsSince(0, 10 * PEOPLE * EACH);
    expect(events).toHaveLength(PEOPLE * EACH);
    expect(new Set(events.map((e) => e.uid)).size).toBe(PEOPLE * EACH);
    // Each person's events reached the server in the order they were made.
    for (const p of people) {
      const users = events
        .filter((e) => opKey(e.ops[0].action).author === p.name)
        .map((e) => (e.ops[0].action as { row: LabelRow }).row.userId);
      expect(users).toEqual(Array.from({ length: EACH }, (_, i) => `u${i}`));
    }
    const expected = JSON.stringify(rows.map((r) => [r.author, r.userId, r.label, r.note]).sort());
    for (const p of people)
      expect(
        JSON.stringify(
          p.store
            .list({ benchmark: 'bench' })
            .map((r) => [r.author, r.userId, r.label, r.note])
            .sort(),
        ),
      ).toBe(expected);
  }, 300_000);
});
