// What every Persona Lab SQLite file shares: one way to open it (after checking that the host can load the addon),
// schema versions in PRAGMA user_version with forward-only migrations, and waiting out another process's lock
// instead of surfacing SQLITE_BUSY.
import type Database from 'better-sqlite3';
import { existsSync, linkSync, lstatSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { checkDefaultStorePath, readRegularFile, UnreadableFile } from '../io/safeFs';
import { basename, dirname, join } from 'node:path';

export class SchemaError extends Error {}

/**
 * better-sqlite3 13 is a Node-API 10 addon: where Node-API 10 is missing (Node 20, VS Code before 1.101) loading it
 * crashes the whole process instead of throwing, so the version is checked before the module is ever required.
 */
export const REQUIRED_NAPI = 10;

/** The host cannot load SQLite. Its message is meant for a person, as it is: no path, no stack. */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
}

/** Why this host cannot use Persona Lab's storage, in plain words; undefined when it can. */
export function storageUnavailableReason(versions: NodeJS.ProcessVersions = process.versions): string | undefined {
  const napi = Number(versions.napi ?? 0);
  if (napi >= REQUIRED_NAPI) return undefined;
  const host = versions.electron
    ? `This VS Code runs Electron ${versions.electron} (Node.js ${versions.node}, Node-API ${napi || 'unknown'}).`
    : `This host runs Node.js ${versions.node} (Node-API ${napi || 'unknown'}).`;
  return (
    'Persona Lab keeps labels, PI audit verdicts and re-run history in SQLite, which needs Node-API 10: ' +
    `VS Code 1.101 or newer, or Node.js 22.14 or newer for the CLI. ${host}`
  );
}

type DatabaseConstructor = typeof Database;
let loaded: DatabaseConstructor | undefined;

/**
 * Opens a SQLite database with better-sqlite3 (a path, or a serialized database in a Buffer), or throws
 * StorageUnavailableError on a host too old for it.
 */
export function openDatabase(path: string | Buffer, options?: Database.Options): Database.Database {
  if (!loaded) {
    const reason = storageUnavailableReason();
    if (reason) throw new StorageUnavailableError(reason);
    // Required here, not imported at the top, so that no bundle loads the addon before the check above.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('better-sqlite3') as DatabaseConstructor;
  }
  return new loaded(path, options);
}

export function userVersion(db: Database.Database): number {
  const v: unknown = db.pragma('user_version', { simple: true });
  return typeof v === 'number' ? v : 0;
}

/**
 * Brings the database to `target` (default: all of `migrations`) in one IMMEDIATE transaction, re-reading the
 * version inside it so that two processes opening the same file at once migrate it once. `what` names the database
 * in messages. Refuses a version newer than this build knows.
 */
export function migrateSchema(
  db: Database.Database,
  migrations: readonly string[],
  what: string,
  target = migrations.length,
): { from: number; to: number } {
  const run = db.transaction(() => {
    const from = userVersion(db);
    if (from > migrations.length) {
      throw new SchemaError(
        `the ${what} has schema version ${from}, newer than this Persona Lab knows (${migrations.length}); update Persona Lab`,
      );
    }
    for (let v = from; v < target; v++) db.exec(migrations[v]);
    const to = Math.max(from, target);
    if (to !== from) db.pragma(`user_version = ${to}`);
    return { from, to };
  });
  return run.immediate();
}

export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** How often this process had to wait out a lock (diagnostics and tests). */
export const busyStats = { retries: 0 };

/**
 * Runs `fn` again (with growing, jittered pauses) while SQLite reports the database busy or locked; after
 * `maxRetryMs` throws `onTimeout(seconds)`.
 */
export function retryWhileBusy<T>(fn: () => T, maxRetryMs: number, onTimeout: (seconds: number) => Error): T {
  const deadline = Date.now() + maxRetryMs;
  let pause = 2;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      if (!isBusy(err)) throw err;
      if (Date.now() >= deadline) throw onTimeout(Math.round(maxRetryMs / 1000));
      busyStats.retries++;
      sleepSync(pause + Math.random() * pause);
      pause = Math.min(pause * 2, 100);
    }
  }
}

/** How a store (labels, verdicts) opens its file. */
export interface StoreOpenOptions {
  /** SQLite's own wait for a lock, per statement (ms). */
  busyTimeoutMs?: number;
  /** Total time the retry loop keeps trying once SQLite gives up with SQLITE_BUSY (ms). */
  maxRetryMs?: number;
  /** Fail instead of creating a new database (export, summary). */
  mustExist?: boolean;
  /**
   * Only read (implies mustExist): see openReadOnly. 'when-unwritable' opens for writing, and read-only when the file
   * or its folder cannot be written (the store then refuses writes instead of failing to open).
   */
  readOnly?: boolean | 'when-unwritable';
}

/** What makes a file one of our databases: the table every schema version has, and the migrations. */
export interface StoreSchema {
  /** Names the database in messages ("label database"). */
  what: string;
  table: string;
  migrations: readonly string[];
}

/** The file is not one of our databases, or cannot be used as it is (a read-only one that needs migrating). */
export class StoreFileError extends Error {}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Opens `path` to read only, writing nothing: no journal-mode change, no lock, no migration, no -wal or -shm file
 * created (so a file in a read-only folder opens too). When no -wal file is there, every committed row is in the
 * file itself and it is read as a snapshot (a copy in memory; an older schema is migrated in the copy, the file keeps
 * its version); when one is (another connection is writing, or one did not close cleanly), the file is opened
 * read-only in place so that the rows only the -wal holds are read too, and an older schema is refused. Refuses an
 * empty file, a file that is not SQLite, another kind of database and a newer schema.
 */
export function openReadOnly(path: string, schema: StoreSchema, busyTimeoutMs = 5000): Database.Database {
  if (!existsSync(path)) throw new StoreFileError(`no ${schema.what} here (the file does not exist)`);
  const bytes = hasWal(path) ? undefined : readSnapshot(path, schema);
  if (bytes) return openSnapshot(bytes, schema);
  const db = openDatabase(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  try {
    if (checkSchema(db, schema) < schema.migrations.length) {
      throw new StoreFileError(
        `the ${schema.what} has schema version ${userVersion(db)} and needs migrating to ${schema.migrations.length}, ` +
          'which needs writing; open it once where it can be written',
      );
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function hasWal(path: string): boolean {
  return existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0;
}

/** The file's bytes, checked to be SQLite; undefined when a -wal appeared or the file changed while they were read. */
function readSnapshot(path: string, schema: StoreSchema): Buffer | undefined {
  const before = statSync(path);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path);
  } catch (err) {
    // A FIFO or a device in place of a database: refused before a byte is read from it.
    if (err instanceof UnreadableFile) throw new StoreFileError(`not a ${schema.what}: ${err.failure.reason}`);
    throw err;
  }
  if (bytes.length === 0) throw new StoreFileError(`not a ${schema.what}: the file is empty (0 bytes)`);
  if (bytes.length < 100 || !bytes.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC))
    throw new StoreFileError(`not a ${schema.what}: the file is not an SQLite database`);
  const after = statSync(path);
  // Written while it was read (a checkpoint): read it in place instead, as SQLite reads it.
  if (hasWal(path) || after.mtimeMs !== before.mtimeMs || after.size !== before.size) return undefined;
  // Bytes 18 and 19 say "WAL" (2) in our files; an in-memory database cannot have a -wal, so the copy says
  // "rollback journal" (1). The file itself is not touched.
  if (bytes[18] === 2) bytes[18] = 1;
  if (bytes[19] === 2) bytes[19] = 1;
  return bytes;
}

function openSnapshot(bytes: Buffer, schema: StoreSchema): Database.Database {
  const db = openDatabase(bytes, { readonly: true });
  let keep = false;
  try {
    keep = checkSchema(db, schema) === schema.migrations.length;
    if (keep) return db;
    const copy = openDatabase(bytes);
    try {
      migrateSchema(copy, schema.migrations, schema.what);
      return openDatabase(copy.serialize(), { readonly: true });
    } finally {
      copy.close();
    }
  } finally {
    if (!keep) db.close();
  }
}

/**
 * Checks that the open database is a `schema.what` this build can read (not another kind, not empty, not newer);
 * returns its schema version. Throws StoreFileError or SchemaError.
 */
export function checkSchema(db: Database.Database, schema: StoreSchema): number {
  const version = userVersion(db);
  const current = schema.migrations.length;
  if (version > current) {
    throw new SchemaError(
      `the ${schema.what} has schema version ${version}, newer than this Persona Lab knows (${current}); update Persona Lab`,
    );
  }
  const foreign = foreignTables(db, schema);
  if (foreign !== null) throw new StoreFileError(foreign);
  if (version === 0) throw new StoreFileError(`not a ${schema.what}: it has no schema version (an empty database?)`);
  return version;
}

/** Why a database is not a `schema.what` (other tables, or a version but none of ours); null when it is, or empty. */
function foreignTables(db: Database.Database, schema: StoreSchema): string | null {
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => r.name);
  if (tables.includes(schema.table)) return null;
  if (tables.length === 0)
    return userVersion(db) === 0 ? null : `not a ${schema.what}: it has no ${schema.table} table`;
  const shown = tables.slice(0, 3).join(', ') + (tables.length > 3 ? ', …' : '');
  return `not a ${schema.what}: it holds other tables (${shown}); keep it in a file of its own`;
}

/**
 * Brings a writable database to the current version (see migrateSchema), after checking in the same transaction
 * that it is empty or one of ours: a database of another kind is refused, never written into.
 */
export function migrateStore(db: Database.Database, schema: StoreSchema): { from: number; to: number } {
  const run = db.transaction(() => {
    // A newer version is migrateSchema's to refuse, with its own message.
    const foreign = userVersion(db) > schema.migrations.length ? null : foreignTables(db, schema);
    if (foreign !== null) throw new StoreFileError(foreign);
    return migrateSchema(db, schema.migrations, schema.what);
  });
  return run.immediate();
}

/** Whether an open failed because the file or its folder cannot be written (read-only file, folder or volume). */
export function isUnwritable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return (
    code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || ['EACCES', 'EPERM', 'EROFS'].includes(code)
  );
}

/**
 * Opens a store's database (its folder created unless it must exist), in WAL mode with synchronous FULL, migrated,
 * and has `build` make the store from it; with `readOnly`, through openReadOnly instead. `retry` waits out other
 * processes' locks (see retryWhileBusy). On any error the database is closed and the error passes through, for the
 * store to word.
 */
export function openStoreDatabase<T>(
  path: string,
  opts: StoreOpenOptions,
  retry: <R>(fn: () => R, maxRetryMs: number) => R,
  schema: StoreSchema & { migrate?: (db: Database.Database) => unknown },
  build: (db: Database.Database) => T,
): T {
  let db: Database.Database | undefined;
  const retryMs = opts.maxRetryMs ?? 60_000;
  const readOnly = () => {
    const conn = openReadOnly(path, schema, opts.busyTimeoutMs ?? 5000);
    try {
      return retry(() => build(conn), retryMs);
    } catch (err) {
      conn.close();
      throw err;
    }
  };
  try {
    if (opts.readOnly === true) return readOnly();
    if (!opts.mustExist) checkDefaultStorePath(path);
    prepareStoreFile(path, schema, opts.mustExist ?? false, retry, retryMs);
    db = openDatabase(path, { timeout: opts.busyTimeoutMs ?? 5000, fileMustExist: true });
    const conn = db;
    retry(() => conn.pragma('journal_mode = WAL'), retryMs);
    // FULL: a write the user saw saved survives a power cut too, not only a crash; writes are human-paced.
    conn.pragma('synchronous = FULL');
    retry(() => (schema.migrate ?? ((d: Database.Database) => migrateStore(d, schema)))(conn), retryMs);
    return retry(() => build(conn), retryMs);
  } catch (err) {
    db?.close();
    if (opts.readOnly === 'when-unwritable' && isUnwritable(err) && existsSync(path)) return readOnly();
    throw err;
  }
}

/**
 * Before a store's file is opened to write: an existing file must be one of ours (refuseForeign, read-only), and a
 * missing one is created whole (createStore) unless it must exist. ':memory:' and '' are SQLite's own.
 */
export function prepareStoreFile(
  path: string,
  schema: StoreSchema & { migrate?: (db: Database.Database) => unknown },
  mustExist: boolean,
  retry: <R>(fn: () => R, maxRetryMs: number) => R = (fn) => fn(),
  retryMs = 0,
): void {
  if (path === ':memory:' || path === '') return;
  if (entryExists(path)) refuseForeign(path, schema);
  else if (!mustExist) createStore(path, schema, retry, retryMs);
}

const entryExists = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * Throws StoreFileError unless the file at `path` is one of our databases (or an empty SQLite database), looking at
 * it read-only: a copy of its bytes when no -wal is beside it, else the file opened read-only in place. Nothing is
 * written, no journal mode is switched, no -wal or -shm is made. A 0-byte file is refused: a store is always created
 * whole (createStore), so an empty file is someone else's, or a store whose creation never finished.
 */
function refuseForeign(path: string, schema: StoreSchema): void {
  const bytes = hasWal(path) ? undefined : readSnapshot(path, schema);
  const db = bytes
    ? openDatabase(bytes, { readonly: true })
    : openDatabase(path, { readonly: true, fileMustExist: true });
  try {
    // A newer version is migrateSchema's to refuse, with its own message.
    const foreign = userVersion(db) > schema.migrations.length ? null : foreignTables(db, schema);
    if (foreign !== null) throw new StoreFileError(foreign);
  } finally {
    db.close();
  }
}

/**
 * Creates a new store whole: migrated in a temporary file beside `path`, then linked into place (which fails if
 * another process created it meanwhile; its file is then used). No reader ever sees a half-made or 0-byte store.
 */
function createStore(
  path: string,
  schema: StoreSchema & { migrate?: (db: Database.Database) => unknown },
  retry: <R>(fn: () => R, maxRetryMs: number) => R,
  retryMs: number,
): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.new`);
  try {
    const db = openDatabase(tmp);
    try {
      db.pragma('journal_mode = WAL');
      retry(() => (schema.migrate ?? ((d: Database.Database) => migrateStore(d, schema)))(db), retryMs);
    } finally {
      db.close();
    }
    try {
      linkSync(tmp, path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      // A file system without hard links: a rename, which is whole too (a store made meanwhile is replaced by an
      // equally empty one).
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
      renameSync(tmp, path);
    }
  } finally {
    for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
  }
}

/**
 * " WHERE a = ? AND b = ?" over the columns whose value is given (undefined ones are left out), with its parameters;
 * '' and no parameters when none is. Column names come from the caller's code, never from data.
 */
export function whereEquals<V extends string | number>(
  columns: readonly (readonly [column: string, value: V | undefined])[],
): { sql: string; params: V[] } {
  const given = columns.filter((c): c is readonly [string, V] => c[1] !== undefined);
  return {
    sql: given.length ? ` WHERE ${given.map(([c]) => `${c} = ?`).join(' AND ')}` : '',
    params: given.map(([, v]) => v),
  };
}
