// How a connection to a label server is protected, decided from its URL as libpq would (sslmode, sslrootcert), with
// one stricter default: a host that is not this machine gets verify-full against the system's CAs, since labels,
// notes and the password cross a network someone else may read. And whatever the mode, a server that asks for the
// password in clear over a connection that is neither TLS nor loopback does not get it.
import type { ConnectionOptions } from 'node:tls';
import type pg from 'pg';
import { readRegularText } from '../io/safeFs';
import { net } from '../io/builtins';

export const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** The URL parameters read here; they are taken out of the URL handed to pg, which would read them its own way. */
const TLS_PARAMS = ['sslmode', 'sslrootcert', 'ssl', 'sslcert', 'sslkey', 'sslnegotiation'];

/** Whether `host` (a URL's hostname) names this machine: localhost, 127.0.0.0/8, ::1, or an IPv4-mapped 127.x. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h.startsWith('/')) return true; // a Unix socket folder
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  if (net().isIP(v4) === 4) return v4.split('.')[0] === '127';
  if (net().isIP(h) === 6) return /^(0{0,4}:){2,7}0{0,3}1$/.test(h) || h === '::1';
  return false;
}

export interface TlsPlan {
  mode: SslMode;
  /** Whether the mode was written in the URL (else the default for its host). */
  explicit: boolean;
  loopback: boolean;
  /** pg's `ssl` option for the first attempt. */
  ssl: false | ConnectionOptions;
  /** prefer: when the server has no TLS, connect again without it. */
  fallbackPlain: boolean;
  /** The URL without the TLS parameters, for pg. */
  connectUrl: URL;
}

/** The TLS plan for `url`; throws Error (for a person) on an unknown sslmode or an unreadable sslrootcert. */
export function tlsPlan(url: string): TlsPlan {
  const u = new URL(url.trim());
  const loopback = isLoopbackHost(u.hostname);
  const given = u.searchParams.get('sslmode');
  if (given !== null && !(SSL_MODES as readonly string[]).includes(given))
    throw new Error(`sslmode=${given} is not one of ${SSL_MODES.join(', ')}`);
  const mode: SslMode = (given as SslMode | null) ?? (loopback ? 'disable' : 'verify-full');
  const rootcert = u.searchParams.get('sslrootcert');
  let ca: string | undefined;
  if (rootcert && rootcert !== 'system') {
    try {
      ca = readRegularText(rootcert);
    } catch (err) {
      throw new Error(`sslrootcert ${rootcert}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }
  const connectUrl = new URL(u.toString());
  for (const p of TLS_PARAMS) connectUrl.searchParams.delete(p);
  const withCa: ConnectionOptions = ca ? { ca } : {};
  let ssl: false | ConnectionOptions;
  switch (mode) {
    case 'disable':
      ssl = false;
      break;
    case 'prefer':
      ssl = { rejectUnauthorized: false };
      break;
    // As libpq: require with a root certificate checks the chain as verify-ca does.
    case 'require':
      ssl = ca ? { ...withCa, checkServerIdentity: () => undefined } : { rejectUnauthorized: false };
      break;
    case 'verify-ca':
      ssl = { ...withCa, rejectUnauthorized: true, checkServerIdentity: () => undefined };
      break;
    case 'verify-full':
      ssl = { ...withCa, rejectUnauthorized: true };
      break;
  }
  return { mode, explicit: given !== null, loopback, ssl, fallbackPlain: mode === 'prefer', connectUrl };
}

/** What pg says when the server answered 'N' to the TLS request. */
export const isNoTlsError = (err: unknown): boolean =>
  err instanceof Error && /does not support SSL connections/i.test(err.message);

/** Raised instead of answering a cleartext password request on an unprotected connection to another machine. */
export class CleartextRefused extends Error {
  override name = 'CleartextRefused';
  readonly code = 'PLCLR';
}

/** Whether a cleartext password request may be answered: the connection is TLS, or the server is this machine. */
export const cleartextAllowed = (loopback: boolean, encrypted: boolean): boolean => loopback || encrypted;

/**
 * A pg Client class for one server: it answers a cleartext password request only over TLS or to a loopback host,
 * else ends the connection with CleartextRefused (the password is never written to the socket).
 */
export function guardedClient(pgModule: typeof pg, loopback: boolean): typeof pg.Client {
  class GuardedClient extends pgModule.Client {
    // pg binds this method as its listener for the request (Client#_attachListeners): overriding it keeps the
    // password from ever being written to the socket.
    _handleAuthCleartextPassword(msg: unknown): void {
      const con = (this as unknown as { connection: PgConnection }).connection;
      if (cleartextAllowed(loopback, con.stream?.encrypted === true)) {
        (
          pgModule.Client.prototype as unknown as { _handleAuthCleartextPassword(m: unknown): void }
        )._handleAuthCleartextPassword.call(this, msg);
        return;
      }
      con.emit(
        'error',
        new CleartextRefused(
          'the server asked for the password in clear over a connection without TLS; it was not sent ' +
            '(connect with TLS: sslmode=verify-full, the default for a host that is not this machine)',
        ),
      );
      con.stream?.destroy();
    }
  }
  return GuardedClient;
}

interface PgConnection {
  stream?: { encrypted?: boolean; destroy(): void };
  emit(event: string, ...args: unknown[]): boolean;
}
