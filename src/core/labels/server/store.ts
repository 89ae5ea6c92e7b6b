// The label store on a PostgreSQL server, shared by a team. Every write is one event (ops.ts) applied in one
// transaction with its log row: an event sent twice is applied once, an operation whose key someone changed in
// between is a logged conflict, not an overwrite. Events commit in the order of their sequence numbers (an advisory
// lock held from the log insert to the commit), so a window that pulls "after seq N" never skips one.
import type { Pool, PoolClient } from 'pg';
import { inTransaction, migrateServer, openPool, pgSql, serverError, type ServerOptions } from '../../storage/postgres';
import type { LabelRow, StepRef } from '../model';
import { scoreKeyParams, scoreToRow, scoreWhere, SCORE_KEY_WHERE, SCORE_UPSERT_SQL } from '../scoreSql';
import type { ScoreFilter, DbScore } from '../scoreSql';
import type { ScoreRow } from '../scores';
import { COLUMNS, KEY_WHERE, keyParams, toRow, type DbRow } from '../sqlRows';
import { actionProblem, LabelStoreError, rowWhere, type LabelCount, type RowFilter } from '../store';
import {
  conflictOf,
  type EventStatus,
  type LabelEvent,
  type LoggedEvent,
  type OpConflict,
  type PushResult,
  type SyncOp,
} from './ops';
import { SERVER_SCHEMA } from './schema';
import { MAX_ROW_BYTES, PAGE_BYTES } from '../../storage/serverBounds';

/** The most bytes one operation's JSON can take: a key and a note of MAX_NOTE_LENGTH characters, escaped. */
export const MAX_OP_BYTES = MAX_ROW_BYTES;

/** The advisory lock that orders the event log's commits (any fixed number no other Persona Lab lock uses). */
const EVENT_LOCK = 0x5e_4a_1a_b1;

const SQL = {
  insert: pgSql(
    `INSERT INTO labels (${COLUMNS}) VALUES (${COLUMNS.split(',')
      .map(() => '?')
      .join(', ')}) ON CONFLICT DO NOTHING`,
  ),
  lockRow: pgSql(`SELECT * FROM labels WHERE ${KEY_WHERE} FOR UPDATE`),
  remove: pgSql(`DELETE FROM labels WHERE ${KEY_WHERE}`),
  setNote: pgSql(`UPDATE labels SET note = ? WHERE ${KEY_WHERE}`),
  byStep: pgSql(
    'SELECT * FROM labels WHERE benchmark = ? AND platform = ? AND user_id = ? AND step_id = ? AND run = ? ORDER BY id',
  ),
  lockScore: pgSql(`SELECT * FROM judge_scores WHERE ${SCORE_KEY_WHERE} FOR UPDATE`),
  upsertScore: pgSql(SCORE_UPSERT_SQL),
  removeScore: pgSql(`DELETE FROM judge_scores WHERE ${SCORE_KEY_WHERE}`),
};

interface DbEvent {
  seq: string;
  uid: string;
  author: string;
  ops: unknown;
  status: EventStatus;
  conflicts: unknown;
  made_at: string;
}

/** Thrown inside a push's transaction when the same event committed meanwhile: the retry finds it logged. */
class RaceLost extends Error {
  readonly code = '40001';
}

export class ServerLabelStore {
  private constructor(
    readonly url: string,
    private readonly pool: Pool,
  ) {}

  /** Connects and brings the schema up to date (once per server, under an advisory lock). Throws ServerError. */
  static async open(url: string, opts: ServerOptions = {}): Promise<ServerLabelStore> {
    const pool = await openPool(url, opts);
    try {
      await migrateServer(pool, SERVER_SCHEMA);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw serverError(err, url);
    }
    return new ServerLabelStore(url, pool);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** For the queues (queue.ts), which share the connection pool. */
  get connections(): Pool {
    return this.pool;
  }

  /** Applies `event` once (see the file's comment); throws LabelStoreError for an invalid operation, ServerError. */
  async push(event: LabelEvent): Promise<PushResult> {
    for (const op of event.ops) {
      const problem = actionProblem(op.action);
      if (problem) throw new LabelStoreError(problem);
    }
    try {
      return await inTransaction(this.pool, async (c) => {
        const seen = await c.query<DbEvent>('SELECT * FROM label_events WHERE uid = $1', [event.uid]);
        if (seen.rows[0]) return { ...resultOf(seen.rows[0]), duplicate: true };
        const conflicts: OpConflict[] = [];
        let changed = false;
        for (const [index, op] of event.ops.entries()) {
          const r = await applyOp(c, op);
          if (r.conflict) conflicts.push({ index, reason: r.conflict });
          changed ||= r.changed;
        }
        const status: EventStatus = conflicts.length ? 'conflict' : changed ? 'applied' : 'unchanged';
        await c.query('SELECT pg_advisory_xact_lock($1)', [EVENT_LOCK]);
        const logged = await c.query<{ seq: string }>(
          'INSERT INTO label_events (uid, author, ops, status, conflicts, made_at) VALUES ($1, $2, $3, $4, $5, $6) ' +
            'ON CONFLICT (uid) DO NOTHING RETURNING seq',
          [event.uid, event.author, JSON.stringify(event.ops), status, JSON.stringify(conflicts), event.madeAt],
        );
        if (!logged.rows[0]) throw new RaceLost('the same event was logged meanwhile');
        return { seq: Number(logged.rows[0].seq), status, conflicts, duplicate: false };
      });
    } catch (err) {
      if (err instanceof LabelStoreError) throw err;
      throw serverError(err, this.url);
    }
  }

  /**
   * The logged events after `seq`, in order: at most `limit`, and no more than `pageBytes` of operations (at least
   * one event). An event larger than any valid one could be (MAX_OP_BYTES per operation) comes without its
   * operations and with `oversize` saying why: a server's rows are bounded as the local store's are.
   */
  async eventsSince(seq: number, limit = 500, pageBytes = PAGE_BYTES): Promise<LoggedEvent[]> {
    const rows = await this.query<DbEvent & { bytes: string; too_big: boolean }>(
      `SELECT seq, uid, author, status, conflicts, made_at, bytes, too_big,
         CASE WHEN too_big THEN '[]'::jsonb ELSE ops END AS ops
       FROM (
         SELECT e.*, w.bytes, w.too_big, sum(CASE WHEN w.too_big THEN 0 ELSE w.bytes END) OVER (ORDER BY e.seq) AS upto
         FROM (SELECT * FROM label_events WHERE seq > $1 ORDER BY seq LIMIT $2) e
         CROSS JOIN LATERAL (SELECT octet_length(e.ops::text) AS bytes) b
         CROSS JOIN LATERAL (SELECT b.bytes, b.bytes > $3 * greatest(jsonb_array_length(e.ops), 1) AS too_big) w
       ) t
       WHERE upto - CASE WHEN too_big THEN 0 ELSE bytes END < $4
       ORDER BY seq`,
      [seq, limit, MAX_OP_BYTES, pageBytes],
    );
    return rows.map((r) => ({
      ...resultOf(r),
      uid: r.uid,
      author: r.author,
      madeAt: r.made_at,
      ops: Array.isArray(r.ops) ? (r.ops as SyncOp[]) : [],
      ...(r.too_big
        ? { oversize: `its operations take ${r.bytes} bytes, more than ${MAX_OP_BYTES} per operation a label can need` }
        : {}),
    }));
  }

  /** The last event's sequence number (0: none yet). */
  async lastSeq(): Promise<number> {
    const rows = await this.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM label_events');
    return Number(rows[0]?.seq ?? 0);
  }

  /** The labels matching the filter, oldest first, without the rows larger than any label can be (see oversize). */
  async list(filter: RowFilter = {}): Promise<LabelRow[]> {
    const { sql, params } = boundedWhere(filter, '<=');
    return (await this.query<DbRow>(pgSql(`SELECT * FROM labels l${sql} ORDER BY id`), params)).map(toRow);
  }

  /** The rows `list` leaves out for their size, each described without its text. */
  async oversize(filter: RowFilter = {}): Promise<string[]> {
    const { sql, params } = boundedWhere(filter, '>');
    const rows = await this.query<{ id: string; author: string; bytes: string }>(
      pgSql(`SELECT id, left(author, 80) AS author, octet_length(l::text) AS bytes FROM labels l${sql} ORDER BY id`),
      params,
    );
    return rows.map(
      (r) => `label ${r.id} by ${r.author}: it takes ${r.bytes} bytes, more than the ${MAX_ROW_BYTES} a label can need`,
    );
  }

  async listByStep(ref: StepRef): Promise<LabelRow[]> {
    const rows = await this.query<DbRow>(SQL.byStep, [ref.benchmark, ref.platform, ref.userId, ref.stepId, ref.run]);
    return rows.map(toRow);
  }

  async scores(filter: ScoreFilter = {}): Promise<ScoreRow[]> {
    const { sql, params } = scoreWhere(filter);
    return (await this.query<DbScore>(pgSql(`SELECT * FROM judge_scores${sql} ORDER BY id`), params)).map(scoreToRow);
  }

  async countsPerLabelPerPlatform(filter: RowFilter = {}): Promise<LabelCount[]> {
    const { sql, params } = rowWhere(filter);
    const rows = await this.query<{ label: string; platform: string; count: string }>(
      pgSql(
        `SELECT label, platform, COUNT(*) AS count FROM labels${sql} GROUP BY label, platform ORDER BY label, platform`,
      ),
      params,
    );
    return rows.map((r) => ({ label: r.label, platform: r.platform, count: Number(r.count) }));
  }

  async authors(): Promise<string[]> {
    const rows = await this.query<{ author: string }>('SELECT DISTINCT author FROM labels ORDER BY author');
    return rows.map((r) => r.author);
  }

  async count(): Promise<number> {
    const rows = await this.query<{ n: string }>('SELECT COUNT(*) AS n FROM labels');
    return Number(rows[0]?.n ?? 0);
  }

  private async query<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (err) {
      throw serverError(err, this.url);
    }
  }
}

function resultOf(r: DbEvent): { seq: number; status: EventStatus; conflicts: OpConflict[] } {
  return {
    seq: Number(r.seq),
    status: r.status,
    conflicts: Array.isArray(r.conflicts) ? (r.conflicts as OpConflict[]) : [],
  };
}

/** Applies one operation inside the push's transaction, with the key's row locked while it is compared. */
async function applyOp(c: PoolClient, op: SyncOp): Promise<{ changed: boolean; conflict?: string }> {
  const a = op.action;
  switch (a.kind) {
    case 'add': {
      const r = a.row;
      const done = await c.query(SQL.insert, [...keyParams(r), r.note, r.createdAt, r.contentHash]);
      return { changed: (done.rowCount ?? 0) > 0 };
    }
    case 'remove':
    case 'setNote': {
      const held = (await c.query<DbRow>(SQL.lockRow, keyParams(a.key))).rows[0];
      const conflict = conflictOf(op, held ? toRow(held) : undefined);
      if (conflict) return { changed: false, conflict };
      if (!held) return { changed: false };
      if (a.kind === 'remove') await c.query(SQL.remove, keyParams(a.key));
      else if (held.note !== a.note) await c.query(SQL.setNote, [a.note, ...keyParams(a.key)]);
      else return { changed: false };
      return { changed: true };
    }
    case 'setScore': {
      const held = (await c.query<DbScore>(SQL.lockScore, scoreKeyParams(a.key))).rows[0];
      const before = held ? scoreToRow(held) : undefined;
      const conflict = conflictOf(op, before);
      if (conflict) return { changed: false, conflict };
      if (a.row === null) {
        if (!before) return { changed: false };
        await c.query(SQL.removeScore, scoreKeyParams(a.key));
        return { changed: true };
      }
      const row = a.row;
      const same =
        before?.score === row.score && before.contentHash === row.contentHash && before.createdAt === row.createdAt;
      if (!same) await c.query(SQL.upsertScore, [...scoreKeyParams(a.key), row.score, row.createdAt, row.contentHash]);
      return { changed: !same };
    }
  }
}

/** The filter's WHERE with the row-size bound added (`<=`: the rows taken; `>`: those left out). */
function boundedWhere(filter: RowFilter, op: '<=' | '>'): { sql: string; params: (string | number)[] } {
  const { sql, params } = rowWhere(filter);
  const size = `octet_length(l::text) ${op} ?`;
  return { sql: sql ? `${sql} AND ${size}` : ` WHERE ${size}`, params: [...params, MAX_ROW_BYTES] };
}
