// A tolerant scan of JSON text that maps value paths to 1-based line numbers, so that validation errors found on the
// parsed value can point at the line of the offending entry. It never throws and copes with truncated input.

/** Paths look like `labels[3].key` (members joined by '.', elements as `[i]`); the root is ''. */
export type LineMap = Map<string, number>;

interface Frame {
  kind: 'obj' | 'arr';
  path: string;
  index: number;
  key: string | null;
  expectKey: boolean;
}

function member(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

export function scanJsonLines(text: string): LineMap {
  const lines: LineMap = new Map([['', 1]]);
  const stack: Frame[] = [];
  let line = 1;
  let i = 0;
  const record = (path: string) => {
    if (!lines.has(path)) lines.set(path, line);
  };
  // The path of a value that starts now, or null when the text is not in a value position.
  const valuePath = (): string | null => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    if (top.kind === 'arr') return `${top.path}[${top.index}]`;
    return top.key !== null && !top.expectKey ? member(top.path, top.key) : null;
  };
  const readString = (): string => {
    let out = '';
    i++; // opening quote
    while (i < text.length && text[i] !== '"' && text[i] !== '\n') {
      if (text[i] === '\\' && i + 1 < text.length && text[i + 1] !== '\n') {
        out += text[i + 1];
        i += 2;
      } else {
        out += text[i++];
      }
    }
    if (text[i] === '"') i++;
    return out;
  };
  while (i < text.length) {
    const ch = text[i];
    const top = stack[stack.length - 1];
    if (ch === '\n') {
      line++;
      i++;
    } else if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
    } else if (ch === '"' && top?.kind === 'obj' && top.expectKey) {
      top.key = readString();
      record(member(top.path, top.key));
    } else if (ch === ':') {
      if (top?.kind === 'obj') top.expectKey = false;
      i++;
    } else if (ch === ',') {
      if (top?.kind === 'arr') top.index++;
      if (top?.kind === 'obj') {
        top.expectKey = true;
        top.key = null;
      }
      i++;
    } else if (ch === '}' || ch === ']') {
      if (top && (top.kind === 'obj') === (ch === '}')) stack.pop();
      i++;
    } else {
      const path = valuePath();
      if (path !== null) record(path);
      if (ch === '{' || ch === '[') {
        stack.push({ kind: ch === '{' ? 'obj' : 'arr', path: path ?? '?', index: 0, key: null, expectKey: ch === '{' });
        i++;
      } else if (ch === '"') {
        readString();
      } else {
        i++;
        while (i < text.length && !/[\s,:{}[\]"]/.test(text[i])) i++;
      }
    }
  }
  return lines;
}

/** The line of `path`, or of its closest recorded ancestor. */
export function lineOf(lines: LineMap, path: string): number {
  let p = path;
  for (;;) {
    const found = lines.get(p);
    if (found !== undefined) return found;
    if (p === '') return 1;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    p = cut <= 0 ? '' : p.slice(0, cut);
  }
}

/** 1-based line of a code-point offset (the unit of Python's and pyJsonLoads' error positions). */
export function lineAtCodePoint(text: string, offset: number): number {
  let n = 1;
  let seen = 0;
  for (const ch of text) {
    if (seen++ >= offset) break;
    if (ch === '\n') n++;
  }
  return n;
}
