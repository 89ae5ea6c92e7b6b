// Python's json.dumps writes NaN, Infinity and -Infinity as bare tokens, which JSON.parse rejects; jsonl.ts reads
// them as these marker strings and turns them back into numbers where a number is read (pyNumber). The markers are
// internal: what is shown to a user names the number instead.

/** Markers that stand for Python's non-JSON float tokens after parsing. */
export const PY_NAN = '\u0000NaN';
export const PY_INF = '\u0000Infinity';
export const PY_NEG_INF = '\u0000-Infinity';

/** The number a marker stands for; undefined for any other value. */
export function markerNumber(value: unknown): number | undefined {
  if (value === PY_NAN) return NaN;
  if (value === PY_INF) return Infinity;
  if (value === PY_NEG_INF) return -Infinity;
  return undefined;
}

// A marker as text, raw or JSON-quoted (JSON.stringify writes U+0000 as \u0000).
const IN_TEXT = /"\\u0000(NaN|-?Infinity)"|\u0000(NaN|-?Infinity)/g;

/** `text` with every marker, raw or JSON-quoted, replaced by the token Python wrote (NaN, Infinity, -Infinity). */
export function withoutMarkers(text: string): string {
  return text.includes('\u0000')
    ? text.replace(IN_TEXT, (_m, quoted?: string, raw?: string) => quoted ?? raw ?? '')
    : text;
}
