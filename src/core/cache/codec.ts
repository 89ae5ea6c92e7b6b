// A compact, versioned, checksummed container for data derived from a benchmark's files: a JSON header, a table of
// distinct strings and one stream of numbers. Anything that does not check out (magic, version, length, checksum,
// header) decodes to null and is rebuilt by the caller: a cache is never trusted.
import { zlib } from '../io/builtins';

const MAGIC = 0x58494c50; // "PLIX"
/** Bumped whenever the layout or what any encoder writes changes: an older file is then ignored and rebuilt. */
export const CODEC_VERSION = 3;
const FIXED = 36;
const LONE_SURROGATE = /\p{Cs}/u;

/** zlib.crc32 (Node 20.15 / 22.2 and later), undefined where the host has none; node:zlib is loaded on first use. */
const crc32 = () => (zlib() as { crc32?: (data: Uint8Array) => number }).crc32;

/** Whether this host can write and check caches (zlib.crc32: Node 20.15 / 22.2 and later). */
export const cacheSupported = (): boolean => typeof crc32() === 'function';

class Growable<T extends Int32Array | Float64Array> {
  n = 0;
  constructor(
    public data: T,
    private readonly make: (size: number) => T,
  ) {}
  push(x: number): void {
    if (this.n === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.n++] = x;
  }
  bytes(): Uint8Array {
    return new Uint8Array(this.data.buffer, 0, this.n * this.data.BYTES_PER_ELEMENT);
  }
}

export class Encoder {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly ints = new Growable(new Int32Array(4096), (n) => new Int32Array(n));
  private readonly floats = new Growable(new Float64Array(256), (n) => new Float64Array(n));
  /** False once a string was seen that UTF-8 cannot carry (a lone surrogate): such a cache is not written. */
  ok = true;

  /** An integer in the 32-bit range (counts, ids, line numbers); anything else is written with float(). */
  int(x: number): void {
    if ((x | 0) !== x) this.ok = false;
    this.ints.push(x);
  }

  float(x: number): void {
    this.floats.push(x);
  }

  str(s: string): void {
    this.int(this.id(s));
  }

  /** The string's index in the table (added when new), for a caller that writes it in a code of its own. */
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) this.ids.set(s, (id = this.add(s)));
    return id;
  }

  strList(list: readonly string[]): void {
    this.int(list.length);
    for (const s of list) this.str(s);
  }

  private add(s: string): number {
    if (this.ok && LONE_SURROGATE.test(s)) this.ok = false;
    this.strings.push(s);
    return this.strings.length - 1;
  }

  /** The file's bytes; null when the content cannot be cached faithfully or this host cannot checksum it. */
  finish(header: unknown): Buffer | null {
    const sum = crc32();
    if (!this.ok || !sum) return null;
    const head = Buffer.from(JSON.stringify(header), 'utf8');
    const lengths = new Uint32Array(this.strings.map((s) => s.length));
    const blob = Buffer.from(this.strings.join(''), 'utf8');
    const at = layout(head.length, lengths.length, blob.length, this.ints.n, this.floats.n);
    const out = Buffer.alloc(at.end);
    const fields = [
      MAGIC,
      CODEC_VERSION,
      0,
      at.end,
      head.length,
      lengths.length,
      blob.length,
      this.ints.n,
      this.floats.n,
    ];
    fields.forEach((v, i) => out.writeUInt32LE(v, i * 4));
    head.copy(out, FIXED);
    out.set(new Uint8Array(lengths.buffer), at.lengths);
    blob.copy(out, at.blob);
    out.set(this.ints.bytes(), at.ints);
    out.set(this.floats.bytes(), at.floats);
    out.writeUInt32LE(sum(out.subarray(12)) >>> 0, 8);
    return out;
  }
}

function layout(headLen: number, count: number, blobLen: number, ni: number, nf: number) {
  const pad = (x: number, to: number) => Math.ceil(x / to) * to;
  const lengths = pad(FIXED + headLen, 4);
  const blob = lengths + count * 4;
  const ints = pad(blob + blobLen, 4);
  const floats = pad(ints + ni * 4, 8);
  return { lengths, blob, ints, floats, end: floats + nf * 8 };
}

export class Decoder {
  private i = 0;
  private f = 0;
  constructor(
    private readonly strs: readonly string[],
    private readonly ints: Int32Array,
    private readonly floats: Float64Array,
  ) {}
  int(): number {
    if (this.i >= this.ints.length) throw new RangeError('cache: read past the end of its integers');
    return this.ints[this.i++];
  }
  /** A non-negative integer: a count, an index, a line number. */
  count(): number {
    const x = this.int();
    if (x < 0) throw new RangeError(`cache: expected a count, got ${x}`);
    return x;
  }
  float(): number {
    if (this.f >= this.floats.length) throw new RangeError('cache: read past the end of its floats');
    return this.floats[this.f++];
  }
  str(): string {
    return this.strAt(this.count());
  }
  strAt(id: number): string {
    const s = this.strs[id];
    if (s === undefined) throw new RangeError('cache: string index out of range');
    return s;
  }
  strList(map?: (s: string) => string): string[] {
    const n = this.count();
    const out = new Array<string>(n);
    for (let k = 0; k < n; k++) out[k] = map ? map(this.str()) : this.str();
    return out;
  }
  /** The strings of the table, for a caller that maps them once (tags to ids). */
  get table(): readonly string[] {
    return this.strs;
  }
  /** The next `n` integers as a view (no copy), for tables read as a block. */
  block(n: number): Int32Array {
    if (this.i + n > this.ints.length) throw new RangeError('cache: read past the end of its integers');
    this.i += n;
    return this.ints.subarray(this.i - n, this.i);
  }
  /** Whether everything was read: a cache whose reader stops short was written by some other encoder. */
  get done(): boolean {
    return this.i === this.ints.length && this.f === this.floats.length;
  }
}

/** The byte length of the container at the start of `buf` (which may hold more after it); 0 when not one. */
export function containerLength(buf: Buffer): number {
  return buf.length >= FIXED && buf.readUInt32LE(0) === MAGIC ? buf.readUInt32LE(12) : 0;
}

/** Whether the bytes are one whole container of this version whose checksum holds. */
export function verify(buf: Buffer): boolean {
  if (buf.length < FIXED || buf.readUInt32LE(0) !== MAGIC || buf.readUInt32LE(4) !== CODEC_VERSION) return false;
  const sum = crc32();
  if (buf.readUInt32LE(12) !== buf.length || !sum) return false;
  return sum(buf.subarray(12)) >>> 0 === buf.readUInt32LE(8);
}

/** The header and a decoder over the body; null when the bytes are not an intact cache of this version. */
export function decode(buf: Buffer): { header: unknown; body: Decoder } | null {
  if (!verify(buf)) return null;
  const [headLen, count, blobLen, ni, nf] = [16, 20, 24, 28, 32].map((o) => buf.readUInt32LE(o));
  const at = layout(headLen, count, blobLen, ni, nf);
  if (at.end !== buf.length) return null;
  let header: unknown;
  try {
    header = JSON.parse(buf.toString('utf8', FIXED, FIXED + headLen));
  } catch {
    return null;
  }
  const lengths = new Uint32Array(count);
  new Uint8Array(lengths.buffer).set(buf.subarray(at.lengths, at.lengths + count * 4));
  const blob = buf.toString('utf8', at.blob, at.blob + blobLen);
  const strs = new Array<string>(count);
  let pos = 0;
  for (let k = 0; k < count; k++) {
    strs[k] = blob.slice(pos, pos + lengths[k]);
    pos += lengths[k];
  }
  if (pos !== blob.length) return null;
  const ints = new Int32Array(ni);
  new Uint8Array(ints.buffer).set(buf.subarray(at.ints, at.ints + ni * 4));
  const floats = new Float64Array(nf);
  new Uint8Array(floats.buffer).set(buf.subarray(at.floats, at.floats + nf * 8));
  return { header, body: new Decoder(strs, ints, floats) };
}
