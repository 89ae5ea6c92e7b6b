// PostgreSQL for a team's shared stores (labels, verdicts): one pool per server, errors worded for a person (never
// with the password), versioned migrations run once under an advisory lock by whoever connects first, and one
// transaction per write, retried when the server chose it as a deadlock or serialization victim.
import type { Pool, PoolClient } from 'pg';
import { OWN_ROWS_CODE } from './pgRoles';
import { CleartextRefused, guardedClient, isNoTlsError, tlsPlan, type TlsPlan } from './pgTls';
import { SchemaError } from './sqlite';

/** The server cannot be used as asked: unreachable, refused the login, or holds something else. For a person. */
export class ServerError extends Error {
  override name = 'ServerError';
  constructor(
    message: string,
    /** The server could not be reached (or went away): worth trying again later, with what was queued. */
    readonly unreachable: boolean,
    /**
     * The server refused this write for what it holds (a character it cannot store, a broken constraint, a row of
     * another role): sending it again changes nothing, so it is set aside and the writes behind it go on.
     */
    readonly refused = false,
  ) {
    super(message);
  }
}

export interface ServerOptions {
  /** The password when the URL has none (the extension's SecretStorage); else PGPASSWORD, as libpq reads it. */
  password?: string;
  connectTimeoutMs?: number;
  /** The server ends a statement that runs longer (ms): a stuck lock never hangs a window. */
  statementTimeoutMs?: number;
  /** Connections in the pool. */
  max?: number;
}

export function isServerUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s.trim());
}

/** user@host:port/database, never the password; the text itself when it is not a URL. */
export function describeServer(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${user}${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** Why `url` is not a PostgreSQL connection URL Persona Lab can use; undefined when it is. */
export function serverUrlProblem(url: string): string | undefined {
  if (!isServerUrl(url)) return 'a label server URL starts with postgres:// or postgresql://';
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return 'not a valid URL (postgres://user@host:port/database)';
  }
  if (!u.hostname) return 'the URL names no host (postgres://user@host:port/database)';
  if (u.pathname.length <= 1) return 'the URL names no database (postgres://user@host:port/database)';
  return undefined;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE']);

/** Whether `err` says the server could not be reached or dropped the connection (not that it refused the work). */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof ServerError) return err.unreachable;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  // 57P01-03: the server is shutting down or starting; 08xxx: connection exceptions.
  if (CONNECTION_CODES.has(code) || /^57P0[123]$/.test(code) || code.startsWith('08')) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    message,
  );
}

/** `err` as a ServerError naming the server (without its password) and what to do. */
export function serverError(err: unknown, url: string): ServerError {
  if (err instanceof ServerError) return err;
  const where = describeServer(url);
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const raw = typeof e?.message === 'string' ? e.message : String(err);
  if (isUnreachable(err)) return new ServerError(`cannot reach the label server ${where}: ${raw}`, true);
  if (code === '28P01' || code === '28000')
    return new ServerError(
      `the label server ${where} refused the login (${raw}); set the password (PGPASSWORD for the CLI, ` +
        '"Persona Lab: Set Label Server Password" in VS Code)',
      false,
    );
  if (code === '3D000') return new ServerError(`the label server ${where} has no such database (${raw})`, false);
  if (err instanceof CleartextRefused) return new ServerError(`the label server ${where}: ${raw}`, false);
  if (code === '57014') return new ServerError(`the label server ${where} ended a statement that ran too long`, false);
  return new ServerError(`label server ${where}: ${raw}`, false, refusedForContent(code));
}

/** Whether SQLSTATE `code` refuses a statement for its values: data exceptions (22), constraints (23), others' rows. */
export const refusedForContent = (code: string): boolean => /^2[23]/.test(code) || code === OWN_ROWS_CODE;

/**
 * Opens a pool on `url` and checks that it answers; throws ServerError. TLS as the URL's sslmode says (pgTls.ts:
 * verify-full by default for a host that is not this machine); a cleartext password request over a connection that
 * is neither TLS nor loopback is refused.
 */
export async function openPool(url: string, opts: ServerOptions = {}): Promise<Pool> {
  const problem = serverUrlProblem(url);
  if (problem) throw new ServerError(`${describeServer(url)}: ${problem}`, false);
  let plan: TlsPlan;
  try {
    plan = tlsPlan(url);
  } catch (err) {
    throw new ServerError(`the label server ${describeServer(url)}: ${(err as Error).message}`, false);
  }
  const given = opts.password || process.env.PGPASSWORD || undefined;
  try {
    return await connectPool(plan, plan.ssl, given, opts);
  } catch (err) {
    if (plan.fallbackPlain && isNoTlsError(err)) {
      try {
        return await connectPool(plan, false, given, opts);
      } catch (again) {
        throw failure(again, url, given);
      }
    }
    if (isNoTlsError(err))
      throw new ServerError(
        `the label server ${describeServer(url)} offers no TLS and sslmode is ${plan.mode}` +
          (plan.explicit ? '' : ' (the default for a host that is not this machine)') +
          '; nothing was sent. Enable TLS on the server, or add ?sslmode=disable to the URL to send labels unencrypted',
        false,
      );
    throw failure(err, url, given);
  }
}

let pgLoad: Promise<typeof import('pg')> | undefined;
/** pg, evaluated when a server is first opened: a job without one (score, audit, local labels) does not pay for it. */
const pgModule = () => (pgLoad ??= import('pg'));

async function connectPool(
  plan: TlsPlan,
  ssl: TlsPlan['ssl'],
  given: string | undefined,
  opts: ServerOptions,
): Promise<Pool> {
  // The password goes into the URL pg parses: pg lets a URL's empty password override a `password` option. With no
  // password at all, pg 8 throws inside SCRAM and leaves the socket open, and the server keeps that half-logged-in
  // connection for a minute (a DROP DATABASE waited on it): a stand-in is sent instead, which the server refuses
  // cleanly (28P01), said below as "none given". A password written in the URL wins.
  const connect = new URL(plan.connectUrl.toString());
  if (!connect.password) connect.password = encodeURIComponent(given ?? NO_PASSWORD);
  const pg = await pgModule();
  const pool = new pg.default.Pool({
    Client: guardedClient(pg.default, plan.loopback),
    connectionString: connect.toString(),
    ssl,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    statement_timeout: opts.statementTimeoutMs ?? 30_000,
    idleTimeoutMillis: 10_000,
    max: opts.max ?? 4,
    application_name: 'persona-lab',
  });
  // An idle connection that the server drops emits here; without a listener that would end the process. The next
  // query then fails and is worded by serverError.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
}

/** Node's codes for a server certificate that does not check out, worded for the person who set the URL. */
const CERT_PROBLEMS: Record<string, string> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is not signed by a CA this connection trusts',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is not signed by a CA this connection trusts',
  SELF_SIGNED_CERT_IN_CHAIN: 'is signed by a CA this connection does not trust',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed',
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'was issued for another name',
};

function failure(err: unknown, url: string, given: string | undefined): ServerError {
  const code = (err as { code?: unknown }).code;
  const cert = typeof code === 'string' ? CERT_PROBLEMS[code] : undefined;
  if (cert !== undefined) {
    const plan = tlsPlan(url);
    const trusted = new URL(url.trim()).searchParams.get('sslrootcert') ? 'the sslrootcert of the URL' : "the system's";
    return new ServerError(
      `the label server ${describeServer(url)}: its certificate ${cert} (sslmode=${plan.mode}, CAs: ${trusted}); ` +
        `nothing was sent. ${(err as Error).message}. Give the CA that signed it with ?sslrootcert=FILE, or ` +
        'connect by the name on its certificate',
      false,
    );
  }
  if ((code === '28P01' || code === '28000') && given === undefined && !new URL(url.trim()).password)
    return new ServerError(
      `the label server ${describeServer(url)} asks for a password and none was given; set it (PGPASSWORD for ` +
        'the CLI, "Persona Lab: Set Label Server Password" in VS Code)',
      false,
    );
  return serverError(err, url);
}

const NO_PASSWORD = 'persona-lab: no password was given';

const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Runs `fn` in one transaction on one connection of `pool` (BEGIN … COMMIT, ROLLBACK on any error), again (up to
 * `attempts` times) when the server aborted it as a deadlock or serialization victim.
 */
export async function inTransaction<T>(
  pool: Pool,
  fn: (c: PoolClient) => Promise<T>,
  opts: { attempts?: number; isolation?: 'read committed' | 'serializable' } = {},
): Promise<T> {
  const attempts = opts.attempts ?? 5;
  for (let i = 1; ; i++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    // A checked-out connection has no listener of the pool's: a server that goes away between two statements would
    // otherwise raise an unhandled 'error' event (ending the extension host). The next statement fails instead.
    const onError = (e: Error) => (broken ??= e);
    client.on('error', onError);
    try {
      await client.query(opts.isolation === 'serializable' ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      const code = (err as { code?: unknown }).code;
      if (i < attempts && typeof code === 'string' && RETRYABLE.has(code)) continue;
      if (isUnreachable(err)) broken ??= err as Error;
      throw err;
    } finally {
      // A connection that failed mid-transaction is destroyed rather than handed to the next caller.
      client.off('error', onError);
      client.release(broken);
    }
  }
}

/** The versioned schema of one kind of store on a server (its own row in persona_lab_schema). */
export interface ServerSchema {
  /** Names the store in messages and keys its row ("label store"). */
  what: string;
  migrations: readonly string[];
}

/** A fixed key for pg_advisory_xact_lock: every Persona Lab client migrating any store waits on the same lock. */
const MIGRATION_LOCK = 0x5e_4a_1a_b0;

/**
 * Brings `schema` on the server to its last version, once: the first client takes the advisory lock, reads the
 * version inside it and runs what is missing; the others wait, then find nothing to do. Refuses a newer version.
 */
export async function migrateServer(pool: Pool, schema: ServerSchema): Promise<{ from: number; to: number }> {
  return inTransaction(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // CREATE … IF NOT EXISTS still asks for CREATE on the schema, which an annotator's role does not have.
    const made = await c.query<{ made: boolean }>("SELECT to_regclass('persona_lab_schema') IS NOT NULL AS made");
    if (!made.rows[0]?.made)
      await c.query(
        'CREATE TABLE persona_lab_schema (what TEXT PRIMARY KEY, version INTEGER NOT NULL, migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())',
      );
    const found = await c.query<{ version: number }>('SELECT version FROM persona_lab_schema WHERE what = $1', [
      schema.what,
    ]);
    const from = found.rows[0]?.version ?? 0;
    const last = schema.migrations.length;
    if (from > last)
      throw new SchemaError(
        `the ${schema.what} on the server has schema version ${from}, newer than this Persona Lab knows (${last}); update Persona Lab`,
      );
    for (let v = from; v < last; v++) {
      try {
        await c.query(schema.migrations[v]);
      } catch (err) {
        if ((err as { code?: unknown }).code !== '42501') throw err;
        throw new SchemaError(
          `the ${schema.what} on the server is at schema version ${from} and this Persona Lab needs ${last}; ` +
            `this role may not upgrade it (${(err as Error).message}): connect once as the database's owner`,
        );
      }
    }
    if (from !== last)
      await c.query(
        'INSERT INTO persona_lab_schema (what, version) VALUES ($1, $2) ' +
          'ON CONFLICT (what) DO UPDATE SET version = excluded.version, migrated_at = now()',
        [schema.what, last],
      );
    return { from, to: last };
  });
}

/** A statement written with `?` placeholders, numbered `$1, $2, …` as PostgreSQL takes them. */
export function pgSql(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
