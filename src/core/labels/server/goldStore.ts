// The gold rows on a label server (../goldRows.ts), the same decide / undo / list as the file's GoldStore. The
// server decides who may write them (schema v4: the adjudicator group only, by grant and trigger) and signs each
// decision with the session's role: the adjudicator named in a decision is whoever is logged in.
import { inTransaction, pgSql, serverError } from '../../storage/postgres';
import { ADJUDICATOR_ROLE } from '../../storage/pgRoles';
import type { Adjudication } from '../gold';
import {
  adjudicationsOf,
  goldParams,
  goldProblem,
  goldWhere,
  toGoldRow,
  unitParams,
  GOLD_BY_UID_SQL,
  GOLD_INSERT_SQL,
  GOLD_LATEST_SQL,
  GOLD_UNDO_SQL,
  type DbGold,
  type GoldFilter,
  type GoldRow,
} from '../goldRows';
import { decisionRow, type Decision, type GoldImport } from '../goldStore';
import type { StepRef } from '../model';
import { LabelStoreError } from '../store';
import type { ServerLabelStore } from './store';

const SQL = {
  insert: pgSql(GOLD_INSERT_SQL),
  latest: pgSql(`${GOLD_LATEST_SQL} FOR UPDATE`),
  undo: pgSql(GOLD_UNDO_SQL),
  byUid: pgSql(GOLD_BY_UID_SQL),
};

export class ServerGoldStore {
  constructor(private readonly server: Pick<ServerLabelStore, 'connections' | 'url'>) {}

  private get pool() {
    return this.server.connections;
  }

  /** The role this connection writes as: every decision and undo is signed with it. */
  async role(): Promise<string> {
    const r = await this.query<{ role: string }>('SELECT current_user::text AS role');
    return r[0]?.role ?? '';
  }

  /** Settles a unit; `adjudicator` is ignored in favour of the session's role. Refused unless it is an adjudicator. */
  async decide(d: Omit<Decision, 'adjudicator'>): Promise<GoldRow> {
    const row = decisionRow({ ...d, adjudicator: await this.role() }, new Date().toISOString());
    await this.write(async (c) => c.query(SQL.insert, goldParams(row)));
    return row;
  }

  /** Marks the unit's latest live decision undone, signed by the session's role; the row undone, or undefined. */
  async undo(ref: StepRef): Promise<GoldRow | undefined> {
    const by = await this.role();
    return this.write(async (c) => {
      const latest = (await c.query<DbGold>(SQL.latest, unitParams(ref))).rows[0];
      if (!latest) return undefined;
      const at = new Date().toISOString();
      await c.query(SQL.undo, [by, at, latest.uid]);
      return { ...toGoldRow(latest), undone: { by, at } };
    });
  }

  /** The decisions, oldest first; `trail` includes the undone ones. */
  async list(filter: GoldFilter = {}, trail = false): Promise<GoldRow[]> {
    const { sql, params } = goldWhere(filter, !trail);
    return (await this.query<DbGold>(pgSql(`SELECT * FROM gold_labels${sql} ORDER BY id`), params)).map(toGoldRow);
  }

  async adjudications(filter: GoldFilter = {}): Promise<Adjudication[]> {
    return adjudicationsOf(await this.list(filter));
  }

  /** Merges an export's trail by uid (the store's owner imports others' decisions; an adjudicator only their own). */
  async importTrail(rows: readonly GoldRow[]): Promise<GoldImport> {
    for (const r of rows) {
      const problem = goldProblem(r);
      if (problem) throw new LabelStoreError(`invalid gold decision ${r.uid}: ${problem}`);
    }
    return this.write(async (c) => {
      const out: GoldImport = { added: 0, undone: 0, identical: 0 };
      for (const r of rows) {
        const had = (await c.query<DbGold>(SQL.byUid, [r.uid])).rows[0];
        if (!had) {
          await c.query(SQL.insert, goldParams(r));
          out.added++;
        } else if (r.undone && had.undone_at === null) {
          await c.query(SQL.undo, [r.undone.by, r.undone.at, r.uid]);
          out.undone++;
        } else out.identical++;
      }
      return out;
    });
  }

  private async write<T>(fn: Parameters<typeof inTransaction<T>>[1]): Promise<T> {
    try {
      return await inTransaction(this.pool, fn);
    } catch (err) {
      // Without the grant the server refuses before the trigger can say why: say it the trigger's way.
      if ((err as { code?: unknown }).code === '42501')
        throw serverError(
          new Error(`role ${await this.role()} may not settle gold labels: only members of ${ADJUDICATOR_ROLE} may`),
          this.server.url,
        );
      throw serverError(err, this.server.url);
    }
  }

  private async query<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (err) {
      throw serverError(err, this.server.url);
    }
  }
}
