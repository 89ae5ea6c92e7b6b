// This window's link to a team's label server (personaLab.labels.server): the views label into a local replica
// (core/labels/server/sync.ts) and this sends its queue and reads everyone else's writes, soon after each write and
// every few seconds. It keeps what the labels bar says about the server (online, offline with N queued, an error)
// and tells the person about a change the server refused as a conflict.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeOp } from '../../core/labels/server/ops';
import type { Outbox } from '../../core/labels/server/outbox';
import { ServerLabelStore } from '../../core/labels/server/store';
import { LabelSync, type SyncReport } from '../../core/labels/server/sync';
import type { LabelStore } from '../../core/labels/store';
import { describeServer } from '../../core/storage/postgres';
import { log } from '../log';
import { SyncPoller } from '../serverPoll';
import { crypto } from '../../core/io/builtins';

/** The SecretStorage key of a server's password (one per user@host:port/database). */
export function passwordKey(url: string): string {
  return `personaLab.labels.serverPassword:${describeServer(url)}`;
}

/** The replica file of `url` in the labels home's .personalab/ folder, one per server. */
export function replicaPath(home: string, url: string): string {
  const id = crypto().createHash('sha256').update(describeServer(url)).digest('hex').slice(0, 12);
  return join(home, '.personalab', `server-${id}.db`);
}

export interface ServerStatus {
  server: string;
  state: SyncReport['state'] | 'connecting';
  /** Writes waiting for the server. */
  pending: number;
  error?: string;
}

/** The labels bar's one line about the server. */
export function serverNote(s: ServerStatus): string {
  const queued = s.pending ? `, ${s.pending} change(s) queued here` : '';
  switch (s.state) {
    case 'connecting':
      return `Label server ${s.server}: connecting${queued}`;
    case 'online':
      return `Label server ${s.server}: online${s.pending ? queued : ', every label sent'}`;
    case 'offline':
      return `Label server ${s.server} cannot be reached: labelling goes on here${queued}; they are sent when it is back`;
    case 'error':
      return `Label server ${s.server}: ${s.error ?? 'error'}${queued}`;
  }
}

export class ServerLink implements vscode.Disposable {
  private readonly sync: LabelSync;
  private readonly poller: SyncPoller<SyncReport>;
  private current: ServerStatus;

  constructor(
    store: LabelStore,
    readonly outbox: Outbox,
    readonly url: string,
    password: () => Thenable<string | undefined>,
    /** Called when what the views show may have changed (others' labels arrived, the status changed). */
    private readonly changed: () => void,
  ) {
    this.sync = new LabelSync(store, outbox, async () =>
      ServerLabelStore.open(url, { password: (await password()) || undefined }),
    );
    this.current = { server: describeServer(url), state: 'connecting', pending: outbox.pendingCount() };
    this.poller = new SyncPoller(
      () => this.once(),
      (r) => this.told(r),
    );
  }

  get status(): ServerStatus {
    return this.current;
  }

  /** Sends soon (a burst of key presses goes as one sync). */
  soon(): void {
    this.poller.soon();
  }

  /** Syncs now and waits for it (tests, and a command that must see the server's state). */
  now(): Promise<SyncReport> {
    return this.poller.now();
  }

  private once(): Promise<SyncReport> {
    return this.sync.sync().catch((err: Error): SyncReport => ({
      state: 'error',
      pushed: 0,
      pulled: 0,
      conflicts: [],
      skipped: [],
      pending: this.outbox.pendingCount(),
      error: err.message,
    }));
  }

  private told(report: SyncReport): void {
    const before = this.current;
    this.current = { server: before.server, state: report.state, pending: report.pending, error: report.error };
    if (report.state !== before.state || report.error !== before.error)
      log.info(`label server ${before.server}: ${serverNote(this.current)}`);
    for (const s of report.skipped)
      log.warn(`label server ${before.server}: a change pulled from it was not applied here: ${s}`);
    for (const c of report.conflicts) {
      const where = describeOp(c.op.action);
      log.warn(`label server ${before.server}: a change was not applied there: ${c.reason} (${where})`);
      void vscode.window.showWarningMessage(
        `Persona Lab: a label change was not applied on the server: ${c.reason} (${where}). It now shows what the server holds.`,
      );
    }
    const moved =
      report.pulled > 0 ||
      report.conflicts.length > 0 ||
      report.state !== before.state ||
      report.pending !== before.pending;
    if (moved) this.changed();
  }

  dispose(): void {
    this.poller.dispose();
    void this.sync.close();
  }
}

/** Persona Lab: Set Label Server Password: for the server in personaLab.labels.server, in the secret storage. */
export async function setServerPassword(
  labels: { readonly serverUrl: string },
  secrets: vscode.SecretStorage,
): Promise<void> {
  const url = labels.serverUrl;
  if (!url) {
    void vscode.window.showErrorMessage(
      'Persona Lab: set personaLab.labels.server to the label server URL (postgres://user@host:port/database) first.',
    );
    return;
  }
  const password = await vscode.window.showInputBox({
    title: `Persona Lab: password of ${describeServer(url)}`,
    prompt: "Kept in VS Code's secret storage only, never in settings.",
    password: true,
    ignoreFocusOut: true,
  });
  if (password !== undefined) await secrets.store(passwordKey(url), password);
}
