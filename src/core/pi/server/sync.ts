// A replica of the verdicts on a label server: the audit records into a local SQLite verdict store as it always has
// (never waiting on the network, going on while the server is away); each sync sends the queued verdicts in order,
// exactly once (the server keeps one row per uid), then reads the server's trail after the last id read, adding
// everyone else's. Verdicts are append-only, so two people's verdicts never conflict: both are kept in the trail, and
// a finding's current verdict is the one the server numbered last, the same in every replica.
import { claimReplica, ServerSyncRunner, type SyncReportBase } from '../../storage/serverSync';
import { VerdictStore, VerdictStoreError, type VerdictOpenOptions } from '../verdicts';
import { VerdictOutbox } from './outbox';
import type { ServerVerdictStore } from './store';

export interface VerdictSyncReport extends SyncReportBase {
  /** Verdicts the server acknowledged in this sync (duplicates included). */
  pushed: number;
  /** Other writers' verdicts added here. */
  pulled: number;
}

/** Opens (creating) the verdict replica of `serverUrl` at `path`: a verdict store whose verdicts are queued. */
export function openVerdictReplica(
  path: string,
  serverUrl: string,
  opts: Omit<VerdictOpenOptions, 'journal'> = {},
): { store: VerdictStore; outbox: VerdictOutbox } {
  let outbox: VerdictOutbox | undefined;
  const store = VerdictStore.open(path, { ...opts, journal: (db) => (outbox = new VerdictOutbox(db)) });
  const box = outbox!;
  const other = claimReplica(box, serverUrl);
  if (other) {
    store.close();
    throw new VerdictStoreError(`${path}: this file copies the verdicts of ${other.copies}, not ${other.wanted}`);
  }
  return { store, outbox: box };
}

const PUSH = 50;
const PAGE = 500;

export class VerdictSync {
  private readonly runner: ServerSyncRunner<ServerVerdictStore, VerdictSyncReport>;

  constructor(
    readonly outbox: VerdictOutbox,
    connect: () => Promise<ServerVerdictStore>,
  ) {
    this.runner = new ServerSyncRunner<ServerVerdictStore, VerdictSyncReport>({
      connect,
      blank: () => ({ state: 'online', pushed: 0, pulled: 0, pending: 0 }),
      run: async (server, report) => {
        for (let batch = this.outbox.pending(PUSH); batch.length; batch = this.outbox.pending(PUSH)) {
          this.outbox.sent(await server.push(batch));
          report.pushed += batch.length;
        }
        for (;;) {
          const rows = await server.rowsSince(this.outbox.pulledId, PAGE);
          if (rows.length === 0) break;
          report.pulled += this.outbox.applyPulled(rows);
        }
      },
      pending: () => this.outbox.pendingCount(),
      known: (err) => err instanceof VerdictStoreError,
    });
  }

  /** One sync; a call while one runs waits for it and starts another (what was queued meanwhile is sent too). */
  sync(): Promise<VerdictSyncReport> {
    return this.runner.sync();
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}
