// Seeded randomness

import crypto from 'node:crypto';

function digest(key) {
  return crypto.createHash('sha256').update(String(key)).digest();
}

export function hexOf(key, n) {
  return digest(key).toString('hex').slice(0, n);
}

/** Seed-independent string hash: shapes the vocabulary, which is the same for every seed. */
export function fnv(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  constructor(key) {
    const d = digest(key);
    this.s = [d.readUInt32LE(0), d.readUInt32LE(4), d.readUInt32LE(8), d.readUInt32LE(12)];
  }
  /** sfc32 */
  next() {
    let [a, b, c, d] = this.s;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    this.s = [a, b, c, d];
    return (t >>> 0) / 4294967296;
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  float(lo, hi) {
    return lo + this.next() * (hi - lo);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(arr) {
    return arr[Math.floor(this.next() * arr.length)];
  }
  weighted(items, weights) {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i];
      if (r < 0) return items[i];
    }
    return items[items.length - 1];
  }
  shuffle(arr) {
    const a = arr.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
  /** n distinct items, each draw proportional to weightOf among those left. */
  weightedSample(items, weightOf, n) {
    const left = items.slice();
    const w = left.map(weightOf);
    let total = w.reduce((a, b) => a + b, 0);
    const out = [];
    while (out.length < n && left.length > 0) {
      let r = this.next() * total;
      let i = 0;
      for (; i < left.length - 1; i++) {
        r -= w[i];
        if (r < 0) break;
      }
      out.push(left[i]);
      total -= w[i];
      left.splice(i, 1);
      w.splice(i, 1);
    }
    return out;
  }
}
