// An append-only JSON-lines file that a killed process never leaves half-written for the next reader: a last line
// without its newline (torn by a crash) is cut off on open; each line is written at once and fsync'd in groups in
// the background, and at close (an fsync per line, on the event loop, was over half of a run's time against a fast
// endpoint). A power cut can lose the last moments' lines, which a resume then redoes. Used by the runs' journals.
import { closeSync, fstatSync, fsync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { pyJsonDumps, pyJsonLoads } from '../io/pyjson';

export class AppendLog {
  private fd: number | null;
  /** An fsync is running in the background; `dirty`: lines were written since it started. */
  private syncing = false;
  private dirty = false;
  /** close() came while an fsync was running: its callback closes the descriptor. */
  private closeAfterSync = false;

  private constructor(fd: number) {
    this.fd = fd;
  }

  /** Opens (creating) the file; returns it with the values of its complete lines (null: a line that is not JSON). */
  static open(path: string): { log: AppendLog; values: unknown[] } {
    // 'a+': every write goes to the end whatever the file position (reads use explicit positions).
    const fd = openSync(path, 'a+');
    try {
      const st = fstatSync(fd);
      // A FIFO or a device in its place would block or never end: only a regular file is a log.
      if (!st.isFile()) throw new Error(`${path}: not a regular file; not used as a log`);
      const size = st.size;
      const buf = Buffer.alloc(size);
      let read = 0;
      while (read < size) {
        const n = readSync(fd, buf, read, size - read, read);
        if (n <= 0) break;
        read += n;
      }
      const end = buf.lastIndexOf(0x0a, read - 1) + 1;
      if (end < size) {
        ftruncateSync(fd, end);
        fsyncSync(fd);
      }
      const values: unknown[] = [];
      for (const line of buf.subarray(0, end).toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        const parsed = pyJsonLoads(line);
        values.push(parsed.ok ? parsed.value : null);
      }
      return { log: new AppendLog(fd), values };
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /** Writes one value as a line; the fsync follows in the background. */
  append(value: unknown): void {
    if (this.fd === null) throw new Error('journal is closed');
    const line = Buffer.from(pyJsonDumps(value) + '\n', 'utf8');
    let off = 0;
    while (off < line.length) off += writeSync(this.fd, line, off, line.length - off);
    this.syncSoon(this.fd);
  }

  private syncSoon(fd: number): void {
    if (this.syncing) {
      this.dirty = true;
      return;
    }
    this.syncing = true;
    this.dirty = false;
    fsync(fd, () => {
      this.syncing = false;
      if (this.closeAfterSync) closeSync(fd);
      else if (this.dirty && this.fd === fd) this.syncSoon(fd);
    });
  }

  /** Flushes every line to disk, then closes. */
  close(): void {
    const fd = this.fd;
    if (fd === null) return;
    this.fd = null;
    fsyncSync(fd);
    if (this.syncing) this.closeAfterSync = true;
    else closeSync(fd);
  }
}
