// The audit's verdicts when personaLab.labels.server names a team's server: they go to that server too. The audit
// records into a local replica (core/pi/server/sync.ts) beside the label replica, and this sends its queue and reads
// everyone else's verdicts soon after each verdict and every few seconds, with the labels' password.
import { basename, dirname, join } from 'node:path';
import type * as vscode from 'vscode';
import type { VerdictOutbox } from '../../core/pi/server/outbox';
import { ServerVerdictStore } from '../../core/pi/server/store';
import { VerdictSync, type VerdictSyncReport } from '../../core/pi/server/sync';
import { describeServer } from '../../core/storage/postgres';
import { passwordKey, replicaPath } from '../labels/serverLink';
import { log } from '../log';
import { SyncPoller } from '../serverPoll';

/** `.personalab/verdicts-server-<hash>.db`, beside the label replica of the same server. */
export function verdictReplicaPath(home: string, url: string): string {
  const labels = replicaPath(home, url);
  return join(dirname(labels), `verdicts-${basename(labels)}`);
}

/** What the log says about the server's verdicts. */
export function verdictServerNote(server: string, r: Pick<VerdictSyncReport, 'state' | 'pending' | 'error'>): string {
  const queued = r.pending ? `, ${r.pending} verdict(s) queued here` : '';
  switch (r.state) {
    case 'online':
      return `verdicts on the label server ${server}: online${r.pending ? queued : ', every verdict sent'}`;
    case 'offline':
      return `verdicts on the label server ${server}: cannot be reached; verdicts are kept here${queued} and sent when it is back`;
    case 'error':
      return `verdicts on the label server ${server}: ${r.error ?? 'error'}${queued}`;
  }
}

export class VerdictLink implements vscode.Disposable {
  private readonly sync: VerdictSync;
  private readonly server: string;
  private readonly poller: SyncPoller<VerdictSyncReport>;
  private said = '';

  constructor(
    outbox: VerdictOutbox,
    url: string,
    secrets: vscode.SecretStorage | undefined,
    /** Called when others' verdicts arrived (not for this window's own, which it shows already). */
    private readonly changed: () => void,
  ) {
    this.server = describeServer(url);
    this.sync = new VerdictSync(outbox, async () =>
      ServerVerdictStore.open(url, { password: (await secrets?.get(passwordKey(url))) || undefined }),
    );
    this.poller = new SyncPoller(
      () =>
        this.sync.sync().catch((err: Error): VerdictSyncReport => ({
          state: 'error',
          pushed: 0,
          pulled: 0,
          pending: 0,
          error: err.message,
        })),
      (r) => this.told(r),
    );
  }

  /** Sends soon (a verdict on many findings goes as one sync). */
  soon(): void {
    this.poller.soon();
  }

  /** Syncs now and waits for it (tests, and a command that must see the server's state). */
  now(): Promise<VerdictSyncReport> {
    return this.poller.now();
  }

  private told(report: VerdictSyncReport): void {
    const note = verdictServerNote(this.server, report);
    if (note !== this.said) log.info(note);
    this.said = note;
    for (const s of report.setAside ?? []) log.warn(`verdict server ${this.server}: not sent, ${s}`);
    for (const s of report.skipped ?? []) log.warn(`verdict server ${this.server}: not taken here, ${s}`);
    if (report.pulled > 0) this.changed();
  }

  dispose(): void {
    this.poller.dispose();
    void this.sync.close();
  }
}
