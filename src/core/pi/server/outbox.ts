// The SQLite side of a replica of the server's verdicts: the uids of the verdicts recorded here that the server has
// not acknowledged (queued in the transaction that records them, so a verdict the person saw saved is always sent),
// which server this file copies, and how far its trail has been read. Once the server gave a verdict its id, the row
// here takes that id (../verdicts.ts LOCAL_VERDICT_IDS), so the replica's trail is in the server's order.
import type Database from 'better-sqlite3';
import { retryWhileBusy } from '../../storage/sqlite';
import {
  VerdictStoreError,
  VERDICT_COLUMNS,
  verdictOfDb,
  verdictParams,
  type DbVerdict,
  type VerdictJournal,
} from '../verdicts';
import { noteProblem } from '../../labels/model';
import { isOversize, type PulledVerdict, type PushedVerdict, type SyncedVerdict } from './store';

export class VerdictOutbox implements VerdictJournal {
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    this.stmts = {
      queue: db.prepare('INSERT INTO verdict_outbox (uid) VALUES (?)'),
      pending: db.prepare<[number], DbVerdict & { uid: string }>(
        'SELECT p.* FROM verdict_outbox o JOIN pi_verdicts p ON p.uid = o.uid ORDER BY o.id LIMIT ?',
      ),
      count: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM verdict_outbox'),
      has: db.prepare<[string], { id: number }>('SELECT id FROM pi_verdicts WHERE uid = ?'),
      renumber: db.prepare('UPDATE pi_verdicts SET id = ? WHERE uid = ?'),
      dequeue: db.prepare('DELETE FROM verdict_outbox WHERE uid = ?'),
      insert: db.prepare(
        `INSERT INTO pi_verdicts (id, uid, ${VERDICT_COLUMNS}) VALUES (${'?, '.repeat(VERDICT_COLUMNS.split(',').length + 1)}?)`,
      ),
      getState: db.prepare<[string], { value: string }>('SELECT value FROM verdict_sync_state WHERE key = ?'),
      setState: db.prepare(
        'INSERT INTO verdict_sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
    };
  }

  /** VerdictJournal: queues a verdict recorded here. */
  recorded(uid: string): void {
    this.stmts.queue.run(uid);
  }

  /** The verdicts the server has not acknowledged, in the order they were recorded. */
  pending(limit = 50): SyncedVerdict[] {
    return this.stmts.pending.all(limit).map((r) => {
      const { id: _local, ...values } = verdictOfDb(r);
      return { ...values, uid: r.uid };
    });
  }

  pendingCount(): number {
    return this.stmts.count.get()?.n ?? 0;
  }

  /** The server logged these verdicts: each takes its server id here and leaves the queue. */
  sent(pushed: readonly PushedVerdict[]): void {
    this.transaction(() => {
      for (const p of pushed) this.acknowledge(p.uid, p.id);
    });
  }

  /** Takes a verdict the server refused for its content out of the queue; it stays in this replica's trail. */
  setAside(uid: string): void {
    this.transaction(() => this.stmts.dequeue.run(uid));
  }

  /**
   * Adds the server's verdicts read after pulledId (in its order) and moves pulledId past them; one of this
   * replica's own is only renumbered. A row beyond what a verdict here may hold (oversize, or a note longer than the
   * local limit) is skipped and its reason returned. Returns how many were someone else's, and what was skipped.
   */
  applyPulled(rows: readonly PulledVerdict[]): { added: number; skipped: string[] } {
    const skipped: string[] = [];
    if (rows.length === 0) return { added: 0, skipped };
    const added = this.transaction(() => {
      let others = 0;
      for (const r of rows) {
        const why = isOversize(r) ? r.oversize : noteProblem(r.note);
        if (isOversize(r) || why !== null) skipped.push(`verdict ${r.id} from ${r.author}: ${why}`);
        else if (this.stmts.has.get(r.uid)) this.acknowledge(r.uid, r.id);
        else {
          this.stmts.insert.run(r.id, r.uid, ...verdictParams(r));
          others++;
        }
      }
      this.stmts.setState.run('pulled_id', String(rows[rows.length - 1].id));
      return others;
    });
    return { added, skipped };
  }

  /** The last server id read (0: none yet). */
  get pulledId(): number {
    return Number(this.stmts.getState.get('pulled_id')?.value ?? 0);
  }

  /** The server this replica copies (its URL without password); undefined for a new replica. */
  get server(): string | undefined {
    return this.stmts.getState.get('server')?.value;
  }

  set server(id: string) {
    this.stmts.setState.run('server', id);
  }

  private acknowledge(uid: string, serverId: number): void {
    if (this.stmts.has.get(uid)?.id !== serverId) this.stmts.renumber.run(serverId, uid);
    this.stmts.dequeue.run(uid);
  }

  private transaction<T>(fn: () => T): T {
    const tx = this.db.transaction(fn);
    return retryWhileBusy(
      () => tx.immediate(),
      60_000,
      (s) => new VerdictStoreError(`the verdict replica stayed locked by another process for ${s} s; try again`),
    );
  }
}
