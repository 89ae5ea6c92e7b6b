// Tiny DOM builders. Text goes in through textContent and attributes through setAttribute only: dataset text
// (run names, user ids, tags) is never turned into markup.

export interface ElOptions {
  className?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string>;
}

export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, opts: ElOptions = {}, children: Child[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (opts.className) node.className = opts.className;
  if (opts.title !== undefined) node.title = opts.title;
  for (const [k, v] of Object.entries(opts.attrs ?? {})) node.setAttribute(k, v);
  if (opts.text !== undefined) node.textContent = opts.text;
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return node;
}

/** A codicon glyph; decorative (the meaning is always also given as text). */
export function icon(name: string, className = ''): HTMLSpanElement {
  return el('span', { className: `codicon codicon-${name} ${className}`.trim(), attrs: { 'aria-hidden': 'true' } });
}

/** An info glyph whose hover text explains a figure; also readable by screen readers. */
export function help(text: string): HTMLSpanElement {
  return el('span', { className: 'help codicon codicon-info', title: text, attrs: { role: 'img', 'aria-label': text, tabindex: '0' } });
}

/** Percentage with one or two decimals; "—" for undefined. */
export function pct(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : (100 * x).toFixed(digits);
}

/** Signed difference in percentage points: "+12.5", "−3.0", "0.0". */
export function pts(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const v = (100 * x).toFixed(digits);
  if (Number(v) === 0) return (0).toFixed(digits);
  return x > 0 ? `+${v}` : `\u2212${v.slice(1)}`;
}

export function fixed(x: number | null | undefined, digits = 2): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits);
}
