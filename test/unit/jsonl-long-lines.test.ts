// readLines on lines that span many 512 KiB chunks: the same lines, offsets and texts as a plain split, and the
// bytes it copies grow with the file, not with the square of a line's length.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLines, type RawLine } from '../../src/core/io/jsonl';

const CHUNK = 1 << 19;
const dirs: string[] = [];

function file(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'pl-longline-'));
  dirs.push(dir);
  const path = join(dir, 'long.jsonl');
  writeFileSync(path, bytes);
  return path;
}

afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function read(path: string): Promise<{ lines: RawLine[]; count: number }> {
  const lines: RawLine[] = [];
  const count = await readLines(path, (l) => lines.push(l));
  return { lines, count };
}

/** A JSON line of about `bytes` bytes of three-byte characters, so chunk boundaries fall inside characters. */
function longJson(bytes: number, tag: string): string {
  return JSON.stringify({ tag, text: '微博'.repeat(Math.ceil(bytes / 6)) });
}

describe('readLines on lines longer than many chunks', () => {
  it('reads every line whole, with its line number, offset and length, through BOM, CRLF and an unterminated end', async () => {
    const long1 = longJson(6 * CHUNK + 123, 'a');
    const long2 = longJson(3 * CHUNK + 7, 'b');
    const long3 = longJson(5 * CHUNK, 'c');
    const pieces: Buffer[] = [
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`${long1}\r\n`),
      Buffer.from('{"short":1}\n\n'),
      Buffer.from(`${long2}\n`),
      // Invalid UTF-8 in the middle of a long line: the line is reported with null text, the others are unaffected.
      Buffer.concat([Buffer.from(long2.slice(0, 2 * CHUNK)), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]),
      Buffer.from(long3),
    ];
    const bytes = Buffer.concat(pieces);
    const { lines, count } = await read(file(bytes));

    expect(count).toBe(6);
    expect(lines.map((l) => l.line)).toEqual([1, 2, 4, 5, 6]);
    expect(lines.map((l) => l.text?.length ?? null)).toEqual([long1.length, 11, long2.length, null, long3.length]);
    expect(lines[0].text).toBe(long1);
    expect(lines[2].text).toBe(long2);
    expect(lines[4].text).toBe(long3);
    // Offsets and lengths are bytes of the file: slicing the file with them gives each line back.
    for (const l of lines) {
      const slice = bytes.subarray(l.offset, l.offset + l.length);
      if (l.text !== null) expect(slice.toString('utf8')).toBe(l.text);
      else expect(slice.includes(Buffer.from([0xc3, 0x28]))).toBe(true);
    }
    expect(lines[0].offset).toBe(3);
  });

  it('keeps a line that ends exactly on a chunk boundary apart from the next one', async () => {
    const first = 'x'.repeat(2 * CHUNK - 1);
    const { lines } = await read(file(Buffer.from(`${first}\n{"n":2}\n`)));
    expect(lines.map((l) => [l.line, l.offset, l.length])).toEqual([
      [1, 0, 2 * CHUNK - 1],
      [2, 2 * CHUNK, 7],
    ]);
  });

  it('copies a long line a bounded number of times, not once per chunk it spans', async () => {
    const line = longJson(24 * CHUNK, 'copies');
    const path = file(Buffer.from(`${line}\n{"after":true}\n`));
    let copied = 0;
    const concat = Buffer.concat.bind(Buffer);
    vi.spyOn(Buffer, 'concat').mockImplementation((list: readonly Uint8Array[], total?: number) => {
      const out = concat(list, total);
      copied += out.length;
      return out;
    });
    let scanned = 0;
    const lastIndexOf = Buffer.prototype.lastIndexOf;
    Buffer.prototype.lastIndexOf = function (this: Buffer, value: number, byteOffset?: number) {
      scanned += this.length;
      return lastIndexOf.call(this, value, byteOffset);
    } as Buffer['lastIndexOf'];
    let lines: RawLine[];
    try {
      ({ lines } = await read(path));
    } finally {
      Buffer.prototype.lastIndexOf = lastIndexOf;
    }
    expect(lines.map((l) => l.text?.length)).toEqual([line.length, 14]);
    const size = Buffer.byteLength(line) + 16;
    expect(copied).toBeLessThanOrEqual(2 * size);
    expect(scanned).toBeLessThanOrEqual(2 * size);
  });
});
