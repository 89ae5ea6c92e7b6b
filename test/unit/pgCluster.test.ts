// The PostgreSQL of the unit tests: the run's server is a real PostgreSQL, each file gets a database
// of its own, and a cluster started here listens on loopback only. scripts/pg-cluster.mjs start/stop as a CLI.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findPgBin } from '../../scripts/pg-cluster.mjs';
import { createTestDatabase, describePg, pgServer, pgUrl, useTestDatabase } from '../support/pg';

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, query_timeout: 30_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describePg('the PostgreSQL server of the unit tests', () => {
  const db = useTestDatabase();

  it('is PostgreSQL, reached with the pg client', async () => {
    const { rows } = await withClient(db.url, (c) => c.query<{ version: string }>('SELECT version()'));
    expect(rows[0].version).toMatch(/^PostgreSQL \d+/);
  });

  it("creates tables in the file's own database, which the server's database does not see", async () => {
    const rows = await withClient(db.url, async (c) => {
      await c.query('CREATE TABLE probe (id serial PRIMARY KEY, note text NOT NULL)');
      await c.query('INSERT INTO probe (note) VALUES ($1), ($2)', ['a', 'b']);
      return (
        await c.query<{ db: string; notes: string[] }>(
          'SELECT current_database() AS db, array_agg(note ORDER BY id) AS notes FROM probe',
        )
      ).rows;
    });
    expect(rows).toEqual([{ db: db.name, notes: ['a', 'b'] }]);
    const elsewhere = await withClient(pgUrl()!, (c) => c.query("SELECT to_regclass('public.probe') AS t"));
    expect(elsewhere.rows[0].t).toBeNull();
  });

  it('makes and drops further databases, each empty', async () => {
    const other = await createTestDatabase('second');
    expect(other.name).not.toBe(db.name);
    const t = await withClient(other.url, (c) => c.query("SELECT to_regclass('public.probe') AS t"));
    expect(t.rows[0].t).toBeNull();
    await other.drop();
    const left = await withClient(pgUrl()!, (c) =>
      c.query('SELECT 1 FROM pg_database WHERE datname = $1', [other.name]),
    );
    expect(left.rowCount).toBe(0);
  });

  it.skipIf(pgServer().source !== 'cluster')('a cluster started for the run listens on 127.0.0.1 only', async () => {
    const rows = await withClient(db.url, async (c) => ({
      listen: (await c.query('SHOW listen_addresses')).rows[0].listen_addresses,
      sockets: (await c.query('SHOW unix_socket_directories')).rows[0].unix_socket_directories,
      addr: (await c.query('SELECT host(inet_server_addr()) AS a')).rows[0].a,
    }));
    expect(rows.listen).toBe('127.0.0.1');
    expect(rows.addr).toBe('127.0.0.1');
    expect(rows.sockets).toBe(join(pgServer().dir!, 'sock'));
  });
});

describe.skipIf(!findPgBin())('scripts/pg-cluster.mjs start / stop', () => {
  const parent = mkdtempSync(join(tmpdir(), 'pl-pgcli-'));
  // mkdtemp makes it 0700; under root the server runs as postgres, which must be able to enter it.
  chmodSync(parent, 0o755);
  const dir = join(parent, 'cluster');
  afterAll(() => {
    if (existsSync(join(dir, 'data', 'postmaster.pid')))
      execFileSync(process.execPath, ['scripts/pg-cluster.mjs', 'stop', '--dir', dir]);
    rmSync(parent, { recursive: true, force: true });
  });

  it('prints and writes a loopback URL that connects, and stop ends the server and removes the folder', async () => {
    const printed = execFileSync(process.execPath, ['scripts/pg-cluster.mjs', 'start', '--dir', dir], {
      encoding: 'utf8',
      timeout: 120_000,
    }).trim();
    expect(printed).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/persona_lab$/);
    expect(readFileSync(join(dir, 'url'), 'utf8').trim()).toBe(printed);
    const db = await withClient(printed, async (c) => (await c.query('SELECT current_database() AS d')).rows[0].d);
    expect(db).toBe('persona_lab');

    execFileSync(process.execPath, ['scripts/pg-cluster.mjs', 'stop', '--dir', dir, '--rm'], { timeout: 120_000 });
    expect(existsSync(dir)).toBe(false);
    await expect(withClient(printed, (c) => c.query('SELECT 1'))).rejects.toThrow(/ECONNREFUSED/);
  });
});
