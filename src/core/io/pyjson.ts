// Python's json module, as the reference runner uses it: dumps(ensure_ascii=False) and loads.
// Handled: ", "/": " separators; NaN/Infinity/-Infinity as bare tokens; float repr (shortest round-trip digits,
// exponent form below 1e-4 and from 1e16, two-digit exponents, "1.0" for integral floats); exact integers beyond
// 2^53 digits; Python's string escaping (only `"`, `\` and U+0000-U+001F, lowercase \u00xx).
// Not handled: Python ints above 2^53 (JS numbers cannot hold them), lone surrogates (written as \udxxx escapes,
// where Python would fail to encode the file), and JS's ordering of integer-like object keys (pass a Map instead).

/** Marks a number as a Python float, so that an integral value is written `1.0`, not `1`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

export interface DumpOptions {
  /** Numbers directly under these object keys (at any depth, also inside arrays there) are floats. */
  floatKeys?: ReadonlySet<string>;
}

/** Python's float.__repr__ for any JS number. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() without digits gives the shortest round-trip digits, as Python's repr does.
  const [mant, expText] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  const sign = x < 0 ? '-' : '';
  const decpt = exp + 1; // position of the decimal point relative to the digit string
  if (decpt > -4 && decpt <= 16) {
    let fixed: string;
    if (decpt <= 0) fixed = '0.' + '0'.repeat(-decpt) + digits;
    else if (decpt >= digits.length) fixed = digits + '0'.repeat(decpt - digits.length) + '.0';
    else fixed = digits.slice(0, decpt) + '.' + digits.slice(decpt);
    return sign + fixed;
  }
  const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
  const e = Math.abs(exp);
  return `${sign}${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
}

/** Python's str(int) for an integral JS number (exact digits even above 2^53). */
function pyIntRepr(x: number): string {
  if (Object.is(x, -0)) return '0';
  return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
}

export function pyJsonString(s: string): string {
  // JSON.stringify escapes exactly what json.dumps(ensure_ascii=False) escapes: '"', '\\', the C0 controls (\b \f
  // \n \r \t by name, the rest as lowercase \u00xx) and lone surrogates (as \udxxx); pairs and U+2028 are kept.
  // The test against python3 checks it. (A loop by hand here was a fifth of a run's time outside its requests.)
  return JSON.stringify(s);
}

/**
 * `json.dumps(value, ensure_ascii=False)`. Integral numbers are ints unless wrapped in PyFloat or under a
 * float key; non-integral numbers, NaN and ±Infinity are floats. Never throws: undefined, functions and
 * symbols become null in arrays and are left out of objects (as JSON.stringify does), cycles become null.
 */
export function pyJsonDumps(value: unknown, opts: DumpOptions = {}): string {
  const floatKeys = opts.floatKeys ?? new Set<string>();
  const stack = new Set<object>();

  const dump = (v: unknown, asFloat: boolean): string | undefined => {
    if (v === null) return 'null';
    if (v instanceof PyFloat) return pyFloatRepr(v.value);
    switch (typeof v) {
      case 'string':
        return pyJsonString(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'bigint':
        return v.toString();
      case 'number':
        return asFloat || !Number.isInteger(v) ? pyFloatRepr(v) : pyIntRepr(v);
      case 'object':
        break;
      default:
        return undefined;
    }
    const obj = v as object;
    if (stack.has(obj)) return 'null';
    stack.add(obj);
    try {
      if (Array.isArray(obj)) {
        return '[' + obj.map((item) => dump(item, asFloat) ?? 'null').join(', ') + ']';
      }
      const entries = obj instanceof Map ? [...obj.entries()] : Object.entries(obj);
      const parts: string[] = [];
      for (const [key, item] of entries) {
        const k = String(key);
        const text = dump(item, floatKeys.has(k));
        if (text !== undefined) parts.push(pyJsonString(k) + ': ' + text);
      }
      return '{' + parts.join(', ') + '}';
    } finally {
      stack.delete(obj);
    }
  };
  return dump(value, false) ?? 'null';
}

export type PyJsonResult = { ok: true; value: unknown } | { ok: false; error: string; pos: number };

/**
 * `json.loads(text)`: standard JSON plus the bare tokens NaN, Infinity and -Infinity, which JSON.parse rejects.
 * Error messages follow Python's wording; `pos` is Python's char index (code points). Never throws.
 */
export function pyJsonLoads(text: string): PyJsonResult {
  const s = String(text);
  let i = 0;
  class Fail {
    constructor(
      readonly msg: string,
      readonly at: number,
    ) {}
  }
  const fail = (msg: string, at: number): never => {
    throw new Fail(msg, at);
  };
  const ws = (): void => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
  const ESC: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

  const hex4 = (at: number): number => {
    const h = s.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('Invalid \\uXXXX escape', at - 1);
    return parseInt(h, 16);
  };

  const str = (): string => {
    const start = i - 1; // the opening quote
    let out = '';
    for (;;) {
      if (i >= s.length) fail('Unterminated string starting at', start);
      const ch = s[i];
      if (ch === '"') {
        i++;
        return out;
      }
      if (ch === '\\') {
        const e = s[i + 1];
        if (e === undefined) fail('Unterminated string starting at', start);
        if (e === 'u') {
          let code = hex4(i + 2);
          i += 6;
          if (code >= 0xd800 && code <= 0xdbff && s[i] === '\\' && s[i + 1] === 'u') {
            const low = hex4(i + 2);
            if (low >= 0xdc00 && low <= 0xdfff) {
              code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
              i += 6;
            }
          }
          out += String.fromCodePoint(code);
          continue;
        }
        if (!Object.hasOwn(ESC, e)) fail('Invalid \\escape', i);
        out += ESC[e];
        i += 2;
        continue;
      }
      if (ch.charCodeAt(0) < 0x20) fail('Invalid control character at', i);
      out += ch;
      i++;
    }
  };

  const value = (): unknown => {
    const ch = s[i];
    if (ch === '"') {
      i++;
      return str();
    }
    if (ch === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (s[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        if (s[i] !== '"') fail('Expecting property name enclosed in double quotes', i);
        i++;
        const key = str();
        ws();
        if (s[i] !== ':') fail("Expecting ':' delimiter", i);
        i++;
        ws();
        Object.defineProperty(obj, key, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (s[i] === '}') {
          i++;
          return obj;
        }
        if (s[i] !== ',') fail("Expecting ',' delimiter", i);
        i++;
        ws();
      }
    }
    if (ch === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (s[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        ws();
        arr.push(value());
        ws();
        if (s[i] === ']') {
          i++;
          return arr;
        }
        if (s[i] !== ',') fail("Expecting ',' delimiter", i);
        i++;
      }
    }
    for (const [token, v] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
    ] as const) {
      if (s.startsWith(token, i)) {
        i += token.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    return fail('Expecting value', i);
  };

  try {
    if (s.startsWith('\ufeff')) fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    ws();
    const v = value();
    ws();
    if (i !== s.length) fail('Extra data', i);
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof Fail) {
      const pos = [...s.slice(0, e.at)].length;
      const before = s.slice(0, e.at);
      const line = before.split('\n').length;
      const col = pos - [...before.slice(0, before.lastIndexOf('\n') + 1)].length + 1;
      return { ok: false, error: `${e.msg}: line ${line} column ${col} (char ${pos})`, pos };
    }
    // Only a stack overflow on absurdly deep nesting lands here (Python raises RecursionError there).
    return { ok: false, error: e instanceof Error ? e.message : String(e), pos: 0 };
  }
}
