// What text every store a label, score or verdict may reach can keep: its own file, so that the label model and
// the judge scores both use it without importing each other.

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `s` cannot be stored on every store a label may reach, or null: a label server (PostgreSQL) refuses a NUL
 * character, and an unpaired UTF-16 surrogate is not Unicode (it would be changed on the way, or refused). Checked
 * when a label or note is made, so that such a value never waits in a queue the server would refuse.
 */
export function textProblem(s: string): string | null {
  const nul = s.indexOf('\0');
  const lone = UNPAIRED_SURROGATE.exec(s);
  if (nul < 0 && !lone) return null;
  const at = (i: number) => [...s.slice(0, i)].length + 1;
  if (nul >= 0 && (!lone || nul < lone.index))
    return `holds a NUL character (U+0000) at character ${at(nul)}, which a label server (PostgreSQL) cannot store`;
  const code = lone![0].charCodeAt(0).toString(16).toUpperCase();
  return `holds an unpaired surrogate (U+${code}) at character ${at(lone!.index)}, which is not valid Unicode`;
}
