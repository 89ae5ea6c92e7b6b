// What every Persona Lab SQLite file shares: schema versions in PRAGMA user_version with forward-only migrations,
// and waiting out another process's lock instead of surfacing SQLITE_BUSY.
import type Database from 'better-sqlite3';

export class SchemaError extends Error {}

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
