#!/usr/bin/env node
// A throwaway PostgreSQL cluster for the tests, made with the server's own initdb and pg_ctl (Debian:
// /usr/lib/postgresql/<newest>/bin, from the `postgresql` package). It listens on 127.0.0.1 only, on a free port,
// with its Unix socket inside its own folder; the superuser `postgres` logs in over TCP with TEST_PASSWORD (scram).
// As root, every server binary runs as the `postgres` system user (initdb and pg_ctl refuse root), in a folder that
// user owns.
//
// Usage: node scripts/pg-cluster.mjs start [--dir D] [--port P] [--db NAME]   prints the URL, writes it to D/url
//        node scripts/pg-cluster.mjs stop --dir D [--rm]
// Layout of D: data/ (PGDATA), sock/ (the Unix socket), server.log, url, owner.pid (the process that started it).
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TEST_PASSWORD = 'persona-lab-test';
export const DEFAULT_DB = 'persona_lab';
export const TEMP_PREFIX = 'persona-lab-pg-';
const STEP_TIMEOUT_MS = 90_000;

/**
 * The folder holding initdb and pg_ctl: $PERSONA_LAB_PG_BIN, else Debian's newest /usr/lib/postgresql/<major>/bin,
 * else the folder of an initdb on PATH. Undefined when there is none.
 * @returns {string | undefined}
 */
export function findPgBin() {
  const has = (dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  const fromEnv = process.env.PERSONA_LAB_PG_BIN;
  if (fromEnv) return has(fromEnv) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v) && has(join(root, v, 'bin')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors.length) return join(root, majors[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && has(dir)) return dir;
  return undefined;
}

/** As root: the uid and gid of the `postgres` system user the server runs as; else undefined. */
function serverUser() {
  if (!isRoot()) return undefined;
  const id = (flag) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8', timeout: 10_000 });
  const [u, g] = [id('-u'), id('-g')];
  if (u.status !== 0 || g.status !== 0) {
    throw new Error(`as root the server runs as the postgres system user, and there is none: ${installHint()}`);
  }
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The environment of the server binaries: none of the caller's PG* settings may redirect them. */
function serverEnv() {
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
  for (const k of Object.keys(env)) if (k.startsWith('PG')) delete env[k];
  return env;
}

/**
 * Runs one server binary (as `postgres` when we are root), bounded in time; throws with its output on failure.
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, timeoutMs?: number }} opts
 */
function run(cmd, args, { cwd, env = serverEnv(), timeoutMs = STEP_TIMEOUT_MS }) {
  const [file, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(file, argv, { cwd, env, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
    throw new Error(`${[file, ...argv].join(' ')} failed (${why})\n${r.stdout ?? ''}${r.stderr ?? ''}`.trim());
  }
  return r.stdout;
}

/** A port free on 127.0.0.1 right now (the OS picks it). */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => ok(port));
    });
  });
}

/** A value quoted for postgresql.conf. */
const confString = (s) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * Creates and starts a cluster in `dir` (a new temporary folder when omitted; it must be empty or absent).
 * `durable`: keep PostgreSQL's own fsync and synchronous commit (the bench compares it with a synchronous SQLite
 * file); else they are off, as a throwaway test server needs no durability.
 * `tls`: a PEM certificate and key the server offers to clients that ask for TLS (plain connections still work).
 * @param {{ dir?: string, port?: number, db?: string, durable?: boolean, tls?: { cert: string, key: string } }} [opts]
 * @returns {Promise<{ dir: string, url: string, port: number, bin: string }>}
 */
export async function startCluster(opts = {}) {
  const bin = findPgBin();
  if (!bin) throw new Error(`no PostgreSQL server binaries (initdb, pg_ctl) found: ${installHint()}`);
  const dir = resolve(opts.dir ?? mkdtempSync(join(tmpdir(), TEMP_PREFIX)));
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length) throw new Error(`${dir} is not empty: a cluster needs a folder of its own`);
  const db = opts.db ?? DEFAULT_DB;
  if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new Error(`database name ${db}: use [a-z0-9_] only`);
  const owner = serverUser();
  const own = (path) => owner && chownSync(path, owner.uid, owner.gid);
  /** Files the server reads are written by us and handed to the user it runs as. */
  const write = (path, text) => {
    writeFileSync(path, text, { mode: 0o600 });
    own(path);
  };
  own(dir);
  if (owner && spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir], { timeout: 10_000 }).status !== 0) {
    throw new Error(`the postgres user cannot enter ${dir}: a folder above it is closed to others (chmod o+x it)`);
  }
  const data = join(dir, 'data');
  const sock = join(dir, 'sock');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(join(dir, 'owner.pid'), `${process.pid}\n`);
  mkdirSync(sock, { mode: 0o700 });
  own(sock);
  write(pwfile, `${TEST_PASSWORD}\n`);
  run(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--pwfile', pwfile, '--auth-host=scram-sha-256', '--auth-local=trust'].concat([
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
      '--no-instructions',
    ]),
    { cwd: dir },
  );
  rmSync(pwfile, { force: true });
  // The server refuses a key file others may read, so both are written as its own files.
  if (opts.tls) {
    write(join(data, 'server.crt'), opts.tls.cert);
    write(join(data, 'server.key'), opts.tls.key);
  }
  const log = join(dir, 'server.log');
  let port = opts.port;
  for (let attempt = 1; ; attempt++) {
    const p = port ?? (await freePort());
    // The last setting wins in postgresql.conf; rewritten on each attempt. A throwaway server needs no durability.
    const conf = [
      `listen_addresses = '127.0.0.1'`,
      `port = ${p}`,
      `unix_socket_directories = ${confString(sock)}`,
      `max_connections = 200`,
      ...(opts.durable ? [] : [`fsync = off`, `synchronous_commit = off`, `full_page_writes = off`]),
      ...(opts.tls ? [`ssl = on`, `ssl_cert_file = 'server.crt'`, `ssl_key_file = 'server.key'`] : []),
    ].join('\n');
    write(join(data, 'persona-lab.conf'), `${conf}\n`);
    const main = join(data, 'postgresql.conf');
    if (!readFileSync(main, 'utf8').includes("include 'persona-lab.conf'")) {
      appendFileSync(main, "\ninclude 'persona-lab.conf'\n");
    }
    try {
      run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', 'start'], { cwd: dir });
      port = p;
      break;
    } catch (e) {
      // Another process may take the free port between our probe and the server's bind: try another one.
      const taken = existsSync(log) && /could not bind|Address already in use/.test(readFileSync(log, 'utf8'));
      if (opts.port !== undefined || attempt >= 3 || !taken) throw withLog(e, log);
    }
  }
  const url = `postgres://postgres:${TEST_PASSWORD}@127.0.0.1:${port}/${db}`;
  run(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', db], {
    cwd: dir,
    env: { ...serverEnv(), PGPASSWORD: TEST_PASSWORD, PGCONNECT_TIMEOUT: '10' },
  });
  writeFileSync(join(dir, 'url'), `${url}\n`);
  return { dir, url, port, bin };
}

function withLog(e, log) {
  const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
  return new Error(`${e instanceof Error ? e.message : String(e)}\n--- ${log} ---\n${tail}`);
}

/**
 * Stops the cluster in `dir` (fast shutdown, else immediate); with `remove`, deletes the folder too.
 * @param {string} dir
 * @param {{ remove?: boolean }} [opts]
 */
export function stopCluster(dir, { remove = false } = {}) {
  dir = resolve(dir);
  const data = join(dir, 'data');
  const bin = findPgBin();
  if (bin && existsSync(join(data, 'postmaster.pid'))) {
    const pgCtl = join(bin, 'pg_ctl');
    try {
      run(pgCtl, ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'], { cwd: dir, timeoutMs: 45_000 });
    } catch {
      run(pgCtl, ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop'], { cwd: dir, timeoutMs: 45_000 });
    }
  }
  if (remove) rmSync(dir, { recursive: true, force: true });
}

/**
 * Starts again a cluster that stopCluster stopped, on its port: the URL in D/url works again (fault tests).
 * @param {string} dir
 * @returns {string} the URL
 */
export function resumeCluster(dir) {
  dir = resolve(dir);
  const bin = findPgBin();
  if (!bin) throw new Error(`no PostgreSQL server binaries (initdb, pg_ctl) found: ${installHint()}`);
  const log = join(dir, 'server.log');
  try {
    run(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-l', log, '-w', '-t', '60', 'start'], { cwd: dir });
  } catch (e) {
    throw withLog(e, log);
  }
  return readFileSync(join(dir, 'url'), 'utf8').trim();
}

/**
 * Stops and removes the temporary clusters (TEMP_PREFIX under the temp folder) whose starting process is gone,
 * e.g. after a test run was killed before its teardown.
 * @returns {string[]} the folders removed
 */
export function reapOrphans() {
  const removed = [];
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let pid;
    try {
      if (!statSync(dir).isDirectory()) continue;
      pid = Number(readFileSync(join(dir, 'owner.pid'), 'utf8').trim());
    } catch {
      continue;
    }
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) continue;
    try {
      stopCluster(dir, { remove: true });
      removed.push(dir);
    } catch {
      // Left for the next run; never fatal to the one starting now.
    }
  }
  return removed;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

export function installHint() {
  return "install Debian's PostgreSQL server (`apt-get install postgresql`), or set PERSONA_LAB_PG_BIN to the folder of initdb and pg_ctl, or PERSONA_LAB_PG_URL to a server to use";
}

function arg(argv, name) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function cli(argv) {
  const [cmd] = argv;
  const dir = arg(argv, '--dir');
  if (cmd === 'start') {
    const port = arg(argv, '--port');
    if (port !== undefined && !/^\d+$/.test(port)) throw new Error(`--port ${port}: a number, please`);
    const c = await startCluster({ dir, port: port === undefined ? undefined : Number(port), db: arg(argv, '--db') });
    console.error(`[pg-cluster] PostgreSQL (${c.bin}) on 127.0.0.1:${c.port}, folder ${c.dir}`);
    console.log(c.url);
  } else if (cmd === 'stop') {
    if (!dir) throw new Error('stop needs --dir D');
    stopCluster(dir, { remove: argv.includes('--rm') });
    console.error(`[pg-cluster] stopped ${resolve(dir)}`);
  } else {
    console.error('usage: pg-cluster.mjs start [--dir D] [--port P] [--db NAME] | stop --dir D [--rm]');
    process.exitCode = 2;
  }
}

// import.meta.url is empty where a bundle (the bench's, CommonJS) carries this file: then it is never the script run.
const self = typeof import.meta.url === 'string' && import.meta.url ? fileURLToPath(import.meta.url) : undefined;
if (process.argv[1] && self && resolve(process.argv[1]) === self) {
  cli(process.argv.slice(2)).catch((e) => {
    console.error(`[pg-cluster] ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
