// vitest globalSetup (unit config): the PostgreSQL server of this test run, handed to the tests with
// provide/inject (read it through test/support/pg.ts). PERSONA_LAB_PG_URL names a server to use; else a throwaway
// cluster of Debian's binaries is started on a loopback port and stopped at teardown; else the tests that need
// PostgreSQL are skipped with the reason, unless PERSONA_LAB_REQUIRE_PG=1 (CI), which fails the run instead.
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { findPgBin, installHint, reapOrphans, startCluster, stopCluster } from '../../scripts/pg-cluster.mjs';

export interface PgServerInfo {
  /** Connection URL of a database this run may use to create and drop its test databases; absent: no server. */
  url?: string;
  /** Where the server came from: PERSONA_LAB_PG_URL, or a cluster started for this run (in `dir`). */
  source: 'env' | 'cluster' | 'none';
  dir?: string;
  /** Why the PostgreSQL tests are skipped (source 'none'). */
  skipReason?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    personaLabPg: PgServerInfo;
  }
}

const log = (msg: string) => console.log(`[pg] ${msg}`);

async function reachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, query_timeout: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const required = process.env.PERSONA_LAB_REQUIRE_PG === '1';
  const unavailable = (reason: string): undefined => {
    if (required) throw new Error(`PERSONA_LAB_REQUIRE_PG=1 but ${reason}; ${installHint()}`);
    log(`tests that need PostgreSQL are skipped: ${reason} (${installHint()})`);
    project.provide('personaLabPg', { source: 'none', skipReason: reason });
    return undefined;
  };

  const given = process.env.PERSONA_LAB_PG_URL;
  if (given) {
    const err = await reachable(given);
    if (err) return unavailable(`PERSONA_LAB_PG_URL cannot be reached (${err})`);
    log('using the server of PERSONA_LAB_PG_URL');
    project.provide('personaLabPg', { url: given, source: 'env' });
    return undefined;
  }
  if (!findPgBin()) return unavailable('no PostgreSQL server binaries (initdb, pg_ctl) were found');
  reapOrphans();
  let cluster;
  try {
    cluster = await startCluster();
  } catch (e) {
    return unavailable(`a throwaway cluster did not start: ${e instanceof Error ? e.message : String(e)}`);
  }
  log(`throwaway cluster on 127.0.0.1:${cluster.port} (${cluster.dir})`);
  project.provide('personaLabPg', { url: cluster.url, source: 'cluster', dir: cluster.dir });
  const { dir } = cluster;
  return () => stopCluster(dir, { remove: true });
}
