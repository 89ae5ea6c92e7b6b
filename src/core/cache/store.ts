// Where index caches live and how a source file is recognised as unchanged (or only grown) since its cache was
// written. One cache file per source file, so that a changed file is re-read alone. Shared by the CLI and the
// extension: writes go to a temporary file renamed into place, so a reader never sees half a cache, and never
// leave the folder the caches belong to (a symlinked .personalab/ pointing elsewhere is refused).
import { accessSync, closeSync, constants, existsSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isRecord } from '../guards';
import { mkdirInside, openRegularOrThrow, readRegularFile, writeFileInside } from '../io/safeFs';
import { indexKey, seal, unseal } from './seal';
import { crypto } from '../io/builtins';

/** The folder, under a benchmark, that holds its caches (beside labels.db and the templates). */
export const INDEX_DIR = join('.personalab', 'index');
const SAMPLE = 1 << 16;

/** What a cache remembers of its source file. */
export interface SourceStamp {
  size: number;
  mtimeMs: number;
  /**
   * The inode's change time: any write moves it, and unlike mtime no tool sets it back, so an edit in the middle of
   * the file that keeps its size and restores its mtime (rsync -t, touch -r) is still seen.
   */
  ctimeMs: number;
  /** SHA-1 of the file's first and last 64 KiB (of its first `size` bytes). */
  fingerprint: string;
}

/** The stamp of a file as it is now, or of its first `size` bytes (to check that a grown file only grew). */
export function stampOf(abs: string, size?: number): SourceStamp {
  const st = statSync(abs);
  const upTo = size ?? st.size;
  return { size: upTo, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, fingerprint: fingerprint(abs, upTo) };
}

function fingerprint(abs: string, size: number): string {
  const hash = crypto().createHash('sha1');
  hash.update(String(size));
  const fd = openRegularOrThrow(abs).fd;
  try {
    const buf = Buffer.alloc(Math.min(SAMPLE, size));
    readSync(fd, buf, 0, buf.length, 0);
    hash.update(buf);
    if (size > SAMPLE) {
      readSync(fd, buf, 0, buf.length, size - buf.length);
      hash.update(buf);
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

export const isStamp = (x: unknown): x is SourceStamp =>
  isRecord(x) &&
  typeof x.size === 'number' &&
  typeof x.mtimeMs === 'number' &&
  typeof x.ctimeMs === 'number' &&
  typeof x.fingerprint === 'string';

export const sameStamp = (a: SourceStamp, b: SourceStamp): boolean =>
  a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.fingerprint === b.fingerprint;

/** The folder a benchmark's caches go in: its own `.personalab/index`, or `fallback` when that cannot be written. */
export function chooseCacheDir(root: string, fallback?: string): string | undefined {
  const own = join(root, INDEX_DIR);
  const probe = [own, dirname(own), root].find((p) => existsSync(p));
  try {
    if (probe) accessSync(probe, constants.W_OK);
    return own;
  } catch {
    if (!fallback) return undefined;
    return join(fallback, crypto().createHash('sha1').update(root).digest('hex').slice(0, 16));
  }
}

/** The cache files of one benchmark. Reads that fail or do not check out return null; writes are best effort. */
export class IndexCache {
  /** Why the last write failed, for the log; writes never throw. */
  lastWriteError: string | undefined;

  /**
   * `within`: the folder the caches belong to (the benchmark's, or the fallback storage); no write leaves it.
   * `log`: when given, each page read is added to it as `kind:rel`.
   */
  constructor(
    readonly dir: string,
    readonly within: string = dir,
    private readonly log?: string[],
  ) {}

  private pathOf(kind: string, rel: string): string {
    return join(this.dir, `${kind}-${crypto().createHash('sha1').update(rel).digest('hex').slice(0, 20)}.plx`);
  }

  /**
   * The cache file's bytes as this user's Persona Lab wrote them (seal.ts), otherwise unchecked (see codec.ts); null
   * when there is none, or it was written by someone else.
   */
  read(kind: string, rel: string): Buffer | null {
    this.log?.push(`${kind}:${rel}`);
    // A folder's first open: no index yet, and no page name or key to work out (which load node:crypto).
    if (!existsSync(this.dir)) return null;
    const path = this.pathOf(kind, rel);
    const key = indexKey();
    if (typeof key === 'string') return null;
    try {
      return existsSync(path) ? unseal(key, readRegularFile(path, this.within)) : null;
    } catch {
      return null;
    }
  }

  write(kind: string, rel: string, bytes: Buffer): void {
    const key = indexKey();
    if (typeof key === 'string') {
      this.lastWriteError = key;
      return;
    }
    try {
      if (!existsSync(this.dir)) {
        mkdirInside(this.within, this.dir);
        // Derived data, rebuilt at will: keep it out of version control wherever the folder lives.
        writeFileInside(this.within, join(this.dir, '.gitignore'), '*\n');
      }
      writeFileInside(this.within, this.pathOf(kind, rel), seal(key, bytes));
    } catch (err) {
      this.lastWriteError = (err as Error).message;
    }
  }
}
