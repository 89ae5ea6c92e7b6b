// The gold rows of a label database file (goldRows.ts): decide, undo, list. Its own connection to the same file as
// the LabelStore (WAL: the two never block each other's reads), opened and migrated the same way, with the same
// busy retry and one IMMEDIATE transaction per decision.
import type Database from 'better-sqlite3';
import { openStoreDatabase, StorageUnavailableError, StoreFileError } from '../storage/sqlite';
import {
  adjudicationsOf,
  goldParams,
  goldProblem,
  goldWhere,
  settledLabels,
  toGoldRow,
  unitParams,
  GOLD_BY_UID_SQL,
  GOLD_INSERT_SQL,
  GOLD_LATEST_SQL,
  GOLD_UNDO_SQL,
  type DbGold,
  type GoldFilter,
  type GoldRow,
} from './goldRows';
import type { Adjudication } from './gold';
import { LABEL_SCHEMA, NewerSchemaError } from './migrations';
import type { StepRef } from './model';
import { LabelStoreError, withBusyRetry, type OpenOptions } from './store';
import { crypto } from '../io/builtins';

export interface Decision {
  ref: StepRef;
  labels: readonly string[];
  adjudicator: string;
  note?: string;
}

export interface GoldImport {
  /** Decisions new to this store. */
  added: number;
  /** Decisions here that the incoming trail marks undone. */
  undone: number;
  /** Decisions already here as they are. */
  identical: number;
}

/** A decision as a row: a new uid, the labels distinct and sorted, the time now. Throws LabelStoreError. */
export function decisionRow(d: Decision, now: string): GoldRow {
  const row: GoldRow = {
    uid: crypto().randomUUID(),
    ref: { ...d.ref },
    labels: settledLabels(d.labels),
    how: 'adjudicated',
    adjudicator: d.adjudicator,
    note: d.note ?? '',
    createdAt: now,
  };
  const problem = goldProblem(row);
  if (problem) throw new LabelStoreError(`invalid gold decision: ${problem}`);
  return row;
}

export class GoldStore {
  private readonly now: () => string;
  private readonly maxRetryMs: number;

  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
    opts: OpenOptions,
  ) {
    this.now = opts.now ?? (() => new Date().toISOString());
    this.maxRetryMs = opts.maxRetryMs ?? 60_000;
  }

  /** Opens the label database at `path` (created and migrated as the LabelStore does). Throws LabelStoreError. */
  static open(path: string, opts: OpenOptions = {}): GoldStore {
    try {
      return openStoreDatabase(path, opts, withBusyRetry, LABEL_SCHEMA, (db) => new GoldStore(path, db, opts));
    } catch (err) {
      if (err instanceof StorageUnavailableError) throw err;
      if (err instanceof NewerSchemaError || err instanceof StoreFileError)
        throw new LabelStoreError(`${path}: ${err.message}`);
      throw new LabelStoreError(`${path}: cannot open the label database: ${(err as Error).message}`);
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private write<T>(fn: () => T): T {
    if (this.db.readonly)
      throw new LabelStoreError(`${this.path}: the label database is open read-only; nothing was changed`);
    return withBusyRetry(() => this.db.transaction(fn).immediate(), this.maxRetryMs);
  }

  private read<T>(fn: () => T): T {
    return withBusyRetry(fn, this.maxRetryMs);
  }

  /** Settles a unit on `labels` (empty: no label applies); a newer decision of the unit supersedes this one. */
  decide(d: Decision): GoldRow {
    const row = decisionRow(d, this.now());
    this.write(() => this.db.prepare(GOLD_INSERT_SQL).run(...goldParams(row)));
    return row;
  }

  /** Marks the unit's latest live decision undone (an earlier one counts again); the row undone, or undefined. */
  undo(ref: StepRef, by: string): GoldRow | undefined {
    if (!by) throw new LabelStoreError('an undo needs the adjudicator who undoes');
    return this.write(() => {
      const latest = this.db.prepare<unknown[], DbGold>(GOLD_LATEST_SQL).get(...unitParams(ref));
      if (!latest) return undefined;
      const at = this.now();
      this.db.prepare(GOLD_UNDO_SQL).run(by, at, latest.uid);
      return { ...toGoldRow(latest), undone: { by, at } };
    });
  }

  /** The decisions, oldest first; `trail` includes the undone ones. */
  list(filter: GoldFilter = {}, trail = false): GoldRow[] {
    const { sql, params } = goldWhere(filter, !trail);
    return this.read(() =>
      this.db
        .prepare<unknown[], DbGold>(`SELECT * FROM gold_labels${sql} ORDER BY id`)
        .all(...params)
        .map(toGoldRow),
    );
  }

  /** The live decisions as gold.ts reads them. */
  adjudications(filter: GoldFilter = {}): Adjudication[] {
    return adjudicationsOf(this.list(filter));
  }

  /** Merges another store's trail (an export's gold lines): new decisions added, undos carried over, by uid. */
  importTrail(rows: readonly GoldRow[]): GoldImport {
    for (const r of rows) {
      const problem = goldProblem(r);
      if (problem) throw new LabelStoreError(`invalid gold decision ${r.uid}: ${problem}`);
    }
    return this.write(() => {
      const out: GoldImport = { added: 0, undone: 0, identical: 0 };
      const byUid = this.db.prepare<[string], DbGold>(GOLD_BY_UID_SQL);
      for (const r of rows) {
        const had = byUid.get(r.uid);
        if (!had) {
          this.db.prepare(GOLD_INSERT_SQL).run(...goldParams(r));
          out.added++;
        } else if (r.undone && had.undone_at === null) {
          this.db.prepare(GOLD_UNDO_SQL).run(r.undone.by, r.undone.at, r.uid);
          out.undone++;
        } else out.identical++;
      }
      return out;
    });
  }
}
