// PostgreSQL for unit tests: the server of the run (test/support/pgGlobalSetup.ts) and one empty database per test
// file, so that files running in parallel never share tables.
//
//   describePg('label store on PostgreSQL', () => {
//     const db = useTestDatabase();          // created in beforeAll, dropped in afterAll
//     it('...', async () => { const client = new pg.Client(db.url); ... });
//   });
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import type { PgServerInfo } from './pgGlobalSetup';

export type { PgServerInfo };

export function pgServer(): PgServerInfo {
  return inject('personaLabPg') ?? { source: 'none', skipReason: 'the unit config ran no pg globalSetup' };
}

/** The run's server URL (a database allowed to CREATE/DROP DATABASE), or undefined when PostgreSQL tests skip. */
export function pgUrl(): string | undefined {
  return pgServer().url;
}

/** `describe` when the run has a PostgreSQL server, else `describe.skip` with the reason in its name. */
export function describePg(name: string, fn: () => void): void {
  const server = pgServer();
  if (server.url) describe(name, fn);
  else describe.skip(`${name} (skipped: ${server.skipReason ?? 'no PostgreSQL server'})`, fn);
}

export interface TestDatabase {
  name: string;
  /** The server URL with this database in its path. */
  url: string;
  /** Drops the database, closing whatever connections to it are still open. */
  drop(): Promise<void>;
}

async function admin<T>(serverUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: serverUrl,
    connectionTimeoutMillis: 10_000,
    query_timeout: 60_000,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database with a unique name (pl_<label>_<pid>_<random>) on the run's server. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const serverUrl = pgUrl();
  if (!serverUrl) throw new Error(`no PostgreSQL server: ${pgServer().skipReason ?? 'unknown reason'}`);
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 24);
  const name = `pl_${slug}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

/**
 * A fresh empty database for the enclosing describe block (use inside describePg): created in beforeAll, dropped
 * in afterAll. Read `url` and `name` inside tests or hooks, not at collection time.
 */
export function useTestDatabase(label?: string): { readonly url: string; readonly name: string } {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(label ?? (expect.getState().testPath ?? 'test').replace(/^.*\/|\..*$/g, ''));
  });
  afterAll(async () => {
    await db?.drop();
  });
  const current = () => {
    if (!db) throw new Error('useTestDatabase: the database exists only once beforeAll has run');
    return db;
  };
  return {
    get url() {
      return current().url;
    },
    get name() {
      return current().name;
    },
  };
}
