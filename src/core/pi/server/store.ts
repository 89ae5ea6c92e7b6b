// The verdict trail on a PostgreSQL server, shared by a team. A verdict carries the uid its writer chose: a push
// sent twice (its acknowledgement lost) adds it once. Verdicts commit in the order of their ids (an advisory lock held
// from the insert to the commit), so a replica that reads "after id N" never skips one committed late.
import type { Pool } from 'pg';
import { inTransaction, migrateServer, openPool, pgSql, serverError, type ServerOptions } from '../../storage/postgres';
import {
  isVerdict,
  latestByKey,
  trailQuery,
  verdictOfDb,
  verdictParams,
  VerdictStoreError,
  VERDICT_COLUMNS,
  type DbVerdict,
  type TrailFilter,
  type VerdictRow,
  type VerdictValues,
} from '../verdicts';
import { MAX_ROW_BYTES, PAGE_BYTES } from '../../storage/serverBounds';
import { VERDICT_SERVER_SCHEMA } from './schema';

/** The advisory lock that orders the verdicts' commits (no other Persona Lab lock uses this number). */
const VERDICT_LOCK = 0x5e_4a_1a_b2;

/** A verdict as it travels between a replica and the server. */
export type SyncedVerdict = VerdictValues & { uid: string };

/** A verdict on the server: its id there, and its uid. */
export type ServerVerdict = VerdictRow & { uid: string };

/** A server row larger than any verdict this tool writes: only its id, uid and the start of its author come. */
export interface OversizeVerdict {
  id: number;
  uid: string;
  author: string;
  oversize: string;
}

export type PulledVerdict = ServerVerdict | OversizeVerdict;

export const isOversize = (v: PulledVerdict): v is OversizeVerdict => 'oversize' in v;

export interface PushedVerdict {
  uid: string;
  /** The verdict's id on the server. */
  id: number;
  /** The server held it already (sent before, the acknowledgement lost). */
  duplicate: boolean;
}

const INSERT = `INSERT INTO pi_verdicts (uid, ${VERDICT_COLUMNS}) VALUES (${Array.from(
  { length: VERDICT_COLUMNS.split(',').length + 1 },
  (_, i) => `$${i + 1}`,
).join(', ')}) ON CONFLICT (uid) DO NOTHING RETURNING id`;

export class ServerVerdictStore {
  private constructor(
    readonly url: string,
    private readonly pool: Pool,
  ) {}

  /** Connects and brings the verdict schema up to date (once per server, under an advisory lock). Throws ServerError. */
  static async open(url: string, opts: ServerOptions = {}): Promise<ServerVerdictStore> {
    const pool = await openPool(url, opts);
    try {
      await migrateServer(pool, VERDICT_SERVER_SCHEMA);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw serverError(err, url);
    }
    return new ServerVerdictStore(url, pool);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Adds `verdicts` in one transaction, each once by its uid; throws VerdictStoreError for an invalid one. */
  async push(verdicts: readonly SyncedVerdict[]): Promise<PushedVerdict[]> {
    for (const v of verdicts) {
      if (!isVerdict(v.verdict)) throw new VerdictStoreError(`unknown verdict "${String(v.verdict)}"`);
      if (!v.author.trim()) throw new VerdictStoreError('a verdict needs an author');
      if (!v.uid) throw new VerdictStoreError('a verdict sent to the server needs a uid');
    }
    try {
      return await inTransaction(this.pool, async (c) => {
        await c.query('SELECT pg_advisory_xact_lock($1)', [VERDICT_LOCK]);
        const out: PushedVerdict[] = [];
        for (const v of verdicts) {
          const added = await c.query<{ id: string }>(INSERT, [v.uid, ...verdictParams(v)]);
          if (added.rows[0]) {
            out.push({ uid: v.uid, id: Number(added.rows[0].id), duplicate: false });
            continue;
          }
          const held = await c.query<{ id: string }>('SELECT id FROM pi_verdicts WHERE uid = $1', [v.uid]);
          out.push({ uid: v.uid, id: Number(held.rows[0].id), duplicate: true });
        }
        return out;
      });
    } catch (err) {
      throw serverError(err, this.url);
    }
  }

  /**
   * The verdicts after server id `id`, in order: at most `limit`, and no more than `pageBytes` of rows (at least one).
   * A row larger than any verdict could be (MAX_ROW_BYTES) comes without its text, with `oversize` saying why: what a
   * server holds is bounded as the local store is. Sizes are measured on the server; only the rows taken are sent.
   */
  async rowsSince(id: number, limit = 500, pageBytes = PAGE_BYTES): Promise<PulledVerdict[]> {
    const sizes = await this.query<{ id: string; uid: string; author: string; bytes: string; too_big: boolean }>(
      `SELECT id, left(uid, 64) AS uid, left(author, 80) AS author, bytes, too_big FROM (
         SELECT v.id, v.uid, v.author, b.bytes, b.bytes > $3 AS too_big,
           sum(CASE WHEN b.bytes > $3 THEN 0 ELSE b.bytes END) OVER (ORDER BY v.id) AS upto
         FROM (SELECT * FROM pi_verdicts WHERE id > $1 ORDER BY id LIMIT $2) v
         CROSS JOIN LATERAL (SELECT octet_length(v::text) AS bytes) b
       ) t
       WHERE upto - CASE WHEN too_big THEN 0 ELSE bytes END < $4
       ORDER BY id`,
      [id, limit, MAX_ROW_BYTES, pageBytes],
    );
    const wanted = sizes.filter((s) => !s.too_big).map((s) => s.id);
    const rows = wanted.length
      ? await this.query<DbVerdict & { uid: string }>('SELECT * FROM pi_verdicts WHERE id = ANY($1::bigint[])', [
          wanted,
        ])
      : [];
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    return sizes.map((s): PulledVerdict => {
      const row = byId.get(s.id);
      if (!s.too_big && row) return { ...verdictOfDb(row), uid: row.uid };
      return {
        id: Number(s.id),
        uid: s.uid,
        author: s.author,
        oversize: `it takes ${s.bytes} bytes, more than the ${MAX_ROW_BYTES} a verdict can need`,
      };
    });
  }

  /** Every verdict matching the filter, oldest first (as VerdictStore.trail). */
  async trail(filter: TrailFilter = {}): Promise<VerdictRow[]> {
    const { sql, params } = trailQuery(filter);
    return (await this.query<DbVerdict>(pgSql(sql), params)).map(verdictOfDb);
  }

  /** The latest verdict per finding key. */
  async current(benchmark?: string): Promise<Map<string, VerdictRow>> {
    return latestByKey(await this.trail(benchmark === undefined ? {} : { benchmark }));
  }

  private async query<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (err) {
      throw serverError(err, this.url);
    }
  }
}
