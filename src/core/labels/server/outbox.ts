// The SQLite side of a label server's replica: each local transaction's changes as one event waiting for the server
// (written in the same transaction as the labels, so a label the person saw saved is always queued), the server's
// sequence number once it logged the event, how far the server's log has been read, and the conflicts it reported.
import type Database from 'better-sqlite3';
import type { WriteJournal } from '../store';
import { opKey, type LabelEvent, type OpConflict, type SyncOp } from './ops';
import { crypto } from '../../io/builtins';

export interface QueuedEvent extends LabelEvent {
  /** The server's sequence number, once it logged the event; null while it waits. */
  seq: number | null;
}

export interface StoredConflict {
  uid: string;
  seq: number;
  op: SyncOp;
  reason: string;
  madeAt: string;
}

interface DbEvent {
  uid: string;
  author: string;
  ops: string;
  made_at: string;
  seq: number | null;
}

export class Outbox implements WriteJournal {
  private readonly stmts;

  constructor(
    db: Database.Database,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {
    this.stmts = {
      insert: db.prepare('INSERT INTO outbox (uid, author, ops, made_at) VALUES (?, ?, ?, ?)'),
      pending: db.prepare<[number], DbEvent>('SELECT * FROM outbox WHERE seq IS NULL ORDER BY id LIMIT ?'),
      count: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM outbox WHERE seq IS NULL'),
      sent: db.prepare('UPDATE outbox SET seq = ? WHERE uid = ?'),
      mine: db.prepare<[string], { seq: number | null }>('SELECT seq FROM outbox WHERE uid = ?'),
      forget: db.prepare('DELETE FROM outbox WHERE seq IS NOT NULL AND seq <= ?'),
      drop: db.prepare('DELETE FROM outbox WHERE uid = ? AND seq IS NULL'),
      getState: db.prepare<[string], { value: string }>('SELECT value FROM sync_state WHERE key = ?'),
      setState: db.prepare(
        'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      conflict: db.prepare('INSERT INTO sync_conflicts (uid, seq, op, reason, made_at) VALUES (?, ?, ?, ?, ?)'),
      conflicts: db.prepare<[], { uid: string; seq: number; op: string; reason: string; made_at: string }>(
        'SELECT * FROM sync_conflicts ORDER BY id',
      ),
      clearConflicts: db.prepare('DELETE FROM sync_conflicts'),
    };
  }

  /** WriteJournal: queues one transaction's changes as one event. */
  written(ops: SyncOp[]): void {
    this.stmts.insert.run(crypto().randomUUID(), opKey(ops[0].action).author, JSON.stringify(ops), this.now());
  }

  /** The events the server has not acknowledged, oldest first. */
  pending(limit = 100): QueuedEvent[] {
    return this.stmts.pending.all(limit).map((r) => ({
      uid: r.uid,
      author: r.author,
      madeAt: r.made_at,
      ops: JSON.parse(r.ops) as SyncOp[],
      seq: r.seq,
    }));
  }

  pendingCount(): number {
    return this.stmts.count.get()?.n ?? 0;
  }

  markSent(uid: string, seq: number): void {
    this.stmts.sent.run(seq, uid);
  }

  /** Whether this replica sent the event `uid` (its changes are here already). */
  isMine(uid: string): boolean {
    return this.stmts.mine.get(uid) !== undefined;
  }

  /** Forgets the sent events the pull has passed. */
  forgetThrough(seq: number): void {
    this.stmts.forget.run(seq);
  }

  /** How far the server's event log has been read (0: not at all). */
  get pulledSeq(): number {
    return Number(this.stmts.getState.get('pulled_seq')?.value ?? 0);
  }

  set pulledSeq(seq: number) {
    this.stmts.setState.run('pulled_seq', String(seq));
  }

  /** The server this replica copies (its URL without password); undefined for a new replica. */
  get server(): string | undefined {
    return this.stmts.getState.get('server')?.value;
  }

  set server(id: string) {
    this.stmts.setState.run('server', id);
  }

  addConflicts(event: LabelEvent, seq: number, conflicts: readonly OpConflict[]): void {
    for (const c of conflicts)
      this.stmts.conflict.run(event.uid, seq, JSON.stringify(event.ops[c.index]), c.reason, event.madeAt);
  }

  /**
   * Takes `event` out of the queue because the server refused its content (sending it again would be refused again
   * and would hold back every change behind it): each of its operations is kept as a conflict with the reason, for
   * the person to see, in the same transaction.
   */
  setAside(event: LabelEvent, reason: string): void {
    for (const index of event.ops.keys())
      this.stmts.conflict.run(event.uid, 0, JSON.stringify(event.ops[index]), reason, event.madeAt);
    this.stmts.drop.run(event.uid);
  }

  conflicts(): StoredConflict[] {
    return this.stmts.conflicts.all().map((r) => ({
      uid: r.uid,
      seq: r.seq,
      op: JSON.parse(r.op) as SyncOp,
      reason: r.reason,
      madeAt: r.made_at,
    }));
  }

  clearConflicts(): void {
    this.stmts.clearConflicts.run();
  }
}
