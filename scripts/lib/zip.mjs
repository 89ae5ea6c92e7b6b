// Reads zip archives (a .vsix is one) with node:zlib alone: the entry list from the central directory, and the
// entries themselves. Used by scripts/package.mjs to check what went in and by the ABI test to unpack the .vsix.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/**
 * The entries of a zip archive, from its central directory: name, compression method, sizes and the offset of the
 * local header. Throws on a buffer that is not a zip file.
 * @param {Buffer} buf
 * @returns {{ name: string, method: number, compressedSize: number, offset: number }[]}
 */
export function zipEntries(buf) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt central directory');
    const nameLen = buf.readUInt16LE(p + 28),
      extraLen = buf.readUInt16LE(p + 30),
      commentLen = buf.readUInt16LE(p + 32);
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      offset: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * Writes every file entry of the archive under `dest` (stored and deflated entries; names that would leave `dest`
 * are refused). Returns the names written.
 * @param {Buffer} buf
 * @param {string} dest
 * @returns {string[]}
 */
export function extractZip(buf, dest) {
  const written = [];
  for (const e of zipEntries(buf)) {
    if (e.name.endsWith('/')) continue;
    const rel = normalize(e.name);
    if (rel.startsWith('..') || rel.startsWith('/')) throw new Error(`zip entry outside the target: ${e.name}`);
    if (buf.readUInt32LE(e.offset) !== 0x04034b50) throw new Error(`corrupt local header: ${e.name}`);
    const start = e.offset + 30 + buf.readUInt16LE(e.offset + 26) + buf.readUInt16LE(e.offset + 28);
    const raw = buf.subarray(start, start + e.compressedSize);
    if (e.method !== 0 && e.method !== 8) throw new Error(`unsupported compression ${e.method}: ${e.name}`);
    const data = e.method === 8 ? inflateRawSync(raw) : raw;
    const out = join(dest, rel);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, data);
    written.push(e.name);
  }
  return written;
}
