// Parsing one model reply the way the reference runner does (spec section 2), flagging every departure.
import { pyJsonLoads } from '../../io/pyjson';
import { pyStrip } from '../../io/pyString';
import type { Severity } from '../../io/diagnostics';

export const REPLY_KEYS = ['persona_summary', 'predicted_tags', 'reasoning'] as const;
export type ReplyKey = (typeof REPLY_KEYS)[number];

export interface ReplyValue {
  persona_summary: string;
  /** As returned when it is an array (entries may be non-strings, duplicates, out of pool); [] otherwise. */
  predicted_tags: unknown[];
  reasoning: string;
}

export type ReplyFlag =
  | { code: 'fenced'; severity: Severity; message: string }
  | { code: 'not_json'; severity: Severity; message: string; error: string }
  | { code: 'not_object'; severity: Severity; message: string; got: string }
  | { code: 'missing_key'; severity: Severity; message: string; key: ReplyKey }
  | { code: 'wrong_type'; severity: Severity; message: string; key: ReplyKey; expected: string; got: string }
  | { code: 'extra_keys'; severity: Severity; message: string; keys: string[] }
  | { code: 'count'; severity: Severity; message: string; got: number; expected: number }
  | { code: 'duplicates'; severity: Severity; message: string; tags: string[] }
  | { code: 'out_of_pool'; severity: Severity; message: string; tags: string[] }
  | { code: 'empty_persona'; severity: Severity; message: string };

export type ReplyFlagCode = ReplyFlag['code'];

export interface ParsedReply {
  /** true when the reference would accept the reply (it parses to a JSON object); flags may still be present. */
  ok: boolean;
  value: ReplyValue | null;
  /** The decoded JSON value (whatever it is), or undefined when the text is not JSON. */
  parsed: unknown;
  flags: ReplyFlag[];
}

export { pyStrip };

/** The reference's clean-up before parsing: delete every "```json" and "```", then strip. */
export function cleanReply(raw: string): string {
  return pyStrip(
    String(raw ?? '')
      .split('```json')
      .join('')
      .split('```')
      .join(''),
  );
}

/** Python type name of a decoded JSON value, for messages. */
export function pyTypeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

export function parseReply(raw: string, pool: readonly string[], k: number): ParsedReply {
  const flags: ReplyFlag[] = [];
  const rawText = typeof raw === 'string' ? raw : String(raw ?? '');
  if (rawText.includes('```')) {
    const message = 'The reply was wrapped in ``` code fences (removed before parsing).';
    flags.push({ code: 'fenced', severity: 'info', message });
  }
  const decoded = pyJsonLoads(cleanReply(rawText));
  if (!decoded.ok) {
    flags.push({ code: 'not_json', severity: 'error', message: `Not JSON: ${decoded.error}`, error: decoded.error });
    return { ok: false, value: null, parsed: undefined, flags };
  }
  const obj = decoded.value;
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    const got = pyTypeName(obj);
    const message = `The reply is a JSON ${got}, not an object.`;
    flags.push({ code: 'not_object', severity: 'error', message, got });
    return { ok: false, value: null, parsed: obj, flags };
  }
  const rec = obj as Record<string, unknown>;
  const value: ReplyValue = { persona_summary: '', predicted_tags: [], reasoning: '' };

  for (const key of REPLY_KEYS) {
    if (!Object.hasOwn(rec, key)) {
      flags.push({ code: 'missing_key', severity: 'error', message: `Missing key "${key}".`, key });
      continue;
    }
    const v = rec[key];
    if (key === 'predicted_tags') {
      if (!Array.isArray(v)) {
        const got = pyTypeName(v);
        const message = `"predicted_tags" is a ${got}, not an array of strings.`;
        flags.push({ code: 'wrong_type', severity: 'error', message, key, expected: 'array of strings', got });
        continue;
      }
      value.predicted_tags = [...v];
      const bad = v.filter((t) => typeof t !== 'string');
      if (bad.length > 0) {
        const got = [...new Set(bad.map(pyTypeName))].join(', ');
        const what = bad.length === 1 ? 'entry' : 'entries';
        const message = `"predicted_tags" has ${bad.length} non-string ${what} (${got}); they never match.`;
        flags.push({ code: 'wrong_type', severity: 'error', message, key, expected: 'array of strings', got });
      }
    } else if (typeof v !== 'string') {
      const got = pyTypeName(v);
      const severity = key === 'persona_summary' ? 'error' : 'warning';
      const message = `"${key}" is a ${got}, not a string.`;
      flags.push({ code: 'wrong_type', severity, message, key, expected: 'string', got });
    } else {
      value[key] = v;
    }
  }

  const extra = Object.keys(rec).filter((key) => !(REPLY_KEYS as readonly string[]).includes(key));
  if (extra.length > 0) {
    const message = `Keys the format does not have: ${extra.join(', ')}.`;
    flags.push({ code: 'extra_keys', severity: 'info', message, keys: extra });
  }

  if (Object.hasOwn(rec, 'predicted_tags') && Array.isArray(rec.predicted_tags)) {
    const tags = value.predicted_tags;
    if (tags.length !== k) {
      const message = `${tags.length} tag${tags.length === 1 ? '' : 's'} predicted, ${k} asked for.`;
      flags.push({ code: 'count', severity: 'warning', message, got: tags.length, expected: k });
    }
    const seen = new Set<string>();
    const dups = new Set<string>();
    const outside = new Set<string>();
    const inPool = new Set(Array.isArray(pool) ? pool : []);
    for (const t of tags) {
      if (typeof t !== 'string') continue;
      if (seen.has(t)) dups.add(t);
      seen.add(t);
      if (!inPool.has(t)) outside.add(t);
    }
    if (dups.size > 0) {
      const message = `Repeated tags (counted once): ${[...dups].join(', ')}.`;
      flags.push({ code: 'duplicates', severity: 'warning', message, tags: [...dups] });
    }
    if (outside.size > 0) {
      const message = `Tags not in the candidate pool (never matched): ${[...outside].join(', ')}.`;
      flags.push({ code: 'out_of_pool', severity: 'warning', message, tags: [...outside] });
    }
  }

  if (typeof rec.persona_summary === 'string' && pyStrip(rec.persona_summary) === '') {
    const message = 'Empty persona_summary: the next step keeps the previous persona.';
    flags.push({ code: 'empty_persona', severity: 'warning', message });
  }
  return { ok: true, value, parsed: obj, flags };
}

/** What the reference records for a step after 3 failed attempts: no persona at all. */
export interface ErrorRecord {
  predicted_tags: never[];
  reasoning: string;
}

export function errorRecord(message: string): ErrorRecord {
  return { predicted_tags: [], reasoning: `Error: ${String(message ?? '')}` };
}

/**
 * Persona for step n+1 in "full persona" mode: the reply's persona_summary when it is a non-empty string
 * (Python truthiness, so whitespace counts as non-empty), otherwise the persona step n received.
 */
export function threadPersona(prevPersonaGiven: string | null, reply: unknown): string | null {
  if (typeof reply !== 'object' || reply === null) return prevPersonaGiven;
  const p = (reply as Record<string, unknown>).persona_summary;
  return typeof p === 'string' && p !== '' ? p : prevPersonaGiven;
}
