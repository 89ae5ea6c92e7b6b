// The label server's TLS against a real PostgreSQL with TLS on (this file's own cluster, a certificate for
// 127.0.0.1 signed by a throwaway CA made here with openssl): verify-full connects only with the CA that signed it
// and only under the name it was issued for, require encrypts without checking, and each connection says whether it
// is encrypted as the server sees it (pg_stat_ssl), not as the client believes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCluster, stopCluster } from '../../scripts/pg-cluster.mjs';
import { openPool, ServerError } from '../../src/core/storage/postgres';
import { describePg } from '../support/pg';

function openssl(dir: string, args: string[]): void {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  if (r.error || r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.error?.message ?? r.stderr}`);
}

/** A CA and a server certificate it signed for `san`; a second, unrelated CA. */
function certificates(dir: string, san: string) {
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  for (const ca of ['ca', 'other-ca'])
    openssl(dir, [
      'req',
      '-x509',
      ...key,
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.crt`,
      '-subj',
      `/CN=${ca}`,
      '-days',
      '2',
    ]);
  openssl(dir, ['req', ...key, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=persona-lab-test']);
  writeFileSync(join(dir, 'san.ext'), `subjectAltName=${san}\n`);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  ]);
  return { cert: readFileSync(join(dir, 'server.crt'), 'utf8'), key: readFileSync(join(dir, 'server.key'), 'utf8') };
}

describePg('a label server with TLS on', () => {
  let cluster: { dir: string; url: string };
  let certs: string;
  const pools: Pool[] = [];

  beforeAll(async () => {
    certs = mkdtempSync(join(tmpdir(), 'pl-tls-real-'));
    cluster = await startCluster({ tls: certificates(certs, 'IP:127.0.0.1') });
  }, 120_000);
  afterAll(async () => {
    for (const p of pools) await p.end().catch(() => undefined);
    stopCluster(cluster.dir, { remove: true });
  }, 120_000);

  const withParams = (params: Record<string, string>, host = '127.0.0.1') => {
    const u = new URL(cluster.url);
    u.hostname = host;
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.toString();
  };
  /** Whether the server sees this pool's connection as encrypted. */
  const encrypted = async (url: string): Promise<boolean> => {
    const pool = await openPool(url, { connectTimeoutMs: 10_000 });
    pools.push(pool);
    const r = await pool.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    return r.rows[0].ssl;
  };
  const refusal = async (url: string): Promise<string> => {
    const err = await openPool(url, { connectTimeoutMs: 10_000 }).then(
      (p) => (pools.push(p), undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServerError);
    return (err as Error).message;
  };

  it('verify-full connects encrypted with the CA that signed the certificate', async () => {
    const ca = join(certs, 'ca.crt');
    expect(await encrypted(withParams({ sslmode: 'verify-full', sslrootcert: ca }))).toBe(true);
    expect(await encrypted(withParams({ sslmode: 'verify-ca', sslrootcert: ca }))).toBe(true);
  });

  it('verify-full refuses a certificate another CA signed, and one issued for another name', async () => {
    const otherCa = await refusal(withParams({ sslmode: 'verify-full', sslrootcert: join(certs, 'other-ca.crt') }));
    expect(otherCa).toMatch(/its certificate is not signed by a CA this connection trusts \(sslmode=verify-full/);
    expect(otherCa).toMatch(/nothing was sent.*sslrootcert=FILE/);
    // The certificate names 127.0.0.1 only: "localhost" reaches the same server but is not the name it was issued for.
    const wrongName = withParams({ sslmode: 'verify-full', sslrootcert: join(certs, 'ca.crt') }, 'localhost');
    expect(await refusal(wrongName)).toMatch(/its certificate was issued for another name .*localhost/);
    // verify-ca checks the chain, not the name, as libpq does.
    expect(await encrypted(withParams({ sslmode: 'verify-ca', sslrootcert: join(certs, 'ca.crt') }, 'localhost'))).toBe(
      true,
    );
  });

  it('require and prefer encrypt without a CA; loopback without sslmode stays plain', async () => {
    expect(await encrypted(withParams({ sslmode: 'require' }))).toBe(true);
    expect(await encrypted(withParams({ sslmode: 'prefer' }))).toBe(true);
    expect(await encrypted(withParams({}))).toBe(false);
    expect(await encrypted(withParams({ sslmode: 'disable' }))).toBe(false);
  });
});
