// What every replica of a server store (labels, verdicts) does around its own send-and-read: keep one connection
// across syncs, run one sync at a time, and tell a server that is away (offline: its connection is dropped, to be
// made afresh once it is back) from one that refused the work (error). Errors that are not worded for a person are
// bugs and pass through.
import { describeServer, isUnreachable, ServerError } from './postgres';

/**
 * Marks a new replica as the copy of `serverUrl` (its URL without password), or says which server an existing one
 * copies when it is another: a replica file never mixes two servers' rows.
 */
export function claimReplica(
  holder: { server: string | undefined },
  serverUrl: string,
): { copies: string; wanted: string } | undefined {
  const wanted = describeServer(serverUrl);
  const copies = holder.server;
  if (copies === undefined) holder.server = wanted;
  else if (copies !== wanted) return { copies, wanted };
  return undefined;
}

export type SyncState = 'online' | 'offline' | 'error';

export interface SyncReportBase {
  state: SyncState;
  /** Changes still waiting for the server. */
  pending: number;
  /** Why the server could not be used (offline or error). */
  error?: string;
}

export interface SyncSteps<S, R extends SyncReportBase> {
  connect: () => Promise<S>;
  /** A report before anything happened (state online). */
  blank: () => R;
  /** Sends and reads, filling `report`; throws when the server cannot be used. */
  run: (server: S, report: R) => Promise<void>;
  pending: () => number;
  /** Errors of the store's own kind, worded for a person (a refused write): reported as `error`, not thrown. */
  known: (err: unknown) => boolean;
}

export class ServerSyncRunner<S extends { close(): Promise<void> }, R extends SyncReportBase> {
  private server: S | undefined;
  private running: Promise<R> | undefined;

  constructor(private readonly steps: SyncSteps<S, R>) {}

  /** One sync; a call while one runs waits for it and starts another (what was queued meanwhile is sent too). */
  async sync(): Promise<R> {
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

  private async once(): Promise<R> {
    const report = this.steps.blank();
    try {
      this.server ??= await this.steps.connect();
      await this.steps.run(this.server, report);
    } catch (err) {
      const away = isUnreachable(err);
      if (away) {
        await this.server?.close().catch(() => undefined);
        this.server = undefined;
      }
      report.state = away ? 'offline' : 'error';
      report.error = (err as Error).message;
      if (!away && !(err instanceof ServerError) && !this.steps.known(err)) throw err;
    }
    report.pending = this.steps.pending();
    return report;
  }
}
