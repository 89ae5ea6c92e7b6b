// A label server's connection protection: the URL's sslmode as libpq reads it, verify-full by default for a host
// that is not this machine, and the password never sent in clear to such a host. A fake server speaking just enough
// of the protocol (SSL request, startup, a cleartext password request) records what the client sends it; it listens
// on this machine's own non-loopback address, which the client rightly treats as another host.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPool, ServerError } from '../../src/core/storage/postgres';
import { isLoopbackHost, tlsPlan } from '../../src/core/storage/pgTls';

describe('which hosts are this machine', () => {
  it.each(['localhost', 'LOCALHOST', 'db.localhost', '127.0.0.1', '127.4.5.6', '[::1]', '::1', '::ffff:127.0.0.1'])(
    '%s is loopback',
    (h) => expect(isLoopbackHost(h)).toBe(true),
  );
  it.each(['db.example.org', '192.0.2.2', '10.0.0.1', '[2001:db8::1]', '128.0.0.1', 'localhost.example.org'])(
    '%s is not',
    (h) => expect(isLoopbackHost(h)).toBe(false),
  );
});

describe('the TLS plan of a URL', () => {
  it('defaults to verify-full (system CAs) for another host and to no TLS on loopback', () => {
    const remote = tlsPlan('postgres://ann@db.example.org/labels');
    expect(remote.mode).toBe('verify-full');
    expect(remote.ssl).toEqual({ rejectUnauthorized: true });
    const local = tlsPlan('postgres://ann@127.0.0.1:5432/labels');
    expect(local.mode).toBe('disable');
    expect(local.ssl).toBe(false);
  });

  it('honours sslmode and takes the TLS parameters out of what pg reads', () => {
    const req = tlsPlan('postgres://ann@db.example.org/labels?sslmode=require&application_name=x');
    expect(req.ssl).toEqual({ rejectUnauthorized: false });
    expect(req.connectUrl.searchParams.has('sslmode')).toBe(false);
    expect(req.connectUrl.searchParams.get('application_name')).toBe('x');
    expect(tlsPlan('postgres://ann@db.example.org/labels?sslmode=disable').ssl).toBe(false);
    const prefer = tlsPlan('postgres://ann@db.example.org/labels?sslmode=prefer');
    expect(prefer.fallbackPlain).toBe(true);
    const ca = tlsPlan('postgres://ann@127.0.0.1/labels?sslmode=verify-ca');
    expect(ca.ssl && ca.ssl.rejectUnauthorized).toBe(true);
    expect(ca.ssl && ca.ssl.checkServerIdentity?.('x', {} as never)).toBeUndefined();
    expect(() => tlsPlan('postgres://ann@db.example.org/labels?sslmode=allow-anything')).toThrow(/sslmode=allow/);
  });

  it('reads sslrootcert as the CA, and says which file it cannot read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pl-tls-'));
    const pem = join(dir, 'root.crt');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const plan = tlsPlan(`postgres://ann@db.example.org/labels?sslrootcert=${encodeURIComponent(pem)}`);
    expect(plan.ssl && plan.ssl.ca).toContain('BEGIN CERTIFICATE');
    expect(() => tlsPlan(`postgres://ann@db.example.org/labels?sslrootcert=${join(dir, 'none.crt')}`)).toThrow(
      /sslrootcert .*none\.crt/,
    );
  });
});

/** A fake PostgreSQL server: answers 'N' to a TLS request, asks for a cleartext password, records every message. */
interface Fake {
  server: Server;
  port: number;
  sslRequests: number;
  passwords: string[];
}

async function fakeServer(host: string): Promise<Fake> {
  const fake: Fake = { server: createServer(), port: 0, sslRequests: 0, passwords: [] };
  fake.server.on('connection', (sock: Socket) => {
    let buf = Buffer.alloc(0);
    let started = false;
    sock.on('error', () => undefined);
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (!started) {
          if (buf.length < 8) return;
          const len = buf.readInt32BE(0);
          if (buf.length < len) return;
          const code = buf.readInt32BE(4);
          buf = buf.subarray(len);
          if (code === 80877103) {
            fake.sslRequests++;
            sock.write('N');
            continue;
          }
          started = true;
          // AuthenticationCleartextPassword
          sock.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
          continue;
        }
        if (buf.length < 5) return;
        const type = String.fromCharCode(buf[0]);
        const len = buf.readInt32BE(1);
        if (buf.length < 1 + len) return;
        const body = buf.subarray(5, 1 + len);
        buf = buf.subarray(1 + len);
        if (type === 'p') {
          fake.passwords.push(body.toString('utf8').replace(/\0$/, ''));
          const fields = 'SFATAL\0C28P01\0Mpassword authentication failed\0\0';
          const e = Buffer.alloc(5);
          e.write('E');
          e.writeInt32BE(4 + Buffer.byteLength(fields), 1);
          sock.end(Buffer.concat([e, Buffer.from(fields)]));
        }
      }
    });
  });
  await new Promise<void>((ok) => fake.server.listen(0, host, ok));
  fake.port = (fake.server.address() as { port: number }).port;
  return fake;
}

/** This machine's own address on a network interface other than loopback. */
function ownNonLoopbackAddress(): string {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  throw new Error('this machine has no IPv4 address outside loopback: the socket tests need one');
}

describe('the password and a server that asks for it in clear', () => {
  const fakes: Fake[] = [];
  afterEach(async () => {
    for (const f of fakes.splice(0)) await new Promise((ok) => f.server.close(ok));
  });
  const open = async (host: string, query: string) => {
    const fake = await fakeServer(host);
    fakes.push(fake);
    const err = await openPool(`postgres://ann@${host}:${fake.port}/labels${query}`, {
      password: 'secret-of-ann',
      connectTimeoutMs: 10_000,
    }).then(
      async (pool) => {
        await pool.end();
        return undefined;
      },
      (e: unknown) => e,
    );
    return { fake, err };
  };

  it('asks another host for TLS by default and sends nothing when it has none', async () => {
    const { fake, err } = await open(ownNonLoopbackAddress(), '');
    expect(fake.sslRequests).toBe(1);
    expect(fake.passwords).toEqual([]);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as Error).message).toMatch(/offers no TLS and sslmode is verify-full \(the default/);
  });

  it('with sslmode=disable, refuses a cleartext password request from another host', async () => {
    const { fake, err } = await open(ownNonLoopbackAddress(), '?sslmode=disable');
    expect(fake.sslRequests).toBe(0);
    expect(fake.passwords).toEqual([]);
    expect((err as Error).message).toMatch(/asked for the password in clear .* it was not sent/);
  });

  it('with sslmode=prefer, falls back to no TLS and still refuses the cleartext request', async () => {
    const { fake, err } = await open(ownNonLoopbackAddress(), '?sslmode=prefer');
    expect(fake.sslRequests).toBe(1);
    expect(fake.passwords).toEqual([]);
    expect((err as Error).message).toMatch(/asked for the password in clear/);
  });

  it('answers the same request on loopback (this machine), where nothing crosses a network', async () => {
    const { fake, err } = await open('127.0.0.1', '');
    expect(fake.passwords).toEqual(['secret-of-ann']);
    expect((err as Error).message).toMatch(/refused the login/);
  });
});
