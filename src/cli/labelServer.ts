// The CLI's label commands on a team's label server (a postgres:// URL where a label database path goes; the
// password from PGPASSWORD, as libpq reads it): rows read from the server; an import merged into a fresh replica with
// the same conflict table as a file, then sent as one event per decision batch (a row someone changed in between is
// a conflict, said and not overwritten); the projects and their progress.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LabelRow } from '../core/labels/model';
import { describeOp } from '../core/labels/server/ops';
import { LabelQueues } from '../core/labels/server/queue';
import { itemNouns } from '../core/labels/server/projectItems';
import { ServerLabelStore } from '../core/labels/server/store';
import { LabelSync, openReplica } from '../core/labels/server/sync';
import { describeServer } from '../core/storage/postgres';
import type { LabelStore } from '../core/labels/store';
import type { CliIo, LabelsCliOptions } from './labelsIo';

/** Every label on the server, or null after saying why. */
export async function serverRows(url: string, io: CliIo): Promise<LabelRow[] | null> {
  let server: ServerLabelStore | undefined;
  try {
    server = await ServerLabelStore.open(url);
    const rows = await server.list();
    // A row larger than any label can be is left out and named: a shared server's rows are bounded as a file's are.
    for (const why of await server.oversize()) io.err(`persona-lab: left out ${why}`);
    return rows;
  } catch (err) {
    io.err(`persona-lab: ${(err as Error).message}`);
    return null;
  } finally {
    await server?.close();
  }
}

/** Imports with `merge` (the file import's own conflict table and decisions) into a replica, then sends it. */
export async function importToServer(url: string, merge: (store: LabelStore) => number, io: CliIo): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'persona-lab-import-'));
  let replica: ReturnType<typeof openReplica> | undefined;
  let sync: LabelSync | undefined;
  try {
    replica = openReplica(join(dir, 'labels.db'), url);
    sync = new LabelSync(replica.store, replica.outbox, () => ServerLabelStore.open(url));
    const read = await sync.sync();
    if (read.state !== 'online') {
      io.err(`persona-lab: ${read.error ?? `cannot use the label server ${describeServer(url)}`}`);
      return 1;
    }
    const status = merge(replica.store);
    if (replica.outbox.pendingCount() === 0) return status;
    const sent = await sync.sync();
    if (sent.state !== 'online' || sent.pending > 0) {
      io.err(
        `persona-lab: the import was not sent (${sent.error ?? `${sent.pending} change(s) left`}); nothing is lost on the server, run it again`,
      );
      return 1;
    }
    if (sent.conflicts.length) {
      io.out(`${sent.conflicts.length} change(s) were not applied: someone changed them on the server meanwhile:`);
      for (const c of sent.conflicts) io.out(`  ${describeOp(c.op.action)}: ${c.reason}`);
      return 3;
    }
    io.out(`sent to ${describeServer(url)}`);
    return status;
  } catch (err) {
    io.err(`persona-lab: ${(err as Error).message}`);
    return 1;
  } finally {
    await sync?.close();
    replica?.store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `labels projects <url>`: each project with its progress, per annotator. */
export async function listProjects(url: string, opts: LabelsCliOptions, io: CliIo): Promise<number> {
  let server: ServerLabelStore | undefined;
  try {
    server = await ServerLabelStore.open(url);
    const queues = new LabelQueues(server);
    const out = [];
    for (const p of await queues.list()) out.push({ ...p, progress: await queues.progress(p) });
    if (opts.json) {
      io.out(JSON.stringify(out));
      return 0;
    }
    if (out.length === 0) io.out(`no labelling project on ${describeServer(url)}`);
    for (const p of out) {
      const g = p.progress;
      io.out(
        `${p.name} (${p.benchmark}, runs ${p.runs.join(', ')}): ${g.done} of ${g.items} ${itemNouns(p.itemKind)} done, ${p.overlap} annotator(s) each; ${g.submitted} of ${g.items * p.overlap} submitted`,
      );
      for (const a of g.annotators)
        io.out(`  ${a.annotator}: ${a.submitted} submitted, ${a.assigned - a.submitted} open`);
    }
    return 0;
  } catch (err) {
    io.err(`persona-lab: ${(err as Error).message}`);
    return 1;
  } finally {
    await server?.close();
  }
}
