// The label set: the formats' label sets (each a key in labels.json and its defaults, from the format's descriptor)
// and a per-workspace `.personalab/labels.json` validated with located diagnostics. A broken file never leaves the
// user without labels: errors fall back to the defaults.
import { formatLabelSets } from '../formats';
import { pyJsonLoads } from '../io/pyjson';
import { readRegularText } from '../io/safeFs';
import type { Diagnostic } from '../io/diagnostics';
import { lineAtCodePoint, lineOf, scanJsonLines } from './jsonLines';
import {
  DEFAULT_RESERVED_KEYS,
  LABEL_GUIDE_MAX,
  LABEL_SCOPES,
  type FormatLabelSet,
  type LabelDef,
  type LabelScope,
} from './labelDefs';

export { DEFAULT_RESERVED_KEYS, LABEL_GUIDE_MAX, LABEL_SCOPES, type FormatLabelSet, type LabelDef, type LabelScope };

/** The key of the set a bare array in labels.json means; an object must hold it. */
export const MAIN_SET_KEY = 'labels';

export interface LabelSet {
  /** The main set (`labels` in labels.json, else the defaults of the format whose set it is; none when no format's). */
  labels: LabelDef[];
  /** Every format's set (FormatLabelSet), the main one too: labels.json's key → its labels (the file's, else the
   * defaults), in the formats' order. */
  formatSets: Record<string, LabelDef[]>;
  /** true when the defaults are in use (no file, or a file with errors). */
  isDefault: boolean;
  diagnostics: Diagnostic[];
}

export interface ParseLabelSetOptions {
  reservedKeys?: readonly string[];
  /** The sets of the formats served (the registry's when absent). */
  formatSets?: readonly FormatLabelSet[];
}

const ID_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const KNOWN_FIELDS = new Set(['id', 'name', 'description', 'key', 'scope', 'guide']);
const copies = (defs: readonly LabelDef[]) => defs.map((l) => ({ ...l }));

export function defaultLabelSet(
  diagnostics: Diagnostic[] = [],
  formatSets: readonly FormatLabelSet[] = formatLabelSets(),
): LabelSet {
  const sets: Record<string, LabelDef[]> = Object.fromEntries(formatSets.map((f) => [f.key, copies(f.defaults)]));
  return { labels: sets[MAIN_SET_KEY] ?? [], formatSets: sets, isDefault: true, diagnostics };
}

/**
 * Validates the text of a labels.json: `{"labels": [...], "<a format's key>": [...], …}` (each format's key optional:
 * its defaults) or a bare array of label objects (the `labels` set). Never throws.
 */
export function parseLabelSet(text: string, file: string, opts: ParseLabelSetOptions = {}): LabelSet {
  const sets = opts.formatSets ?? formatLabelSets();
  const others = sets.filter((f) => f.key !== MAIN_SET_KEY);
  const diagnostics: Diagnostic[] = [];
  const lines = scanJsonLines(text);
  const at = (path: string) => lineOf(lines, path);
  const error = (path: string, message: string) =>
    diagnostics.push({ severity: 'error', file, line: at(path), field: path, message });
  const warn = (path: string, message: string) =>
    diagnostics.push({ severity: 'warning', file, line: at(path), field: path, message });

  const parsed = pyJsonLoads(text.replace(/^\ufeff/, ''));
  if (!parsed.ok) {
    const line = lineAtCodePoint(text.replace(/^\ufeff/, ''), parsed.pos);
    diagnostics.push({
      severity: 'error',
      file,
      line,
      field: '',
      message: `not valid JSON: ${parsed.error}; using the default labels`,
    });
    return defaultLabelSet(diagnostics, sets);
  }
  let list: unknown = parsed.value;
  const formatLists = new Map<string, unknown>();
  const setFields = new Set([MAIN_SET_KEY, ...sets.map((f) => f.key)]);
  let base = '';
  if (typeof list === 'object' && list !== null && !Array.isArray(list)) {
    const obj = list as Record<string, unknown>;
    for (const k of Object.keys(obj)) if (!setFields.has(k)) warn(k, `unknown field "${k}" is ignored`);
    list = obj[MAIN_SET_KEY];
    for (const f of others) formatLists.set(f.key, obj[f.key]);
    base = MAIN_SET_KEY;
  }
  if (!Array.isArray(list)) {
    error(base, 'expected an array of labels (or an object with a "labels" array); using the default labels');
    return defaultLabelSet(diagnostics, sets);
  }
  for (const [key, value] of formatLists) {
    if (value !== undefined && !Array.isArray(value)) {
      error(key, 'expected an array of labels; using the default labels');
      return defaultLabelSet(diagnostics, sets);
    }
  }
  const labels = parseEntries(list, base, { error, warn, at }, opts);
  const parsedSets = new Map<string, LabelDef[]>([[MAIN_SET_KEY, labels]]);
  for (const f of others) {
    const given = formatLists.get(f.key);
    parsedSets.set(
      f.key,
      Array.isArray(given) ? parseEntries(given, f.key, { error, warn, at }, opts) : copies(f.defaults),
    );
  }
  const formatSets: Record<string, LabelDef[]> = {};
  for (const f of sets) formatSets[f.key] = parsedSets.get(f.key) ?? [];
  if (diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push({
      severity: 'info',
      file,
      line: 0,
      field: '',
      message: 'the file has errors: the default labels are in use until it is fixed',
    });
    return defaultLabelSet(diagnostics, sets);
  }
  return { labels, formatSets, isDefault: false, diagnostics };
}

interface Report {
  error(path: string, message: string): void;
  warn(path: string, message: string): void;
  at(path: string): number;
}

/** One array of label definitions; every problem is reported at its JSON path. */
function parseEntries(list: unknown[], base: string, report: Report, opts: ParseLabelSetOptions): LabelDef[] {
  const { warn, at } = report;
  let errors = 0;
  const error = (path: string, message: string) => {
    errors++;
    report.error(path, message);
  };
  const reserved = new Set(opts.reservedKeys ?? DEFAULT_RESERVED_KEYS);
  const ids = new Map<string, string>();
  const keys = new Map<string, string>();
  const labels: LabelDef[] = [];
  list.forEach((entry: unknown, i: number) => {
    const p = `${base}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      error(p, 'a label must be an object with id, name, description, scope and an optional key and guide');
      return;
    }
    const e = entry as Record<string, unknown>;
    const f = (name: string) => `${p}.${name}`;
    for (const k of Object.keys(e)) if (!KNOWN_FIELDS.has(k)) warn(f(k), `unknown field "${k}" is ignored`);
    let ok = true;
    const id = e.id;
    if (typeof id !== 'string' || !ID_RE.test(id)) {
      error(
        typeof id === 'undefined' ? p : f('id'),
        `id must be lower-case letters, digits, "-" or "_" (got ${JSON.stringify(id) ?? 'nothing'})`,
      );
      ok = false;
    } else if (ids.has(id)) {
      error(f('id'), `duplicate id "${id}" (first at ${ids.get(id)})`);
      ok = false;
    } else {
      ids.set(id, `line ${at(p)}`);
    }
    const name = e.name;
    if (typeof name !== 'string' || name.trim() === '') {
      error(typeof name === 'undefined' ? p : f('name'), 'name must be a non-empty string');
      ok = false;
    }
    let description = '';
    if (typeof e.description === 'string') description = e.description;
    else if (e.description === undefined) warn(p, 'no description');
    else {
      error(f('description'), 'description must be a string');
      ok = false;
    }
    let scope: LabelScope = 'step';
    if (e.scope === undefined) warn(p, 'no scope; using "step"');
    else if (typeof e.scope === 'string' && (LABEL_SCOPES as readonly string[]).includes(e.scope))
      scope = e.scope as LabelScope;
    else {
      error(f('scope'), `scope must be one of ${LABEL_SCOPES.join(', ')} (got ${JSON.stringify(e.scope)})`);
      ok = false;
    }
    let key: string | undefined;
    if (e.key !== undefined && e.key !== null && e.key !== '') {
      const k = e.key;
      if (typeof k !== 'string' || [...k].length !== 1 || /\s/.test(k)) {
        error(f('key'), `key must be a single non-space character (got ${JSON.stringify(k)})`);
        ok = false;
      } else if (reserved.has(k)) {
        error(f('key'), `key "${k}" is reserved by the step view`);
        ok = false;
      } else if (keys.has(k)) {
        error(f('key'), `key "${k}" is already used by "${keys.get(k)}"`);
        ok = false;
      } else {
        key = k;
        keys.set(k, typeof id === 'string' ? id : `entry ${i}`);
      }
    }
    const guide = parseGuide(e.guide, f('guide'), warn);
    if (ok && typeof id === 'string' && typeof name === 'string') {
      const def: LabelDef = { id, name, description, scope };
      if (key !== undefined) def.key = key;
      if (guide !== undefined) def.guide = guide;
      labels.push(def);
    }
  });
  if (labels.length === 0 && errors === 0) error(base, 'the label set is empty; using the default labels');
  return labels;
}

/**
 * A label's optional guide. A bad one is a warning that drops only the guide: the label and the rest of the set stay in
 * use. Blank means none.
 */
function parseGuide(v: unknown, path: string, warn: Report['warn']): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') {
    warn(path, `guide must be a string (got ${Array.isArray(v) ? 'an array' : typeof v}); the label has no guide`);
    return undefined;
  }
  const length = [...v].length;
  if (length > LABEL_GUIDE_MAX) {
    warn(path, `guide is ${length} characters, more than ${LABEL_GUIDE_MAX}; the label has no guide`);
    return undefined;
  }
  return v.trim() === '' ? undefined : v.trim();
}

/** Reads a labels.json; a missing file means the defaults, silently. `file` names it in diagnostics. */
export function loadLabelSet(path: string, file = path, opts: ParseLabelSetOptions = {}): LabelSet {
  let text: string;
  try {
    text = readRegularText(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return defaultLabelSet([], opts.formatSets);
    return defaultLabelSet(
      [
        {
          severity: 'error',
          file,
          line: 0,
          field: '',
          message: `cannot read: ${(err as Error).message}; using the default labels`,
        },
      ],
      opts.formatSets,
    );
  }
  return parseLabelSet(text, file, opts);
}

/** The definition of a stored label id; ids unknown to the current set still show (as themselves), never vanish. */
export function labelDef(set: readonly LabelDef[], id: string): LabelDef & { unknown?: true } {
  return (
    set.find((l) => l.id === id) ?? {
      id,
      name: id,
      description: 'not in the current label set',
      scope: 'step',
      unknown: true,
    }
  );
}

/**
 * Label names by id over every set (a summary holds labels of any format); an id in several keeps the name of the
 * first of the main set `labels`, then the formats' sets in their order.
 */
export function labelNames(set: Pick<LabelSet, 'labels'> & Partial<Pick<LabelSet, 'formatSets'>>) {
  const all = [
    ...Object.values(set.formatSets ?? {})
      .reverse()
      .flat(),
    ...set.labels,
  ];
  return new Map(all.map((l) => [l.id, l.name]));
}

export function labelForKey(set: readonly LabelDef[], key: string): LabelDef | undefined {
  return set.find((l) => l.key === key);
}
