// Labels per second in `npm run bench`, each a person's one key press made durable, in the same run: into the
// embedded SQLite file (one IMMEDIATE transaction, synchronous FULL), straight into a PostgreSQL label server (one
// event transaction), through a replica (the extension's path: the local write, then one sync that sends the queue),
// and with 20 writers at once on the server. The server is a throwaway cluster of Debian's PostgreSQL on loopback,
// with fsync and synchronous commit on, as the file has synchronous FULL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LabelRow } from '../../src/core/labels/model';
import { ServerLabelStore } from '../../src/core/labels/server/store';
import { LabelSync, openReplica } from '../../src/core/labels/server/sync';
import { LabelStore } from '../../src/core/labels/store';
import { findPgBin, startCluster, stopCluster } from '../pg-cluster.mjs';

const N = 2_000;
const WRITERS = 20;

const row = (author: string, i: number): LabelRow => ({
  benchmark: 'paper',
  platform: 'weibo',
  userId: `u${Math.floor(i / 5)}`,
  stepId: i % 5,
  run: 'demo-llm',
  author,
  target: { kind: 'step' },
  label: 'decay-error',
  note: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  contentHash: '',
});

const perSecond = (n: number, ms: number) => (1000 * n) / ms;
const now = () => Number(process.hrtime.bigint()) / 1e6;

export async function measureLabelServer(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pl-bench-server-'));
  try {
    const file = LabelStore.open(join(dir, 'labels.db'));
    let t0 = now();
    for (let i = 0; i < N; i++) file.add(row('bench', i));
    const sqlite = perSecond(N, now() - t0);
    file.close();
    if (!findPgBin()) {
      console.log(
        `labels per second: SQLite file ${sqlite.toFixed(0)}/s; label server not measured (no PostgreSQL here: apt-get install postgresql)`,
      );
      return;
    }
    const cluster = await startCluster({ durable: true });
    try {
      const server = await ServerLabelStore.open(cluster.url);
      t0 = now();
      for (let i = 0; i < N; i++)
        await server.push({
          uid: `one/${i}`,
          author: 'one',
          madeAt: '',
          ops: [{ action: { kind: 'add', row: row('one', i) } }],
        });
      const direct = perSecond(N, now() - t0);

      const { store, outbox } = openReplica(join(dir, 'replica.db'), cluster.url);
      const sync = new LabelSync(store, outbox, () => ServerLabelStore.open(cluster.url));
      t0 = now();
      for (let i = 0; i < N; i++) store.add(row('replica', i));
      const local = now() - t0;
      const report = await sync.sync();
      const replica = perSecond(N, now() - t0);
      if (report.pending !== 0 || report.pushed !== N) throw new Error(`the replica sent ${report.pushed} of ${N}`);
      await sync.close();
      store.close();

      const writers = await Promise.all(
        Array.from({ length: WRITERS }, () => ServerLabelStore.open(cluster.url, { max: 1 })),
      );
      t0 = now();
      await Promise.all(
        writers.map(async (w, k) => {
          for (let i = k; i < N; i += WRITERS)
            await w.push({
              uid: `many/${i}`,
              author: `w${k}`,
              madeAt: '',
              ops: [{ action: { kind: 'add', row: row(`w${k}`, i) } }],
            });
        }),
      );
      const many = perSecond(N, now() - t0);
      await Promise.all(writers.map((w) => w.close()));
      const total = await server.count();
      await server.close();
      if (total !== 3 * N) throw new Error(`the server holds ${total} labels, not ${3 * N}`);
      console.log(`labels per second (${N} labels each, one durable write per label, in this run; both fsync):`);
      console.log(`  SQLite file ${sqlite.toFixed(0)}/s`);
      console.log(
        `  label server, one writer ${direct.toFixed(0)}/s = ${(direct / sqlite).toFixed(2)}x the file; ${WRITERS} writers at once ${many.toFixed(0)}/s = ${(many / sqlite).toFixed(2)}x`,
      );
      console.log(
        `  through a replica (the extension): ${(local / N).toFixed(2)} ms a key press locally, the queue sent at ${replica.toFixed(0)}/s = ${(replica / sqlite).toFixed(2)}x the file`,
      );
    } finally {
      stopCluster(cluster.dir, { remove: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
