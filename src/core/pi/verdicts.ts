// Audit verdicts in SQLite: an append-only trail (who said what about which finding, when); the current verdict of a
// finding is its latest row. Same conventions as the label store: WAL, busy timeout plus retry, user_version
// migrations in one IMMEDIATE transaction. Its own file: user_version cannot version two schemas in one database.
// The finding's text is not stored, only a hash: the verdict database should not become a second copy of the leaks.
import type Database from 'better-sqlite3';
import {
  migrateSchema,
  openStoreDatabase,
  retryWhileBusy,
  SchemaError,
  StorageUnavailableError,
  StoreFileError,
  userVersion,
  type StoreOpenOptions,
  type StoreSchema,
} from '../storage/sqlite';
import type { AuditFinding } from './audit';
import { textHash } from './audit';
import { isPiCategory, type PiCategory } from './placeholders';

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
];
export const VERDICT_SCHEMA_VERSION = VERDICT_MIGRATIONS.length;

export class VerdictStoreError extends Error {}

/**
 * What a verdict is about: the fields of an audit finding that locate it. An OmniAuditFinding fits too: its platform
 * is 'omnibehavior' and its stepId the test action.
 */
export type VerdictTarget = Pick<
  AuditFinding,
  'key' | 'file' | 'line' | 'field' | 'start' | 'end' | 'category' | 'text' | 'userId' | 'stepId' | 'run'
> & {
  platform: string;
};

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

interface DbRow {
  id: number;
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

function toRow(r: DbRow): VerdictRow {
  return {
    id: r.id,
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
}

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

  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
    opts: VerdictOpenOptions,
  ) {
    this.now = opts.now ?? (() => new Date().toISOString());
    this.maxRetryMs = opts.maxRetryMs ?? 60_000;
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
    const t = input.target;
    const params = [
      input.benchmark,
      t.key,
      t.file,
      t.line,
      t.field,
      t.start,
      t.end,
      t.category,
      textHash(t.text),
      t.platform,
      t.userId,
      t.stepId,
      t.run ?? '',
      input.verdict,
      input.note ?? '',
      input.author,
      input.createdAt ?? this.now(),
    ];
    const insert = this.db.prepare(
      `INSERT INTO pi_verdicts (benchmark, finding_key, file, line, field, span_start, span_end, category, text_hash, platform,
         user_id, step_id, run, verdict, note, author, created_at) VALUES (${params.map(() => '?').join(', ')})`,
    );
    const tx = this.db.transaction(() => {
      const id = Number(insert.run(...params).lastInsertRowid);
      return this.db.prepare<[number], DbRow>('SELECT * FROM pi_verdicts WHERE id = ?').get(id);
    });
    const row = withBusyRetry(() => tx.immediate(), this.maxRetryMs);
    if (!row) throw new VerdictStoreError('the verdict was not saved');
    return toRow(row);
  }

  /** Every verdict matching the filter, oldest first. */
  trail(filter: TrailFilter = {}): VerdictRow[] {
    const where: string[] = [];
    const params: string[] = [];
    const match: [string, string | undefined][] = [
      ['benchmark', filter.benchmark],
      ['finding_key', filter.key],
      ['author', filter.author],
    ];
    for (const [column, value] of match) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    const sql = `SELECT * FROM pi_verdicts${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY id`;
    return withBusyRetry(() => this.db.prepare<string[], DbRow>(sql).all(...params), this.maxRetryMs).map(toRow);
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
