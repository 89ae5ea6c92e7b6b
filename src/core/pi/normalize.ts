// Text normalisation for the detectors, with a map back to the original UTF-16 offsets.
import { PLACEHOLDER_RE } from './placeholders';

export interface Normalized {
  /** The text the detectors see. */
  text: string;
  /** `text` with ASCII letters lower-cased (same length). */
  lower: string;
  /** For each index of `text` (and one past its end), the index in the original text; null when they are equal. */
  map: Int32Array | null;
}

/** What a placeholder becomes: not a digit, letter, space or separator, so nothing can match in or across it. */
export const FILL = '\uFFFC';

// Zero-width characters and emoji variation selectors (V❤️); an em dash only counts between digits.
const DROPPED_OR_CONTEXTUAL = /[\u00AD\u200B-\u200D\u2060\uFEFF\uFE0E\uFE0F\u2014]/;
const ZERO_WIDTH = /[\u00AD\u200B-\u200D\u2060\uFEFF\uFE0E\uFE0F]/;
const SAME_LENGTH = /[\uFF01-\uFF5E\u3000\u00A0\u2002-\u200A\u202F\u2010-\u2013\u2212\uFE63\uFFE5]/;
const UTF16 = new TextDecoder('utf-16le');

function mapChar(c: number): number {
  if (c >= 0xff01 && c <= 0xff5e) return c - 0xfee0; // full-width ASCII: digits, letters, @ . - : ( )
  if (c === 0x3000 || c === 0x00a0 || (c >= 0x2002 && c <= 0x200a) || c === 0x202f) return 0x20;
  if (c === 0x2010 || c === 0x2011 || c === 0x2012 || c === 0x2013 || c === 0x2212 || c === 0xfe63) return 0x2d;
  if (c === 0xffe5) return 0xa5; // full-width yen sign
  return c;
}

/** Maps every character (Chinese text is full of full-width punctuation, so this beats a replace callback). */
function mapAll(s: string): string {
  const units = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) units[i] = mapChar(s.charCodeAt(i));
  return UTF16.decode(units);
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return (c >= 0x30 && c <= 0x39) || (c >= 0xff10 && c <= 0xff19);
}

/**
 * Full-width forms become ASCII, odd spaces a plain space, dash variants '-', zero-width characters vanish and every
 * placeholder is overwritten with FILL. Offsets map back through `map`.
 */
export function normalize(original: string): Normalized {
  const blanked = original.includes('<') ? original.replace(PLACEHOLDER_RE, (m) => FILL.repeat(m.length)) : original;
  if (!DROPPED_OR_CONTEXTUAL.test(blanked)) {
    const text = SAME_LENGTH.test(blanked) ? mapAll(blanked) : blanked;
    return { text, lower: asciiLower(text), map: null };
  }
  const parts: string[] = [];
  const map = new Int32Array(blanked.length + 1);
  let n = 0;
  for (let i = 0; i < blanked.length; i++) {
    const ch = blanked[i];
    if (ZERO_WIDTH.test(ch)) continue;
    const c = blanked.charCodeAt(i);
    // An em dash between digits (0755—86013388) is a separator; elsewhere it is punctuation.
    const dash = c === 0x2014 && isDigitAt(blanked, i - 1) && isDigitAt(blanked, i + 1);
    parts.push(dash ? '-' : String.fromCharCode(mapChar(c)));
    map[n++] = i;
  }
  map[n] = blanked.length;
  const text = parts.join('');
  return { text, lower: asciiLower(text), map: map.subarray(0, n + 1) };
}

/** Lower-cased with offsets kept: toLowerCase changes the length of a few characters (U+0130); then ASCII only. */
function asciiLower(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** A span of the normalised text as a span of the original. */
export function toOriginal(n: Normalized, start: number, end: number): { start: number; end: number } {
  if (!n.map) return { start, end };
  const s = n.map[start];
  const e = end > start ? n.map[end - 1] + 1 : s;
  return { start: s, end: e };
}
