// The label store: better-sqlite3 on a file the caller chooses. WAL mode, a busy timeout plus a retry loop so that
// another window holding the lock never surfaces as SQLITE_BUSY, and one IMMEDIATE transaction per user action.
import type Database from 'better-sqlite3';
import {
  openStoreDatabase,
  retryWhileBusy,
  StorageUnavailableError,
  StoreFileError,
  whereEquals,
  type StoreOpenOptions,
} from '../storage/sqlite';
import { judgeDimensions, labelKeyProblem } from './platformRules';
import { LABEL_SCHEMA, NewerSchemaError, SCHEMA_VERSION, userVersion } from './migrations';
import { prepareScores, type ScoreFilter } from './scoreSql';
import { scoreKeyOf, scoreProblem, type ScoreKey, type ScoreRow } from './scores';
import { COLUMNS, KEY_WHERE, keyParams, toRow, type DbRow } from './sqlRows';
import type { SyncOp } from './server/ops';

export { busyStats } from '../storage/sqlite';
import { NO_OP, keyOf, noteProblem, type LabelAction, type LabelKey, type LabelRow, type StepRef } from './model';

export class LabelStoreError extends Error {}

export interface OpenOptions extends StoreOpenOptions {
  /** The clock for new rows, ISO 8601. */
  now?: () => string;
  /** Made once the database is open: receives every transaction's changes, in it (a replica's outbox: outbox.ts). */
  journal?: (db: Database.Database) => WriteJournal;
}

/** Told, inside each transaction that changed something, what it changed and what each change replaced. */
export interface WriteJournal {
  written(ops: SyncOp[]): void;
}

export interface LabelInput extends LabelKey {
  note?: string;
  contentHash?: string;
  createdAt?: string;
}

export interface ActionResult {
  changed: boolean;
  /** Applying this undoes the action (a no-op batch when nothing changed). */
  inverse: LabelAction;
}

export interface LabelCount {
  label: string;
  platform: string;
  count: number;
}

export interface RowFilter {
  benchmark?: string;
  author?: string;
  run?: string;
  label?: string;
}

/** Runs `fn` again while SQLite reports the database busy or locked; a lock held past `maxRetryMs` is an error. */
export function withBusyRetry<T>(fn: () => T, maxRetryMs = 60_000): T {
  return retryWhileBusy(
    fn,
    maxRetryMs,
    (s) => new LabelStoreError(`the label database stayed locked by another process for ${s} s; try again`),
  );
}

// INDEXED BY: without statistics the planner takes labels_run, which is one long scan per step when a store holds
// one benchmark and run; an import asks once per step, and that made re-importing quadratic.
export const BY_STEP_SQL =
  'SELECT * FROM labels INDEXED BY labels_key ' +
  'WHERE benchmark = ? AND platform = ? AND user_id = ? AND step_id = ? AND run = ? ORDER BY id';

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO labels (${COLUMNS}) VALUES (${COLUMNS.split(',')
        .map(() => '?')
        .join(', ')}) ON CONFLICT DO NOTHING`,
    ),
    get: db.prepare<unknown[], DbRow>(`SELECT * FROM labels WHERE ${KEY_WHERE}`),
    remove: db.prepare(`DELETE FROM labels WHERE ${KEY_WHERE}`),
    setNote: db.prepare(`UPDATE labels SET note = ? WHERE ${KEY_WHERE}`),
    byStep: db.prepare<unknown[], DbRow>(BY_STEP_SQL),
    scores: prepareScores(db),
  };
}

export class LabelStore {
  private readonly stmts: ReturnType<typeof prepare>;
  private readonly now: () => string;
  private readonly maxRetryMs: number;
  private readonly journal: WriteJournal | undefined;
  /** The operations of the outermost transaction in progress, while a journal is kept; undefined when not. */
  private written: SyncOp[] | undefined;
  private quiet = false;

  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
    opts: OpenOptions,
  ) {
    this.now = opts.now ?? (() => new Date().toISOString());
    this.maxRetryMs = opts.maxRetryMs ?? 60_000;
    this.stmts = prepare(db);
    this.journal = opts.journal?.(db);
  }

  /**
   * Opens (creating and migrating as needed; with `readOnly`, only reading: see openReadOnly). Throws
   * LabelStoreError with a readable message.
   */
  static open(path: string, opts: OpenOptions = {}): LabelStore {
    try {
      return openStoreDatabase(path, opts, withBusyRetry, LABEL_SCHEMA, (db) => new LabelStore(path, db, opts));
    } catch (err) {
      if (err instanceof StorageUnavailableError) throw err;
      if (err instanceof LabelStoreError || err instanceof NewerSchemaError || err instanceof StoreFileError)
        throw new LabelStoreError(`${path}: ${err.message}`);
      throw new LabelStoreError(`${path}: cannot open the label database: ${(err as Error).message}`);
    }
  }

  static tryOpen(
    path: string,
    opts: OpenOptions = {},
  ): { ok: true; store: LabelStore } | { ok: false; message: string } {
    try {
      return { ok: true, store: LabelStore.open(path, opts) };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** Opened read-only (asked for, or the file cannot be written): reads work, every write is refused. */
  get readOnly(): boolean {
    return this.db.readonly;
  }

  schemaVersion(): number {
    return userVersion(this.db);
  }

  static readonly schemaVersion = SCHEMA_VERSION;

  /** Changes when another connection (window, CLI) commits; this connection's own commits leave it as it is. */
  dataVersion(): number {
    const v: unknown = this.read(() => this.db.pragma('data_version', { simple: true }));
    return typeof v === 'number' ? v : 0;
  }

  integrityCheck(): string {
    const rows = this.db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('\n');
  }

  /** One IMMEDIATE transaction (the write lock is taken up front, so it cannot fail half-way on a lock upgrade). */
  transaction<T>(fn: () => T): T {
    if (this.readOnly)
      throw new LabelStoreError(`${this.path}: the label database is open read-only; nothing was changed`);
    const tx = this.db.transaction(() => {
      const outermost = this.journal !== undefined && this.written === undefined;
      if (!outermost) return fn();
      this.written = [];
      try {
        const out = fn();
        if (this.written.length) this.journal!.written(this.written);
        return out;
      } finally {
        this.written = undefined;
      }
    });
    return withBusyRetry(() => tx.immediate(), this.maxRetryMs);
  }

  /** Applies what another writer already applied on the server (a pulled event): left out of the journal. */
  applyPulled(action: LabelAction): ActionResult {
    this.checkAction(action);
    this.quiet = true;
    try {
      return this.transaction(() => this.applyInTx(action));
    } finally {
      this.quiet = false;
    }
  }

  private record(op: SyncOp): void {
    if (!this.quiet) this.written?.push(op);
  }

  private read<T>(fn: () => T): T {
    return withBusyRetry(fn, this.maxRetryMs);
  }

  get(key: LabelKey): LabelRow | undefined {
    const r = this.read(() => this.stmts.get.get(...keyParams(key)));
    return r ? toRow(r) : undefined;
  }

  /** Adds a label; a label already there (same key) is left as it is. */
  add(input: LabelInput): ActionResult {
    return this.apply({ kind: 'add', row: this.rowOf(input) });
  }

  remove(key: LabelKey): ActionResult {
    return this.apply({ kind: 'remove', key: keyOf(key) });
  }

  /** Sets a label's note; a note longer than MAX_NOTE_LENGTH is refused. */
  setNote(key: LabelKey, note: string): ActionResult {
    this.checkNote(note);
    return this.apply({ kind: 'setNote', key: keyOf(key), note });
  }

  /** Adds the label when absent, removes it when present, in one transaction. */
  toggle(input: LabelInput): ActionResult & { state: 'added' | 'removed' } {
    this.check(input);
    const row = this.rowOf(input);
    return this.transaction(() => {
      const exists = this.stmts.get.get(...keyParams(row)) !== undefined;
      const result = this.applyInTx(exists ? { kind: 'remove', key: keyOf(row) } : { kind: 'add', row });
      return { ...result, state: exists ? ('removed' as const) : ('added' as const) };
    });
  }

  /** Sets this author's score of an utterance on one dimension (null: removes it), in one transaction. */
  setScore(key: ScoreKey, score: number | null, contentHash = ''): ActionResult {
    const row = score === null ? null : { ...scoreKeyOf(key), score, createdAt: this.now(), contentHash };
    return this.apply({ kind: 'setScore', key: scoreKeyOf(key), row });
  }

  /** People's judge scores matching the filter, in the order they were first set. */
  scores(filter: ScoreFilter = {}): ScoreRow[] {
    return this.read(() => this.stmts.scores.list(filter));
  }

  /** Applies any action (an undo or a redo) in one transaction and returns its inverse. */
  apply(action: LabelAction): ActionResult {
    this.checkAction(action);
    return this.transaction(() => this.applyInTx(action));
  }

  /** For callers that compose actions inside their own `transaction()`. */
  applyInTx(action: LabelAction): ActionResult {
    switch (action.kind) {
      case 'add': {
        const r = action.row;
        const info = this.stmts.insert.run(...keyParams(r), r.note, r.createdAt, r.contentHash);
        if (info.changes === 0) return { changed: false, inverse: NO_OP };
        this.record({ action });
        return { changed: true, inverse: { kind: 'remove', key: keyOf(r) } };
      }
      case 'remove': {
        const old = this.stmts.get.get(...keyParams(action.key));
        if (!old) return { changed: false, inverse: NO_OP };
        this.stmts.remove.run(...keyParams(action.key));
        this.record({ action, expect: { note: old.note } });
        return { changed: true, inverse: { kind: 'add', row: toRow(old) } };
      }
      case 'setNote': {
        const old = this.stmts.get.get(...keyParams(action.key));
        if (!old || old.note === action.note) return { changed: false, inverse: NO_OP };
        this.stmts.setNote.run(action.note, ...keyParams(action.key));
        this.record({ action, expect: { note: old.note } });
        return { changed: true, inverse: { kind: 'setNote', key: action.key, note: old.note } };
      }
      case 'setScore': {
        const { before, changed } = this.stmts.scores.set(action.key, action.row);
        if (changed) this.record({ action, expect: { score: before?.score ?? null } });
        return changed
          ? { changed, inverse: { kind: 'setScore', key: action.key, row: before ?? null } }
          : { changed, inverse: NO_OP };
      }
      case 'batch': {
        const inverses: LabelAction[] = [];
        let changed = false;
        for (const a of action.actions) {
          const r = this.applyInTx(a);
          changed ||= r.changed;
          if (r.changed) inverses.unshift(r.inverse);
        }
        return { changed, inverse: changed ? { kind: 'batch', actions: inverses } : NO_OP };
      }
    }
  }

  listByStep(ref: StepRef): LabelRow[] {
    const rows = this.read(() => this.stmts.byStep.all(ref.benchmark, ref.platform, ref.userId, ref.stepId, ref.run));
    return rows.map(toRow);
  }

  listByRun(benchmark: string, run: string): LabelRow[] {
    return this.list({ benchmark, run });
  }

  listByLabel(label: string, benchmark?: string): LabelRow[] {
    return this.list({ label, benchmark });
  }

  /** All rows matching the filter, in insertion order. */
  list(filter: RowFilter = {}): LabelRow[] {
    const { sql, params } = rowWhere(filter);
    const rows = this.read(() =>
      this.db.prepare<unknown[], DbRow>(`SELECT * FROM labels${sql} ORDER BY id`).all(...params),
    );
    return rows.map(toRow);
  }

  countsPerLabelPerPlatform(filter: RowFilter = {}): LabelCount[] {
    const { sql, params } = rowWhere(filter);
    return this.read(() =>
      this.db
        .prepare<unknown[], LabelCount>(
          `SELECT label, platform, COUNT(*) AS count FROM labels${sql} GROUP BY label, platform ORDER BY label, platform`,
        )
        .all(...params),
    );
  }

  authors(): string[] {
    const rows = this.read(() =>
      this.db.prepare<[], { author: string }>('SELECT DISTINCT author FROM labels ORDER BY author').all(),
    );
    return rows.map((r) => r.author);
  }

  count(): number {
    return this.read(() => this.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM labels').get()?.n ?? 0);
  }

  // New notes only: undo, redo and imports (checked when their file was read) apply rows as they are.
  private rowOf(input: LabelInput): LabelRow {
    this.checkNote(input.note ?? '');
    return {
      ...keyOf(input),
      note: input.note ?? '',
      createdAt: input.createdAt ?? this.now(),
      contentHash: input.contentHash ?? '',
    };
  }

  private check(k: LabelKey): void {
    const problem = labelKeyProblem(k);
    if (problem) throw new LabelStoreError(`invalid label: ${problem}`);
  }

  private checkNote(note: string): void {
    const problem = noteProblem(note);
    if (problem) throw new LabelStoreError(problem);
  }

  private checkAction(a: LabelAction): void {
    const problem = actionProblem(a);
    if (problem) throw new LabelStoreError(problem);
  }
}

/** Why `a` cannot be applied (an invalid key or score), worded for a person; null when it can. */
export function actionProblem(a: LabelAction): string | null {
  if (a.kind === 'batch') {
    for (const x of a.actions) {
      const p = actionProblem(x);
      if (p) return p;
    }
    return null;
  }
  if (a.kind === 'setScore') {
    const problem = scoreProblem(a.key, judgeDimensions(), a.row?.score);
    return problem ? `invalid judge score: ${problem}` : null;
  }
  const problem = labelKeyProblem(a.kind === 'add' ? a.row : a.key);
  if (problem) return `invalid label: ${problem}`;
  // A note arriving from elsewhere (a pulled event) obeys the same limits as one typed here.
  const note = a.kind === 'add' ? a.row.note : a.kind === 'setNote' ? a.note : '';
  return typeof note === 'string' ? noteProblem(note) : 'a note must be a string';
}

/** The WHERE clause of a row filter (both stores). */
export function rowWhere(filter: RowFilter): { sql: string; params: string[] } {
  return whereEquals([
    ['benchmark', filter.benchmark],
    ['author', filter.author],
    ['run', filter.run],
    ['label', filter.label],
  ]);
}
