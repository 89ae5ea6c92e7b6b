// A long name cut in its middle, where run and template names differ least (a common prefix, a dated or numbered
// tail): the start and the end stay readable, and the caller puts the full name in the tooltip.

/** `text` when it has at most `max` characters, else its start and end around "…", `max` characters in all. */
export function elideMiddle(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const keep = Math.max(max - 1, 2);
  const head = Math.ceil(keep / 2);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - (keep - head)).join('')}`;
}
