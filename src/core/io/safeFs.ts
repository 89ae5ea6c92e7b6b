// The one way the loaders touch a benchmark folder and the one way the project writes into one.
// Reading: a dangling link, a link loop, an unreadable file, a folder where a file belongs, a special file (FIFO,
// socket, device) or a link leading out of the folder becomes a located diagnostic for that entry, and the load goes
// on. Every read opens its file through openRegular: a FIFO would block a read for ever and /dev/zero never ends, so
// only a regular file is read, and never past the size it had when it was opened. Writing: the target's real path (after symbolic links) must lie
// inside the folder it belongs to, and the bytes go to a temporary file renamed into place.
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  read,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  type Stats,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from './diagnostics';

/** Why an entry cannot be used, in words a user can act on. */
export interface FsFailure {
  code: string;
  reason: string;
  /** nothing at all is at that path (not even a dangling link) */
  missing: boolean;
}

export type EntryKind = 'file' | 'dir' | 'other';

const errCode = (err: unknown): string | undefined => {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** True for the errors a file system raises (they carry an errno code); a bug's TypeError is not one. */
export const isFsError = (err: unknown): boolean => err instanceof Error && errCode(err) !== undefined;

function linkTarget(abs: string): string | undefined {
  try {
    return lstatSync(abs).isSymbolicLink() ? readlinkSync(abs) : undefined;
  } catch {
    return undefined;
  }
}

/** A file refused before it was read (a special file, a link out of its folder): an error carrying its reason. */
export class UnreadableFile extends Error {
  readonly code: string;
  constructor(
    readonly abs: string,
    readonly failure: FsFailure,
  ) {
    super(`${abs}: ${failure.reason}`);
    this.code = failure.code;
  }
}

/** Turns a file system error on `abs` into a reason. */
export function describeFsError(err: unknown, abs: string): FsFailure {
  if (err instanceof UnreadableFile) return err.failure;
  const code = errCode(err) ?? 'EIO';
  const link = linkTarget(abs);
  switch (code) {
    case 'ENOENT':
      return link !== undefined
        ? { code, missing: false, reason: `dangling symbolic link (points to ${link}, which does not exist)` }
        : { code, missing: true, reason: 'no such file or folder' };
    case 'ELOOP':
      return { code, missing: false, reason: `symbolic link loop${link !== undefined ? ` (points to ${link})` : ''}` };
    case 'EACCES':
    case 'EPERM':
      return { code, missing: false, reason: 'permission denied' };
    case 'EISDIR':
      return { code, missing: false, reason: 'a folder where a file is expected' };
    case 'ENOTDIR':
      return { code, missing: false, reason: 'a part of the path is not a folder' };
    case 'ENXIO':
      return { code, missing: false, reason: 'a socket or a device, not a regular file; not read' };
    default:
      return { code, missing: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

export type Probe<T> = ({ ok: true } & T) | ({ ok: false } & FsFailure);

/** What is at `abs` after following links: its kind and size, or why not. Never throws. */
export function probeEntry(abs: string): Probe<{ kind: EntryKind; size: number }> {
  try {
    const st = statSync(abs);
    return { ok: true, kind: st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other', size: st.size };
  } catch (err) {
    return { ok: false, ...describeFsError(err, abs) };
  }
}

/** What a special file is, in words. */
function specialKind(st: Stats): string {
  if (st.isDirectory()) return 'a folder where a file is expected';
  if (st.isFIFO()) return 'a FIFO (named pipe), not a regular file; not read';
  if (st.isSocket()) return 'a socket, not a regular file; not read';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device, not a regular file; not read';
  return 'not a regular file; not read';
}

const special = (st: Stats): FsFailure => ({
  code: st.isDirectory() ? 'EISDIR' : 'ESPECIAL',
  missing: false,
  reason: specialKind(st),
});

/** An open regular file: its descriptor and the size it had when opened (no read goes past it). */
export interface OpenedFile {
  fd: number;
  size: number;
}

// O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting; the descriptor's own fstat then
// says what was opened (the entry may have been swapped after lstat). Not defined on Windows, which has no FIFOs.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Opens `abs` for reading when it is a regular file: lstat, then (for a link) its real path, which must lie inside
 * `within` when that is given, then an open that cannot block and an fstat of the descriptor. Never throws; the
 * caller closes the descriptor.
 */
export function openRegular(abs: string, within?: string): Probe<OpenedFile> {
  let target = abs;
  try {
    const lst = lstatSync(abs);
    if (lst.isSymbolicLink() || within !== undefined) {
      const real = realpathSync(abs);
      if (within !== undefined && !inside(realOf(within), real)) {
        const link = linkTarget(abs);
        const how = link !== undefined ? `a symbolic link to ${link}` : 'reached through a symbolic link';
        return { ok: false, code: 'EOUTSIDE', missing: false, reason: `${how}, outside the folder; not read` };
      }
      target = real;
    }
    const st = lst.isSymbolicLink() ? statSync(target) : lst;
    if (!st.isFile()) return { ok: false, ...special(st) };
  } catch (err) {
    return { ok: false, ...describeFsError(err, abs) };
  }
  let fd: number;
  try {
    fd = openSync(target, OPEN_FLAGS);
  } catch (err) {
    return { ok: false, ...describeFsError(err, abs) };
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile()) return { ok: true, fd, size: st.size };
    closeSync(fd);
    return { ok: false, ...special(st) };
  } catch (err) {
    closeSync(fd);
    return { ok: false, ...describeFsError(err, abs) };
  }
}

function realOf(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return resolve(root);
  }
}

/** As openRegular, throwing UnreadableFile (a file system error by isFsError) instead of returning a failure. */
export function openRegularOrThrow(abs: string, within?: string): OpenedFile {
  const opened = openRegular(abs, within);
  if (!opened.ok) throw new UnreadableFile(abs, opened);
  return opened;
}

/** The bytes of a regular file, up to the size it had when opened. Throws UnreadableFile or the read's error. */
export function readRegularFile(abs: string, within?: string): Buffer {
  const { fd, size } = openRegularOrThrow(abs, within);
  try {
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === size ? buf : buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** readRegularFile as UTF-8 text. */
export const readRegularText = (abs: string, within?: string): string => readRegularFile(abs, within).toString('utf8');

/** `length` bytes of an open file at `position`, for readers that read a file in pieces without blocking the loop. */
export const readAt = (fd: number, buffer: Buffer, offset: number, length: number, position: number) =>
  new Promise<number>((res, rej) => read(fd, buffer, offset, length, position, (err, n) => (err ? rej(err) : res(n))));

/** An open regular file read in pieces, as a FileHandle is, that ends at the size the file had when opened. */
export interface RegularHandle {
  size: number;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** openRegularOrThrow as a handle: no read past the size at opening (a file that grows is read by the next load). */
export function openRegularHandle(abs: string, within?: string): RegularHandle {
  const { fd, size } = openRegularOrThrow(abs, within);
  let open = true;
  return {
    size,
    read: async (buffer, offset, length, position) => ({
      bytesRead: position >= size ? 0 : await readAt(fd, buffer, offset, Math.min(length, size - position), position),
    }),
    close: () => {
      if (open) closeSync(fd);
      open = false;
      return Promise.resolve();
    },
  };
}

/** A regular file that can be opened for reading (inside `within` when given): its size, or why not. Never throws. */
export function probeFile(abs: string, within?: string): Probe<{ size: number }> {
  const opened = openRegular(abs, within);
  if (!opened.ok) return opened;
  closeSync(opened.fd);
  return { ok: true, size: opened.size };
}

/** The sorted names in a folder, or why not. Never throws. */
export function listFolder(abs: string): Probe<{ names: string[] }> {
  try {
    return { ok: true, names: readdirSync(abs).sort() };
  } catch (err) {
    return { ok: false, ...describeFsError(err, abs) };
  }
}

/**
 * A benchmark folder as a loader sees it: every entry it looks at goes through here, and whatever cannot be used
 * becomes one diagnostic for that entry (path relative to the root) instead of an exception.
 */
export class SafeFolder {
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly root: string) {}

  rel(abs: string): string {
    return relative(this.root, abs).split('\\').join('/') || '.';
  }

  report(abs: string, failure: FsFailure, consequence = 'skipped'): void {
    this.diagnostics.push({
      severity: 'error',
      file: this.rel(abs),
      line: 0,
      field: '',
      message: `${failure.reason}; ${consequence}`,
    });
  }

  /** The kind of entry at `abs`; undefined when there is none (silently) or it cannot be used (reported). */
  kind(abs: string): EntryKind | undefined {
    const entry = probeEntry(abs);
    if (entry.ok) return entry.kind;
    if (!entry.missing) this.report(abs, entry);
    return undefined;
  }

  /** The sorted names in a folder; [] when it is missing (silently) or cannot be read (reported). */
  list(abs: string): string[] {
    if (this.kind(abs) !== 'dir') return [];
    const listed = listFolder(abs);
    if (listed.ok) return listed.names;
    this.report(abs, listed);
    return [];
  }

  /** The size of a readable file; undefined when it is missing (reported only if `required`) or unusable. */
  fileSize(abs: string, required = true): number | undefined {
    const probe = probeFile(abs, this.root);
    if (probe.ok) return probe.size;
    if (!probe.missing || required) this.report(abs, probe);
    return undefined;
  }

  /** Runs a read of `abs`; a file system error from it is reported and gives undefined, any other error passes. */
  async read<T>(abs: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      if (!isFsError(err)) throw err;
      this.report(abs, describeFsError(err, abs));
      return undefined;
    }
  }
}

/** A write that would leave the folder it belongs to. */
export class WriteRefused extends Error {}

const MAX_LINKS = 40;

/** `abs` with every symbolic link on the way resolved; parts that do not exist yet are kept as they are. */
function realTarget(abs: string, depth = 0): string {
  if (depth > MAX_LINKS) throw new WriteRefused(`refusing to write through ${abs}: symbolic link loop`);
  const missing: string[] = [];
  let p = abs;
  for (;;) {
    try {
      lstatSync(p);
      break;
    } catch (err) {
      if (errCode(err) !== 'ENOENT' && errCode(err) !== 'ENOTDIR') throw err;
      const up = dirname(p);
      if (up === p) break;
      missing.unshift(basename(p));
      p = up;
    }
  }
  let real: string;
  try {
    real = realpathSync(p);
  } catch (err) {
    // A dangling link: where it would lead once its target is created.
    const link = linkTarget(p);
    if (link === undefined) throw err;
    real = realTarget(resolve(dirname(p), link), depth + 1);
  }
  return join(real, ...missing);
}

/** The first symbolic link on the way from `root` to `abs` that leads out of `realRoot`, and where it points. */
function leavingLink(root: string, realRoot: string, abs: string): { link: string; target: string } | undefined {
  let p = root;
  for (const part of relative(root, abs).split(sep)) {
    p = join(p, part);
    const target = linkTarget(p);
    if (target === undefined) continue;
    let leads: string | undefined;
    try {
      leads = realTarget(p);
    } catch {
      leads = undefined; // a loop: it leads nowhere inside either
    }
    if (leads === undefined || !inside(realRoot, leads)) return { link: p, target };
  }
  return undefined;
}

const inside = (root: string, p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

/** Whether `path` lies inside `root`, by their names only (no links followed). */
export const isInside = (root: string, path: string): boolean => inside(resolve(root), resolve(path));

/**
 * Where a write to `path` really lands, checked to lie inside `root` (both after symbolic links). Throws
 * WriteRefused naming the path and where its link points otherwise.
 */
export function resolveInside(root: string, path: string): string {
  const absRoot = resolve(root);
  // `path` is a path as any fs call reads it (relative to the working folder), not relative to `root`.
  const abs = resolve(path);
  const realRoot = realTarget(absRoot);
  const real = realTarget(abs);
  if (inside(realRoot, real)) return real;
  const via = inside(absRoot, abs) ? leavingLink(absRoot, realRoot, abs) : undefined;
  const how = via ? `${via.link} is a symbolic link to ${via.target}` : `it resolves to ${real}`;
  throw new WriteRefused(`refusing to write ${abs}: ${how}, outside ${absRoot}`);
}

/** Creates `dir` (and its parents) after checking it lies inside `root`; returns its real path. */
export function mkdirInside(root: string, dir: string): string {
  const real = resolveInside(root, dir);
  mkdirSync(real, { recursive: true });
  return real;
}

export interface WriteInsideOptions {
  /** fail with EEXIST rather than replace a file that is there */
  exclusive?: boolean;
}

/**
 * Writes `data` to `path`, which must lie inside `root` after symbolic links (a link inside the folder is written
 * through), via a temporary file beside it renamed into place: a reader never sees half a file, and nothing is
 * left behind on failure. Returns the real path written.
 */
export function writeFileInside(
  root: string,
  path: string,
  data: string | Uint8Array,
  opts: WriteInsideOptions = {},
): string {
  const real = resolveInside(root, path);
  mkdirSync(dirname(real), { recursive: true });
  const tmp = tempBeside(real);
  try {
    writeFileSync(tmp, data, { flag: 'wx' });
    if (opts.exclusive) {
      linkSync(tmp, real);
      unlinkSync(tmp);
    } else renameSync(tmp, real);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return real;
}

/** As writeFileInside, without blocking the event loop while a large file is written. */
export async function writeFileInsideAsync(root: string, path: string, data: string | Uint8Array): Promise<string> {
  const real = resolveInside(root, path);
  await mkdir(dirname(real), { recursive: true });
  const tmp = tempBeside(real);
  try {
    await writeFile(tmp, data, { flag: 'wx' });
    await rename(tmp, real);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return real;
}

// Beside the target (a rename never crosses file systems), hidden, unique, and created with O_EXCL below, so a
// link planted under its name is not followed.
const tempBeside = (real: string) =>
  join(dirname(real), `.${basename(real)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);

/**
 * A SQLite store at its default place, `<folder>/.personalab/<name>.db`, must stay inside `<folder>`; a store at a
 * path the user chose is theirs to place.
 */
export function checkDefaultStorePath(path: string): void {
  if (path === ':memory:' || path === '') return;
  const dir = dirname(resolve(path));
  if (basename(dir) === '.personalab') resolveInside(dirname(dir), path);
}
