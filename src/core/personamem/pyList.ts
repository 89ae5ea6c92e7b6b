// The all_options cell as the authors read it (ast.literal_eval of a Python list of strings, written by str() of a
// list, so quotes vary by item): a small reader for exactly that literal, with where it stops when it cannot.
export type PyListResult = { ok: true; items: string[] } | { ok: false; message: string };

const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};

/** One Python string literal starting at `i` (a quote); the value and the index after it, or an error. */
function readString(text: string, i: number): { value: string; next: number } | string {
  const quote = text[i];
  const triple = text.startsWith(quote.repeat(3), i);
  const close = triple ? quote.repeat(3) : quote;
  let j = i + close.length;
  let value = '';
  for (;;) {
    if (j >= text.length) return `unterminated string starting at character ${i + 1}`;
    if (text.startsWith(close, j)) return { value, next: j + close.length };
    const ch = text[j];
    if (ch === '\n' && !triple) return `line break inside a string at character ${j + 1}`;
    if (ch !== '\\') {
      value += ch;
      j++;
      continue;
    }
    const e = text[j + 1];
    if (e === undefined) return `unterminated string starting at character ${i + 1}`;
    if (e in SIMPLE_ESCAPES) {
      value += SIMPLE_ESCAPES[e];
      j += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = text.slice(j + 2, j + 2 + n);
      if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) return `bad \\${e} escape at character ${j + 1}`;
      const code = parseInt(hex, 16);
      if (code > 0x10ffff) return `bad \\${e} escape at character ${j + 1}`;
      value += String.fromCodePoint(code);
      j += 2 + n;
    } else if (/[0-7]/.test(e)) {
      const oct = /^[0-7]{1,3}/.exec(text.slice(j + 1))![0];
      value += String.fromCodePoint(parseInt(oct, 8));
      j += 1 + oct.length;
    } else if (e === 'N') {
      return `\\N{…} escape at character ${j + 1} is not read`;
    } else {
      // Python keeps an unknown escape as written
      value += '\\' + e;
      j += 2;
    }
  }
}

const SPACE = /[ \t\n\r\f\v]/;

/** Parses `[ 'a', "b", … ]` (adjacent literals concatenate, a trailing comma is allowed). */
export function parsePyStringList(text: string): PyListResult {
  let i = 0;
  const skip = () => {
    while (i < text.length && SPACE.test(text[i])) i++;
  };
  skip();
  if (text[i] !== '[') return { ok: false, message: 'not a Python list (it should start with "[")' };
  i++;
  const items: string[] = [];
  for (;;) {
    skip();
    if (text[i] === ']') break;
    // an optional u / r prefix is all a str() repr can carry; r is read as plain (str() never writes it)
    if (/[uU]/.test(text[i] ?? '') && /['"]/.test(text[i + 1] ?? '')) i++;
    if (text[i] !== "'" && text[i] !== '"')
      return {
        ok: false,
        message: `expected a string at character ${i + 1}, found ${JSON.stringify(text.slice(i, i + 12))}`,
      };
    let value = '';
    while (text[i] === "'" || text[i] === '"') {
      const s = readString(text, i);
      if (typeof s === 'string') return { ok: false, message: s };
      value += s.value;
      i = s.next;
      skip();
    }
    items.push(value);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === ']') break;
    if (i >= text.length) return { ok: false, message: 'the list is not closed with "]"' };
    return { ok: false, message: `expected "," or "]" at character ${i + 1}` };
  }
  i++;
  skip();
  if (i < text.length) return { ok: false, message: `text after the list at character ${i + 1}` };
  return { ok: true, items };
}
