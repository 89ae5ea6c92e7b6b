// What every Persona Lab SQLite file shares: one way to open it (after checking that the host can load the addon),
// schema versions in PRAGMA user_version with forward-only migrations, and waiting out another process's lock
// instead of surfacing SQLITE_BUSY.
import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { checkDefaultStorePath } from '../io/safeFs';
import { dirname } from 'node:path';

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

/** Opens a SQLite database with better-sqlite3, or throws StorageUnavailableError on a host too old for it. */
export function openDatabase(path: string, options?: Database.Options): Database.Database {
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
}

/**
 * Opens a store's database (its folder created unless it must exist), in WAL mode with synchronous FULL, migrated,
 * and has `build` make the store from it. `retry` waits out other processes' locks (see retryWhileBusy). On any
 * error the database is closed and the error passes through, for the store to word.
 */
export function openStoreDatabase<T>(
  path: string,
  opts: StoreOpenOptions,
  retry: <R>(fn: () => R, maxRetryMs: number) => R,
  migrate: (db: Database.Database) => unknown,
  build: (db: Database.Database) => T,
): T {
  let db: Database.Database | undefined;
  const retryMs = opts.maxRetryMs ?? 60_000;
  try {
    if (!opts.mustExist) checkDefaultStorePath(path);
    if (!opts.mustExist && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = openDatabase(path, { timeout: opts.busyTimeoutMs ?? 5000, fileMustExist: opts.mustExist ?? false });
    const conn = db;
    retry(() => conn.pragma('journal_mode = WAL'), retryMs);
    // FULL: a write the user saw saved survives a power cut too, not only a crash; writes are human-paced.
    conn.pragma('synchronous = FULL');
    retry(() => migrate(conn), retryMs);
    return retry(() => build(conn), retryMs);
  } catch (err) {
    db?.close();
    throw err;
  }
}
