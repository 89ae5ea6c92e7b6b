// Keys pressed straight on `page.keyboard` go to whatever has the focus at that moment, which on a busy machine is
// not always the element the test means (test/e2e/support/keys.ts says why). Test files type through support's
// pressIn / typeInto / insertInto or a page object's `press`; this finds the lines that do not.
import type { Finding } from './workbenchSelectors';

const DIRECT: [RegExp, string][] = [
  [/\bkeyboard\s*\.\s*(press|type|insertText|down|up)\b/, 'keys sent without waiting for the focus'],
  [/\.keyboard\b(?!\s*\.)/, 'the keyboard taken aside (keys sent through it skip the focus wait)'],
  [/\{[^}]*\bkeyboard\b[^}]*\}\s*=/, 'the keyboard taken aside (keys sent through it skip the focus wait)'],
];

/** The lines of `source` (comments left out) that drive the page's keyboard directly. */
export function findDirectKeys(source: string): Finding[] {
  const found: Finding[] = [];
  source.split('\n').forEach((text, i) => {
    const code = text.trimStart();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
    const hit = DIRECT.find(([re]) => re.test(code.replace(/\s\/\/.*$/, '')));
    if (hit) found.push({ line: i + 1, text: text.trim(), what: hit[1] });
  });
  return found;
}
