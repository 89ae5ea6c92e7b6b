// Where a finding sits in its raw JSONL line: the audit gives offsets into the decoded string at a JSON path
// (`prediction_tasks[1].posts_text`); the editor needs columns of the raw line, where `\n`, `\"` and `\uXXXX`
// take several characters. Pure (no `vscode`), so it is unit-tested.
import { isRecord } from '../../core/guards';

export type PathSegment = string | number;

/** `prediction_tasks[1].meta.T_keep[0]` → ['prediction_tasks', 1, 'meta', 'T_keep', 0]; undefined when malformed. */
export function parseFieldPath(field: string): PathSegment[] | undefined {
  const out: PathSegment[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|(\.)/gy;
  let expectName = true;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < field.length && (m = re.exec(field))) {
    pos = re.lastIndex;
    if (m[1] !== undefined) {
      if (!expectName) return undefined;
      out.push(m[1]);
      expectName = false;
    } else if (m[2] !== undefined) {
      if (expectName) return undefined;
      out.push(Number(m[2]));
    } else {
      if (expectName) return undefined;
      expectName = true;
    }
  }
  return pos === field.length && !expectName && out.length ? out : undefined;
}

class Scanner {
  constructor(
    readonly s: string,
    public i = 0,
  ) {}

  ws(): void {
    while (this.i < this.s.length && ' \t\r\n'.includes(this.s[this.i] as string)) this.i++;
  }

  /** Skips a string starting at its opening quote; returns its decoded value. */
  string(): string {
    if (this.s[this.i] !== '"') throw new Error('expected a string');
    const end = decodeString(this.s, this.i, Infinity, Infinity);
    this.i = end.close + 1;
    return end.text;
  }

  /** Skips any value. */
  value(): void {
    this.ws();
    const c = this.s[this.i];
    if (c === '"') this.string();
    else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      this.i++;
      this.ws();
      if (this.s[this.i] === close) {
        this.i++;
        return;
      }
      for (;;) {
        if (c === '{') {
          this.ws();
          this.string();
          this.ws();
          if (this.s[this.i++] !== ':') throw new Error('expected ":"');
        }
        this.value();
        this.ws();
        const sep = this.s[this.i++];
        if (sep === close) return;
        if (sep !== ',') throw new Error('expected "," or a closing bracket');
      }
    } else {
      // Numbers, true/false/null, and Python's bare NaN / Infinity / -Infinity.
      const start = this.i;
      while (this.i < this.s.length && !',]} \t\r\n'.includes(this.s[this.i] as string)) this.i++;
      if (this.i === start) throw new Error('expected a value');
    }
  }

  /** Position of the value under `key` (the last one, as JSON.parse keeps) of the object at the cursor. */
  member(key: string): number | undefined {
    this.ws();
    if (this.s[this.i] !== '{') return undefined;
    this.i++;
    let found: number | undefined;
    this.ws();
    if (this.s[this.i] === '}') return undefined;
    for (;;) {
      this.ws();
      const k = this.string();
      this.ws();
      if (this.s[this.i++] !== ':') throw new Error('expected ":"');
      this.ws();
      if (k === key) found = this.i;
      this.value();
      this.ws();
      const sep = this.s[this.i++];
      if (sep === '}') return found;
      if (sep !== ',') throw new Error('expected ","');
    }
  }

  /** Position of element `index` of the array at the cursor. */
  element(index: number): number | undefined {
    this.ws();
    if (this.s[this.i] !== '[') return undefined;
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return undefined;
    for (let n = 0; ; n++) {
      this.ws();
      if (n === index) return this.i;
      this.value();
      this.ws();
      const sep = this.s[this.i++];
      if (sep !== ',') return undefined;
    }
  }
}

interface Decoded {
  /** Index of the closing quote. */
  close: number;
  text: string;
  /** Raw indexes of the decoded offsets asked for (undefined when past the end). */
  rawStart: number | undefined;
  rawEnd: number | undefined;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Decodes the JSON string whose opening quote is at `open`, noting the raw index of two decoded offsets. */
function decodeString(s: string, open: number, start: number, end: number): Decoded {
  let out = '';
  let rawStart: number | undefined;
  let rawEnd: number | undefined;
  let i = open + 1;
  for (;;) {
    if (out.length === start) rawStart = i;
    if (out.length === end) rawEnd = i;
    if (i >= s.length) throw new Error('unterminated string');
    const c = s[i] as string;
    if (c === '"') return { close: i, text: out, rawStart, rawEnd };
    if (c === '\\') {
      const e = s[i + 1] as string;
      if (e === 'u') {
        const hex = s.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Error('bad \\u escape');
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (e in SIMPLE_ESCAPES) {
        out += SIMPLE_ESCAPES[e];
        i += 2;
      } else throw new Error('bad escape');
    } else {
      out += c;
      i++;
    }
  }
}

export interface LocatedSpan {
  /** Columns (UTF-16 code units) of the raw line: the span's first character and the one after its last. */
  start: number;
  end: number;
  /** The decoded text between them, to compare with the finding (the file may have changed since the audit). */
  text: string;
}

/**
 * The raw columns of decoded offsets [start, end) of the string at `field` in one JSONL line, or undefined when
 * the path does not lead to a string that long (or the line is not JSON).
 */
export function locateSpan(line: string, field: string, start: number, end: number): LocatedSpan | undefined {
  const path = parseFieldPath(field);
  if (!path || start < 0 || end < start) return undefined;
  try {
    const sc = new Scanner(line);
    let at: number | undefined = 0;
    for (const seg of path) {
      sc.i = at;
      at = typeof seg === 'number' ? sc.element(seg) : sc.member(seg);
      if (at === undefined) return undefined;
    }
    sc.i = at;
    sc.ws();
    if (line[sc.i] !== '"') return undefined;
    const d = decodeString(line, sc.i, start, end);
    if (d.rawStart === undefined || d.rawEnd === undefined) return undefined;
    return { start: d.rawStart, end: d.rawEnd, text: d.text.slice(start, end) };
  } catch {
    return undefined;
  }
}

/** The value at a parsed field path inside a parsed JSON value (undefined when the path does not exist). */
export function valueAt(root: unknown, field: string): unknown {
  const path = parseFieldPath(field);
  if (!path) return undefined;
  let at: unknown = root;
  for (const seg of path) {
    if (typeof seg === 'number') at = Array.isArray(at) ? at[seg] : undefined;
    else at = isRecord(at) && Object.hasOwn(at, seg) ? at[seg] : undefined;
    if (at === undefined) return undefined;
  }
  return at;
}
