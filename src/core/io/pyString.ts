// Python's str.strip() where the reference code strips text (replies, text answers); no Node imports, so that the
// webview bundles can use it too.

// Python's str.isspace() set: unlike JS trim() it includes U+001C-U+001F and U+0085 and excludes U+FEFF.
const PY_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

export function pyStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && PY_SPACE.test(s[a])) a++;
  while (b > a && PY_SPACE.test(s[b - 1])) b--;
  return s.slice(a, b);
}
