// Tiny DOM builders shared by the webviews. Text goes in through textContent and attributes through setAttribute only:
// dataset text (posts, bio, tags, personas, reasoning, run names) is untrusted and never becomes markup.

export interface ElOptions {
  className?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string>;
}

export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  opts: ElOptions = {},
  children: Child[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (opts.className) node.className = opts.className;
  if (opts.title !== undefined) node.title = opts.title;
  for (const [k, v] of Object.entries(opts.attrs ?? {})) node.setAttribute(k, v);
  if (opts.text !== undefined) node.textContent = opts.text;
  append(node, children);
  return node;
}

export function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** A codicon glyph; decorative (the meaning is always also given as text). */
export function icon(name: string, className = ''): HTMLSpanElement {
  return el('span', { className: `codicon codicon-${name} ${className}`.trim(), attrs: { 'aria-hidden': 'true' } });
}

/** An info glyph whose hover text explains a figure; also readable by screen readers. */
export function help(text: string): HTMLSpanElement {
  return el('span', {
    className: 'help codicon codicon-info',
    title: text,
    attrs: { role: 'img', 'aria-label': text, tabindex: '0' },
  });
}
