// A window's replica of a label server: the views read and write a local SQLite store as they always have (so
// labelling never waits on the network and goes on when the server is away); each sync sends the queued events in
// order, exactly once (the server drops an event it logged already), then reads the server's log after the last
// event read, applying everyone else's writes. A conflict the server reports is stored for the person, and the key
// is set back to what the server holds.
import { ServerError } from '../../storage/postgres';
import { claimReplica, ServerSyncRunner, type SyncReportBase } from '../../storage/serverSync';
import type { LabelAction, LabelKey } from '../model';
import { keyParams } from '../sqlRows';
import { actionProblem, LabelStore, LabelStoreError, type OpenOptions } from '../store';
import { Outbox, type StoredConflict } from './outbox';
import { describeOp, flatten, type LabelEvent, type OpConflict, type PrimitiveAction } from './ops';
import type { ServerLabelStore } from './store';

export type { SyncState } from '../../storage/serverSync';

export interface SyncReport extends SyncReportBase {
  /** Events the server acknowledged in this sync (duplicates included). */
  pushed: number;
  /** Other writers' events applied here. */
  pulled: number;
  /** Other writers' changes not applied here because this store refuses them (too large, invalid), with why. */
  skipped: string[];
  conflicts: StoredConflict[];
}

/** Opens (creating) the replica of `serverUrl` at `path`: a label store whose writes are queued for the server. */
export function openReplica(
  path: string,
  serverUrl: string,
  opts: OpenOptions = {},
): { store: LabelStore; outbox: Outbox } {
  let outbox: Outbox | undefined;
  const store = LabelStore.open(path, { ...opts, journal: (db) => (outbox = new Outbox(db, opts.now)) });
  const box = outbox!;
  const other = claimReplica(box, serverUrl);
  if (other) {
    store.close();
    throw new LabelStoreError(`${path}: this file copies the label server ${other.copies}, not ${other.wanted}`);
  }
  return { store, outbox: box };
}

const PAGE = 500;

export class LabelSync {
  private readonly runner: ServerSyncRunner<ServerLabelStore, SyncReport>;

  constructor(
    readonly store: LabelStore,
    readonly outbox: Outbox,
    connect: () => Promise<ServerLabelStore>,
  ) {
    this.runner = new ServerSyncRunner<ServerLabelStore, SyncReport>({
      connect,
      blank: () => ({ state: 'online', pushed: 0, pulled: 0, conflicts: [], skipped: [], pending: 0 }),
      run: async (server, report) => {
        await this.push(server, report);
        await this.pull(server, report);
      },
      pending: () => this.outbox.pendingCount(),
      known: (err) => err instanceof LabelStoreError,
    });
  }

  /** One sync; a call while one runs waits for it and starts another (what was queued meanwhile is sent too). */
  sync(): Promise<SyncReport> {
    return this.runner.sync();
  }

  close(): Promise<void> {
    return this.runner.close();
  }

  private async push(server: ServerLabelStore, report: SyncReport): Promise<void> {
    for (;;) {
      const batch = this.outbox.pending(50);
      if (batch.length === 0) return;
      for (const event of batch) {
        let result;
        try {
          result = await server.push(event);
        } catch (err) {
          const why = refusal(err);
          if (why === undefined) throw err;
          this.store.transaction(() => this.outbox.setAside(event, why));
          await this.restore(
            server,
            event,
            event.ops.map((_, index) => ({ index, reason: why })),
          );
          report.conflicts.push(...this.outbox.conflicts().filter((c) => c.uid === event.uid));
          continue;
        }
        this.store.transaction(() => {
          this.outbox.markSent(event.uid, result.seq);
          if (result.conflicts.length) this.outbox.addConflicts(event, result.seq, result.conflicts);
        });
        report.pushed++;
        if (result.conflicts.length) {
          await this.restore(server, event, result.conflicts);
          report.conflicts.push(...this.outbox.conflicts().filter((c) => c.uid === event.uid));
        }
      }
    }
  }

  private async pull(server: ServerLabelStore, report: SyncReport): Promise<void> {
    for (;;) {
      const events = await server.eventsSince(this.outbox.pulledSeq, PAGE);
      if (events.length === 0) return;
      this.store.transaction(() => {
        for (const e of events) {
          if (!this.outbox.isMine(e.uid)) {
            const skipped = new Set(e.conflicts.map((c) => c.index));
            if (e.oversize) report.skipped.push(`event ${e.seq} from ${e.author}: ${e.oversize}`);
            const actions: PrimitiveAction[] = [];
            for (const [i, o] of e.ops.entries()) {
              if (skipped.has(i)) continue;
              // A row the local store would refuse (a note over the limit, a character no store keeps) is not
              // applied here, and the pull goes on past it.
              const problem = actionProblem(o.action);
              if (problem)
                report.skipped.push(clip(`event ${e.seq} from ${e.author}, ${describeOp(o.action)}: ${problem}`));
              else actions.push(o.action);
            }
            if (actions.length) this.store.applyPulled({ kind: 'batch', actions });
            report.pulled++;
          }
          this.outbox.pulledSeq = e.seq;
        }
        this.outbox.forgetThrough(events[events.length - 1].seq);
      });
    }
  }

  /** Sets each conflicting operation's key here back to what the server holds. */
  private async restore(server: ServerLabelStore, event: LabelEvent, conflicts: readonly OpConflict[]): Promise<void> {
    const actions: LabelAction[] = [];
    for (const c of conflicts) {
      const a: PrimitiveAction = event.ops[c.index].action;
      if (a.kind === 'setScore') {
        const k = a.key;
        const held = (
          await heldOrNone(
            server.scores({
              benchmark: k.benchmark,
              run: k.run,
              userId: k.userId,
              index: k.index,
              author: k.author,
            }),
          )
        ).find((s) => s.dimension === k.dimension);
        actions.push({ kind: 'setScore', key: k, row: held ?? null });
        continue;
      }
      const key: LabelKey = a.kind === 'add' ? a.row : a.key;
      const id = JSON.stringify(keyParams(key));
      const held = (await heldOrNone(server.listByStep(key))).find((r) => JSON.stringify(keyParams(r)) === id);
      actions.push({ kind: 'remove', key });
      if (held) actions.push({ kind: 'add', row: held });
    }
    // A key the local store refuses (a NUL queued by an older version) cannot be set back here; it stays as it is.
    const settable = actions.flatMap(flatten).filter((a) => actionProblem(a) === null);
    this.store.applyPulled({ kind: 'batch', actions: settable });
  }
}

/** Why the server refused an event for its content (set aside, not retried); undefined for any other failure. */
function refusal(err: unknown): string | undefined {
  if (err instanceof LabelStoreError) return `refused: ${err.message}`;
  if (err instanceof ServerError && err.refused) return `the server refused it: ${err.message}`;
  return undefined;
}

/** What the server holds at a key; none when the key itself is a value it refuses (it can hold no such row). */
async function heldOrNone<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch (err) {
    if (err instanceof ServerError && err.refused) return [];
    throw err;
  }
}

function clip(s: string): string {
  return s.length > 300 ? `${s.slice(0, 299)}…` : s;
}
