// A long name cut in its middle, where run, template and draft names differ least (a shared prefix, a dated or
// numbered tail): its start and its distinguishing end stay readable, and the caller shows the whole name elsewhere
// (a tooltip, a note). One rule for the CLI's text tables and every webview, counted in code points so that a CJK
// or emoji name is never cut inside a character.

/**
 * `text` when it has at most `max` code points (or `max` is under 3), else its start and end around "…", `max` code
 * points in all. The end keeps 1/`tailDivisor` of the kept characters: half by default; a terminal table passes 3
 * and keeps more of the start, where its run names differ first.
 */
export function elideMiddle(text: string, max: number, tailDivisor = 2): string {
  const chars = [...text];
  if (chars.length <= max || max < 3) return text;
  const keep = max - 1;
  const tail = Math.max(1, Math.floor(keep / tailDivisor));
  return `${chars.slice(0, keep - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
}
