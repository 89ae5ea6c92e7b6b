// What the contexts index needs from one line of shared_contexts_<size>.jsonl, read from its bytes without building
// it: the one key (the shared_context_id), how many messages its list holds and which are system turns. A 1M-token
// context is megabytes of JSON; parsing it whole for three numbers would hold tens of thousands of objects at once.
export interface ScannedContext {
  id: string;
  messages: number;
  /** indices of the system messages */
  system: number[];
  /** the first message that is not { role: string, content: string }, or -1 */
  bad: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

class Fail extends Error {}

const KEYS = (['role', 'content'] as const).map((k) => [k, Buffer.from(JSON.stringify(k))] as const);
const ROLES = (['system', 'user', 'assistant'] as const).map((r) => [r, Buffer.from(JSON.stringify(r))] as const);

/** Scans `b` (one line, valid UTF-8) as `{ "<id>": [ { "role": …, "content": … }, … ] }`; a string says why not. */
export function scanContextLine(b: Buffer): ScannedContext | string {
  let i = 0;
  const fail = (what: string): never => {
    throw new Fail(
      i >= b.length ? `not JSON: unexpected end of the line (${what})` : `not JSON: ${what} at byte ${i + 1}`,
    );
  };
  const ws = () => {
    while (i < b.length && isSpace(b[i])) i++;
  };
  const expect = (c: number, what: string) => {
    ws();
    if (b[i] !== c) fail(`expected ${what}`);
    i++;
  };
  /** A string at i: its end (after the closing quote). */
  const skipString = (): number => {
    if (b[i] !== QUOTE) fail('expected a string');
    const start = ++i;
    // jump from quote to quote (native search); a quote after an odd run of backslashes is escaped
    for (;;) {
      const q = b.indexOf(QUOTE, i);
      if (q < 0) {
        i = b.length;
        fail('unterminated string');
      }
      let k = q - 1;
      while (k >= start && b[k] === BACKSLASH) k--;
      i = q + 1;
      if ((q - 1 - k) % 2 === 0) return i;
    }
  };
  const readString = (): string => {
    const start = i;
    skipString();
    return JSON.parse(b.toString('utf8', start, i)) as string;
  };
  /** A role string: the common ones compared as bytes, so that no string is made per message. */
  const readRole = (): string => {
    const start = i;
    const end = skipString();
    for (const [role, bytes] of ROLES)
      if (end - start === bytes.length && b.compare(bytes, 0, bytes.length, start, end) === 0) return role;
    return JSON.parse(b.toString('utf8', start, end)) as string;
  };
  const readKey = (): string => {
    const start = i;
    const end = skipString();
    for (const [key, bytes] of KEYS)
      if (end - start === bytes.length && b.compare(bytes, 0, bytes.length, start, end) === 0) return key;
    return JSON.parse(b.toString('utf8', start, end)) as string;
  };
  /** Any JSON value at i; returns its kind. */
  const skipValue = (): 'string' | 'object' | 'array' | 'other' => {
    ws();
    const c = b[i];
    if (c === QUOTE) {
      skipString();
      return 'string';
    }
    if (c === 0x7b || c === 0x5b) {
      const kind = c === 0x7b ? 'object' : 'array';
      let depth = 0;
      do {
        if (b[i] === QUOTE) {
          skipString();
          continue;
        }
        if (b[i] === 0x7b || b[i] === 0x5b) depth++;
        else if (b[i] === 0x7d || b[i] === 0x5d) depth--;
        i++;
      } while (depth > 0 && i < b.length);
      if (depth > 0) fail('unclosed ' + kind);
      return kind;
    }
    const start = i;
    while (i < b.length && /[-+.0-9a-zA-Z]/.test(String.fromCharCode(b[i]))) i++;
    if (i === start) fail('expected a value');
    return 'other';
  };
  try {
    ws();
    if (b[i] !== 0x7b) return 'not a JSON object';
    i++;
    ws();
    if (b[i] === 0x7d) return 'expected one key (the shared_context_id), found 0';
    const id = readString();
    expect(0x3a, '":"');
    ws();
    const out: ScannedContext = { id, messages: 0, system: [], bad: -1 };
    if (b[i] !== 0x5b) {
      skipValue();
      out.bad = -2;
    } else {
      i++;
      ws();
      if (b[i] === 0x5d) i++;
      else
        for (;;) {
          ws();
          const index = out.messages++;
          if (b[i] !== 0x7b) {
            skipValue();
            if (out.bad < 0) out.bad = index;
          } else {
            i++;
            let role: string | undefined;
            let content = false;
            ws();
            if (b[i] === 0x7d) i++;
            else
              for (;;) {
                ws();
                const key = readKey();
                expect(0x3a, '":"');
                ws();
                if (key === 'role' && b[i] === QUOTE) role = readRole();
                else if (skipValue() === 'string' && key === 'content') content = true;
                ws();
                if (b[i] === 0x2c) {
                  i++;
                  continue;
                }
                expect(0x7d, '"}"');
                break;
              }
            if (role === undefined || !content) {
              if (out.bad < 0) out.bad = index;
            } else if (role === 'system') out.system.push(index);
          }
          ws();
          if (b[i] === 0x2c) {
            i++;
            continue;
          }
          expect(0x5d, '"]"');
          break;
        }
    }
    let keys = 1;
    ws();
    while (b[i] === 0x2c) {
      i++;
      ws();
      readString();
      expect(0x3a, '":"');
      skipValue();
      keys++;
      ws();
    }
    expect(0x7d, '"}"');
    ws();
    if (i < b.length) fail('text after the object');
    if (keys !== 1) return `expected one key (the shared_context_id), found ${keys}`;
    if (out.bad === -2) return `the value of ${id} is not a list of messages`;
    return out;
  } catch (err) {
    if (err instanceof Fail) return err.message;
    return `not JSON: ${(err as Error).message}`;
  }
}
