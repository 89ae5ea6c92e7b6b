// The extension's log channel as the tests read it. A LogOutputChannel is written by the extension host to
//   <user-data-dir>/logs/<session>/exthost<N>/<publisher>.<name>/<channel>.log
// (the same on code-server 4.103.2 and 4.139.1); a window reload starts another exthost<N> folder, so every such file
// counts, oldest first. The files are tailed: each read takes what was appended since the last one.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A line of the file starts an entry; a message's further lines (no timestamp) belong to it. */
const ENTRY_START = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \[/;

interface Tail {
  offset: number;
  entries: string[];
}

/** `publisher.name` of the extension under test, from the repository's package.json. */
export function extensionId(repoRoot: string): string {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { publisher: string; name: string };
  return `${pkg.publisher}.${pkg.name}`;
}

export class LogChannelTail {
  private readonly tails = new Map<string, Tail>();
  private readonly skipped = new Set<string>();

  constructor(
    private readonly logsDir: string,
    private readonly extensionId: string,
    readonly channel: string,
  ) {}

  /** Every entry written so far ("<date> <time> [info] <message>", continuation lines joined with \n), in order. */
  lines(): string[] {
    const out: string[] = [];
    for (const file of this.files()) {
      let tail = this.tails.get(file);
      if (!tail) this.tails.set(file, (tail = { offset: 0, entries: [] }));
      readNew(file, tail);
      out.push(...tail.entries);
    }
    return out;
  }

  /**
   * Leaves out the files written so far: those of the extension hosts of a shared code-server's earlier windows
   * (every window has its own exthost<N> folder).
   */
  skipExisting(): void {
    for (const file of this.files()) this.skipped.add(file);
  }

  /** The channel's files, oldest session and extension host first. */
  private files(): string[] {
    if (!existsSync(this.logsDir)) return [];
    const found: { file: string; session: string; host: number }[] = [];
    for (const session of readdirSync(this.logsDir)) {
      const sessionDir = join(this.logsDir, session);
      if (!statSync(sessionDir).isDirectory()) continue;
      for (const host of readdirSync(sessionDir)) {
        const m = /^exthost(\d+)$/.exec(host);
        const file = join(sessionDir, host, this.extensionId, `${this.channel}.log`);
        if (m && existsSync(file) && !this.skipped.has(file)) found.push({ file, session, host: Number(m[1]) });
      }
    }
    found.sort((a, b) => a.session.localeCompare(b.session) || a.host - b.host);
    return found.map((f) => f.file);
  }
}

/** Appends the complete lines written to `file` since `tail.offset` to `tail.entries`. */
function readNew(file: string, tail: Tail): void {
  const size = statSync(file).size;
  if (size <= tail.offset) return;
  const buf = Buffer.alloc(size - tail.offset);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, tail.offset);
  } finally {
    closeSync(fd);
  }
  const end = buf.lastIndexOf(0x0a); // a line still being written waits for the next read
  if (end < 0) return;
  tail.offset += end + 1;
  for (const line of buf.subarray(0, end).toString('utf8').split('\n')) {
    if (ENTRY_START.test(line) || tail.entries.length === 0) tail.entries.push(line);
    else tail.entries[tail.entries.length - 1] += `\n${line}`;
  }
}
