// A replica of the verdicts on a label server: the audit records into a local SQLite verdict store as it always has
// (never waiting on the network, going on while the server is away); each sync sends the queued verdicts in order,
// exactly once (the server keeps one row per uid), then reads the server's trail after the last id read, adding
// everyone else's. Verdicts are append-only, so two people's verdicts never conflict: both are kept in the trail, and
// a finding's current verdict is the one the server numbered last, the same in every replica.
import { ServerError } from '../../storage/postgres';
import { claimReplica, ServerSyncRunner, type SyncReportBase } from '../../storage/serverSync';
import { VerdictStore, VerdictStoreError, type VerdictOpenOptions } from '../verdicts';
import { VerdictOutbox } from './outbox';
import type { ServerVerdictStore, SyncedVerdict } from './store';

export interface VerdictSyncReport extends SyncReportBase {
  /** Verdicts the server acknowledged in this sync (duplicates included). */
  pushed: number;
  /** Other writers' verdicts added here. */
  pulled: number;
  /** This replica's verdicts the server refused for their content, with why: kept here, no longer sent. */
  setAside?: string[];
  /** The server's verdicts not taken here, with why (larger than any verdict may be). */
  skipped?: string[];
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
          try {
            this.outbox.sent(await server.push(batch));
            report.pushed += batch.length;
          } catch (err) {
            if (refusal(err) === undefined) throw err;
            await this.oneByOne(server, batch, report);
          }
        }
        for (;;) {
          const rows = await server.rowsSince(this.outbox.pulledId, PAGE);
          if (rows.length === 0) break;
          const { added, skipped } = this.outbox.applyPulled(rows);
          report.pulled += added;
          if (skipped.length) (report.skipped ??= []).push(...skipped);
        }
      },
      pending: () => this.outbox.pendingCount(),
      known: (err) => err instanceof VerdictStoreError,
    });
  }

  /**
   * Sends a batch the server refused one verdict at a time: a verdict refused for its content leaves the queue (it
   * stays in the local trail, with the reason reported) instead of holding back every verdict behind it.
   */
  private async oneByOne(server: ServerVerdictStore, batch: SyncedVerdict[], report: VerdictSyncReport) {
    for (const v of batch) {
      try {
        this.outbox.sent(await server.push([v]));
        report.pushed++;
      } catch (err) {
        const why = refusal(err);
        if (why === undefined) throw err;
        this.outbox.setAside(v.uid);
        (report.setAside ??= []).push(`the verdict on ${v.key} (${v.file}:${v.line}) by ${v.author}: ${why}`);
      }
    }
  }

  /** One sync; a call while one runs waits for it and starts another (what was queued meanwhile is sent too). */
  sync(): Promise<VerdictSyncReport> {
    return this.runner.sync();
  }

  close(): Promise<void> {
    return this.runner.close();
  }
}

/** Why the server refused a verdict for its content (set aside, not retried); undefined for any other failure. */
function refusal(err: unknown): string | undefined {
  if (err instanceof VerdictStoreError) return `refused: ${err.message}`;
  if (err instanceof ServerError && err.refused) return `the server refused it: ${err.message}`;
  return undefined;
}
