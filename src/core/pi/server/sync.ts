// A replica of the verdicts on a label server: the audit records into a local SQLite verdict store as it always has
// (never waiting on the network, going on while the server is away); each sync sends the queued verdicts in order,
// exactly once (the server keeps one row per uid), then reads the server's trail after the last id read, adding
// everyone else's. Verdicts are append-only, so two people's verdicts never conflict: both are kept in the trail, and
// a finding's current verdict is the one the server numbered last, the same in every replica.
import { describeServer, isUnreachable, ServerError } from '../../storage/postgres';
import type { SyncState } from '../../labels/server/sync';
import { VerdictStore, VerdictStoreError, type VerdictOpenOptions } from '../verdicts';
import { VerdictOutbox } from './outbox';
import type { ServerVerdictStore } from './store';

export interface VerdictSyncReport {
  state: SyncState;
  /** Verdicts the server acknowledged in this sync (duplicates included). */
  pushed: number;
  /** Other writers' verdicts added here. */
  pulled: number;
  /** Verdicts still waiting for the server. */
  pending: number;
  /** Why the server could not be used (offline or error). */
  error?: string;
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
  const id = describeServer(serverUrl);
  const copies = box.server;
  if (copies === undefined) box.server = id;
  else if (copies !== id) {
    store.close();
    throw new VerdictStoreError(`${path}: this file copies the verdicts of ${copies}, not ${id}`);
  }
  return { store, outbox: box };
}

const PUSH = 50;
const PAGE = 500;

export class VerdictSync {
  private server: ServerVerdictStore | undefined;
  private running: Promise<VerdictSyncReport> | undefined;

  constructor(
    readonly outbox: VerdictOutbox,
    private readonly connect: () => Promise<ServerVerdictStore>,
  ) {}

  /** One sync; a call while one runs waits for it and starts another (what was queued meanwhile is sent too). */
  async sync(): Promise<VerdictSyncReport> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.once();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  async close(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.server?.close().catch(() => undefined);
    this.server = undefined;
  }

  private async once(): Promise<VerdictSyncReport> {
    const report: VerdictSyncReport = { state: 'online', pushed: 0, pulled: 0, pending: 0 };
    try {
      const server = (this.server ??= await this.connect());
      for (let batch = this.outbox.pending(PUSH); batch.length; batch = this.outbox.pending(PUSH)) {
        this.outbox.sent(await server.push(batch));
        report.pushed += batch.length;
      }
      for (;;) {
        const rows = await server.rowsSince(this.outbox.pulledId, PAGE);
        if (rows.length === 0) break;
        report.pulled += this.outbox.applyPulled(rows);
      }
    } catch (err) {
      if (isUnreachable(err)) {
        // The pool is dropped so that the next sync connects afresh once the server is back.
        await this.server?.close().catch(() => undefined);
        this.server = undefined;
        report.state = 'offline';
      } else report.state = 'error';
      report.error = (err as Error).message;
      if (!(err instanceof ServerError) && !(err instanceof VerdictStoreError) && !isUnreachable(err)) throw err;
    }
    report.pending = this.outbox.pendingCount();
    return report;
  }
}
