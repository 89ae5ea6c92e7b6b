// Audit verdicts in SQLite: an append-only trail (who said what about which finding, when); the current verdict of a
// finding is its latest row. Same conventions as the label store: WAL, busy timeout plus retry, user_version
// migrations in one IMMEDIATE transaction. Its own file: user_version cannot version two schemas in one database.
// The finding's text is not stored, only a hash: the verdict database should not become a second copy of the leaks.
// A replica of a label server's verdicts (server/sync.ts) is this store with a journal: its own rows are queued in
// the same transaction that writes them.
import type Database from 'better-sqlite3';
import {
  migrateSchema,
  openStoreDatabase,
  retryWhileBusy,
  SchemaError,
  StorageUnavailableError,
  StoreFileError,
  userVersion,
  whereEquals,
  type StoreOpenOptions,
  type StoreSchema,
} from '../storage/sqlite';
import { textHash, type FindingPlace } from './tally';
import { noteProblem } from '../labels/model';
import { textProblem } from '../labels/storableText';
import { isPiCategory, type PiCategory } from './placeholders';
import { crypto } from '../io/builtins';

function withBusyRetry<T>(fn: () => T, maxRetryMs: number): T {
  return retryWhileBusy(
    fn,
    maxRetryMs,
    (s) => new VerdictStoreError(`the verdict database stayed locked by another process for ${s} s; try again`),
  );
}

export const VERDICTS = ['confirmed-leak', 'false-positive', 'needs-review'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const VERDICT_LABELS: Record<Verdict, string> = {
  'confirmed-leak': 'Confirmed leak',
  'false-positive': 'False positive',
  'needs-review': 'Needs review',
};

export function isVerdict(v: unknown): v is Verdict {
  return typeof v === 'string' && (VERDICTS as readonly string[]).includes(v);
}

export const VERDICT_MIGRATIONS: readonly string[] = [
  `CREATE TABLE pi_verdicts (
     id INTEGER PRIMARY KEY,
     benchmark TEXT NOT NULL,
     finding_key TEXT NOT NULL,
     file TEXT NOT NULL,
     line INTEGER NOT NULL,
     field TEXT NOT NULL,
     span_start INTEGER NOT NULL,
     span_end INTEGER NOT NULL,
     category TEXT NOT NULL,
     text_hash TEXT NOT NULL,
     platform TEXT NOT NULL,
     user_id TEXT NOT NULL,
     step_id INTEGER,
     run TEXT NOT NULL DEFAULT '',
     verdict TEXT NOT NULL CHECK (verdict IN ('confirmed-leak', 'false-positive', 'needs-review')),
     note TEXT NOT NULL DEFAULT '',
     author TEXT NOT NULL,
     created_at TEXT NOT NULL
   );
   CREATE INDEX pi_verdicts_key ON pi_verdicts (benchmark, finding_key, id);
   CREATE INDEX pi_verdicts_author ON pi_verdicts (author);`,
  // v2: a verdict's uid (chosen by its writer: what makes it sent to a server once), and a replica's queue of the
  // verdicts the server has not acknowledged yet and how far it has read the server's (server/outbox.ts).
  `ALTER TABLE pi_verdicts ADD COLUMN uid TEXT;
   CREATE UNIQUE INDEX pi_verdicts_uid ON pi_verdicts (uid);
   CREATE TABLE verdict_outbox (id INTEGER PRIMARY KEY, uid TEXT NOT NULL UNIQUE);
   CREATE TABLE verdict_sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
];
export const VERDICT_SCHEMA_VERSION = VERDICT_MIGRATIONS.length;

/** The trail's statement (`?` placeholders) and its values: every verdict matching `filter`, oldest first. */
export function trailQuery(filter: TrailFilter): { sql: string; params: string[] } {
  const where = whereEquals([
    ['benchmark', filter.benchmark],
    ['finding_key', filter.key],
    ['author', filter.author],
  ]);
  return { sql: `SELECT * FROM pi_verdicts${where.sql} ORDER BY id`, params: where.params };
}

export class VerdictStoreError extends Error {}

/**
 * What a verdict is about: the fields of any format's audit finding that locate it (`platform` and `stepId` are the
 * columns its format fills: a platform and a step, or its own value and item).
 */
export interface VerdictTarget extends FindingPlace {
  key: string;
  platform: string;
  userId: string;
  stepId: number | null;
  run: string | null;
}

export interface VerdictRow {
  id: number;
  benchmark: string;
  key: string;
  file: string;
  line: number;
  field: string;
  start: number;
  end: number;
  category: PiCategory;
  textHash: string;
  platform: string;
  userId: string;
  stepId: number | null;
  run: string;
  verdict: Verdict;
  note: string;
  author: string;
  createdAt: string;
}

/** A verdict as stored, without its id: what a replica sends to the server and reads back from it. */
export type VerdictValues = Omit<VerdictRow, 'id'>;

/** The stored columns of a verdict but its id (and uid), in the order of verdictParams. */
export const VERDICT_COLUMNS =
  'benchmark, finding_key, file, line, field, span_start, span_end, category, text_hash, platform, user_id, step_id, run, verdict, note, author, created_at';

export function verdictParams(v: VerdictValues): (string | number | null)[] {
  return [
    v.benchmark,
    v.key,
    v.file,
    v.line,
    v.field,
    v.start,
    v.end,
    v.category,
    v.textHash,
    v.platform,
    v.userId,
    v.stepId,
    v.run,
    v.verdict,
    v.note,
    v.author,
    v.createdAt,
  ];
}

/** A pi_verdicts row as SQLite and PostgreSQL return it (a BIGSERIAL id comes as a string). */
export interface DbVerdict {
  id: number | string;
  benchmark: string;
  finding_key: string;
  file: string;
  line: number;
  field: string;
  span_start: number;
  span_end: number;
  category: string;
  text_hash: string;
  platform: string;
  user_id: string;
  step_id: number | null;
  run: string;
  verdict: string;
  note: string;
  author: string;
  created_at: string;
}

export function verdictOfDb(r: DbVerdict): VerdictRow {
  return {
    id: Number(r.id),
    benchmark: r.benchmark,
    key: r.finding_key,
    file: r.file,
    line: r.line,
    field: r.field,
    start: r.span_start,
    end: r.span_end,
    category: isPiCategory(r.category) ? r.category : 'PHONE',
    textHash: r.text_hash,
    platform: r.platform,
    userId: r.user_id,
    stepId: r.step_id,
    run: r.run,
    verdict: isVerdict(r.verdict) ? r.verdict : 'needs-review',
    note: r.note,
    author: r.author,
    createdAt: r.created_at,
  };
}

/** Brings the verdict schema to the current version; refuses a database of another kind or of a newer version. */
export function migrateVerdicts(db: Database.Database): { from: number; to: number } {
  const run = db.transaction(() => {
    const from = userVersion(db);
    const hasOwnTable =
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pi_verdicts'").get() !== undefined;
    const tables =
      db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table'").get()?.n ?? 0;
    if (!hasOwnTable && (from !== 0 || tables > 0)) {
      throw new VerdictStoreError(
        'this database holds other tables (a label store?); keep verdicts in a file of their own',
      );
    }
    return migrateSchema(db, VERDICT_MIGRATIONS, 'verdict database');
  });
  return run.immediate();
}

const VERDICT_SCHEMA: StoreSchema & { migrate: typeof migrateVerdicts } = {
  what: 'verdict database',
  table: 'pi_verdicts',
  migrations: VERDICT_MIGRATIONS,
  migrate: migrateVerdicts,
};

export interface VerdictOpenOptions extends StoreOpenOptions {
  now?: () => string;
  /** Made once the database is open: told, inside its transaction, of each verdict recorded here (a replica's queue). */
  journal?: (db: Database.Database) => VerdictJournal;
}

export interface VerdictJournal {
  recorded(uid: string): void;
}

/**
 * A journaled store numbers its own rows from here up; below are the server's ids, which the replica's rows take
 * once the server gave them one (server/outbox.ts). So a replica's trail is in the server's order, and a finding's
 * current verdict (the highest id) is the same in every replica and on the server.
 */
export const LOCAL_VERDICT_IDS = 1e15;

export interface VerdictInput {
  benchmark: string;
  target: VerdictTarget;
  verdict: Verdict;
  author: string;
  note?: string;
  createdAt?: string;
}

export interface TrailFilter {
  benchmark?: string;
  key?: string;
  author?: string;
}

export class VerdictStore {
  private readonly now: () => string;
  private readonly maxRetryMs: number;
  private readonly journal: VerdictJournal | undefined;

  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
    opts: VerdictOpenOptions,
  ) {
    this.now = opts.now ?? (() => new Date().toISOString());
    this.maxRetryMs = opts.maxRetryMs ?? 60_000;
    this.journal = opts.journal?.(db);
  }

  /** Opens (creating and migrating as needed). Throws VerdictStoreError with a readable message. */
  static open(path: string, opts: VerdictOpenOptions = {}): VerdictStore {
    try {
      return openStoreDatabase(path, opts, withBusyRetry, VERDICT_SCHEMA, (db) => new VerdictStore(path, db, opts));
    } catch (err) {
      if (err instanceof StorageUnavailableError) throw err;
      const msg = (err as Error).message;
      const worded = err instanceof VerdictStoreError || err instanceof StoreFileError || err instanceof SchemaError;
      throw new VerdictStoreError(worded ? `${path}: ${msg}` : `${path}: cannot open the verdict database: ${msg}`);
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  schemaVersion(): number {
    return userVersion(this.db);
  }

  /** Appends a verdict to the trail; the finding's current verdict becomes this one. */
  record(input: VerdictInput): VerdictRow {
    if (this.db.readonly)
      throw new VerdictStoreError(`${this.path}: the verdict database is open read-only; nothing was recorded`);
    if (!isVerdict(input.verdict))
      throw new VerdictStoreError(`unknown verdict "${String(input.verdict)}"; one of ${VERDICTS.join(', ')}`);
    if (!input.author.trim()) throw new VerdictStoreError('a verdict needs an author');
    for (const [field, value] of [
      ['note', input.note ?? ''],
      ['author', input.author],
    ] as const) {
      const problem = textProblem(value);
      if (problem) throw new VerdictStoreError(`the verdict's ${field} ${problem}`);
    }
    // A verdict's note explains it as a label's note does, and is bounded the same (what a server may send back too).
    const long = noteProblem(input.note ?? '');
    if (long) throw new VerdictStoreError(`the verdict's note: ${long}`);
    const t = input.target;
    const uid = crypto().randomUUID();
    const params = verdictParams({
      benchmark: input.benchmark,
      key: t.key,
      file: t.file,
      line: t.line,
      field: t.field,
      start: t.start,
      end: t.end,
      category: t.category,
      textHash: textHash(t.text),
      platform: t.platform,
      userId: t.userId,
      stepId: t.stepId,
      run: t.run ?? '',
      verdict: input.verdict,
      note: input.note ?? '',
      author: input.author,
      createdAt: input.createdAt ?? this.now(),
    });
    const newId = this.journal
      ? `(SELECT max(coalesce(max(id), 0), ${LOCAL_VERDICT_IDS}) + 1 FROM pi_verdicts)`
      : 'NULL';
    const insert = this.db.prepare(
      `INSERT INTO pi_verdicts (id, uid, ${VERDICT_COLUMNS}) VALUES (${newId}, ?, ${params.map(() => '?').join(', ')})`,
    );
    const tx = this.db.transaction(() => {
      const id = Number(insert.run(uid, ...params).lastInsertRowid);
      this.journal?.recorded(uid);
      return this.db.prepare<[number], DbVerdict>('SELECT * FROM pi_verdicts WHERE id = ?').get(id);
    });
    const row = withBusyRetry(() => tx.immediate(), this.maxRetryMs);
    if (!row) throw new VerdictStoreError('the verdict was not saved');
    return verdictOfDb(row);
  }

  /** Every verdict matching the filter, oldest first. */
  trail(filter: TrailFilter = {}): VerdictRow[] {
    const { sql, params } = trailQuery(filter);
    return withBusyRetry(() => this.db.prepare<string[], DbVerdict>(sql).all(...params), this.maxRetryMs).map(
      verdictOfDb,
    );
  }

  /** The latest verdict per finding key. */
  current(benchmark?: string): Map<string, VerdictRow> {
    return latestByKey(this.trail(benchmark === undefined ? {} : { benchmark }));
  }
}

export function latestByKey(trail: readonly VerdictRow[]): Map<string, VerdictRow> {
  const out = new Map<string, VerdictRow>();
  for (const r of trail) {
    const prev = out.get(r.key);
    if (!prev || r.id > prev.id) out.set(r.key, r);
  }
  return out;
}
