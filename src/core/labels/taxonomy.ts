// The label set: the default failure modes of the benchmark (named after the pool class they describe: "D_viral
// pick", "Missed T_new"; ids are what the database keeps, so renaming a label never touches a stored row), and a per-workspace `.personalab/labels.json`
// validated with located diagnostics. A broken file never leaves the user without labels: errors fall back to the
// defaults.
import { readFileSync } from 'node:fs';
import { missedLabelName, pickLabelName } from '../spb/names';
import { pyJsonLoads } from '../io/pyjson';
import type { Diagnostic } from '../io/diagnostics';
import { lineAtCodePoint, lineOf, scanJsonLines } from './jsonLines';

/**
 * The most specific target a label may be put on. Every label can go on a whole step; 'tag' labels may also go on
 * one tag of the pool, 'persona-span' labels on a selected span of the persona (or another text field).
 */
export type LabelScope = 'step' | 'tag' | 'persona-span';
export const LABEL_SCOPES: readonly LabelScope[] = ['step', 'tag', 'persona-span'];

export interface LabelDef {
  id: string;
  name: string;
  description: string;
  /** One character that toggles the label in the step view. */
  key?: string;
  scope: LabelScope;
}

export const DEFAULT_LABELS: readonly LabelDef[] = [
  {
    id: 'decay-error',
    name: pickLabelName('dDecay'),
    description: 'Picked a D_decay tag: recently used, does not recur.',
    key: '1',
    scope: 'tag',
  },
  {
    id: 'peer-confusion',
    name: pickLabelName('dPeer'),
    description: 'Picked a D_peer tag: a semantic neighbour of a positive.',
    key: '2',
    scope: 'tag',
  },
  {
    id: 'popularity-bias',
    name: pickLabelName('dViral'),
    description: 'Picked a D_viral tag: trending on the platform that day.',
    key: '3',
    scope: 'tag',
  },
  {
    id: 'random-pick',
    name: pickLabelName('dRandom'),
    description: 'Picked a D_random tag: a uniform sample of the vocabulary.',
    key: '4',
    scope: 'tag',
  },
  {
    id: 'missed-novelty',
    name: missedLabelName('tNew'),
    description: 'A T_new tag (never used before) was not picked.',
    key: '5',
    scope: 'tag',
  },
  {
    id: 'missed-stability',
    name: missedLabelName('tKeep'),
    description: 'A T_keep tag (already used) was not picked.',
    key: '6',
    scope: 'tag',
  },
  {
    id: 'format-error',
    name: 'Format error',
    description: 'Not JSON, wrong count, duplicates or out-of-pool picks.',
    key: '7',
    scope: 'step',
  },
  {
    id: 'persona-drift',
    name: 'Persona drift',
    description: 'The persona lost or invented facts.',
    key: '8',
    scope: 'persona-span',
  },
  {
    id: 'pi-leak',
    name: 'PI leak',
    description: 'Personal information slipped through the masking.',
    key: '9',
    scope: 'persona-span',
  },
  {
    id: 'bad-ground-truth',
    name: 'Bad ground truth',
    description: 'The data itself is wrong (split, pool or target).',
    key: '0',
    scope: 'tag',
  },
];

/**
 * The default failure modes of an OmniBehavior prediction (a test action, or one record of the history before it),
 * after the paper's diagnostics: simulators that act far more often than users and answer alike for everyone.
 */
export const DEFAULT_TRACE_LABELS: readonly LabelDef[] = [
  {
    id: 'hyper-activity',
    name: 'Hyper-activity',
    description: 'Predicted an action (Yes) that the user did not take.',
    key: '1',
    scope: 'step',
  },
  {
    id: 'missed-action',
    name: 'Missed action',
    description: 'Predicted No where the user acted.',
    key: '2',
    scope: 'step',
  },
  {
    id: 'homogenised',
    name: 'Homogenised',
    description: "Ignores this user's own habits: any user would get the same answer.",
    key: '3',
    scope: 'step',
  },
  {
    id: 'history-misread',
    name: 'History misread',
    description: 'Misreads or ignores the history before the test action.',
    key: '4',
    scope: 'step',
  },
  {
    id: 'context-misread',
    name: 'Context misread',
    description: 'Misreads the scene context (video, live room, item, ad).',
    key: '5',
    scope: 'step',
  },
  {
    id: 'watch-time-off',
    name: 'Watch time off',
    description: "Far from the video's duration or the user's usual watching.",
    key: '6',
    scope: 'step',
  },
  {
    id: 'utterance-off',
    name: 'Utterance off',
    description: 'The predicted customer-service message is off in intent or tone.',
    key: '7',
    scope: 'step',
  },
  {
    id: 'format-error',
    name: 'Format error',
    description: 'No usable answer in the raw output (not Yes / No, not a number).',
    key: '8',
    scope: 'step',
  },
  {
    id: 'pi-leak',
    name: 'PI leak',
    description: 'Personal information slipped through the masking.',
    key: '9',
    scope: 'step',
  },
  {
    id: 'bad-ground-truth',
    name: 'Bad ground truth',
    description: 'The record or the true value itself is wrong.',
    key: '0',
    scope: 'step',
  },
];

/** Keys the step view keeps for itself (next / previous step). */
export const DEFAULT_RESERVED_KEYS: readonly string[] = ['j', 'k'];

export interface LabelSet {
  labels: LabelDef[];
  /** The labels of OmniBehavior traces (`traceLabels` in labels.json, else the defaults). */
  traceLabels: LabelDef[];
  /** true when the defaults are in use (no file, or a file with errors). */
  isDefault: boolean;
  diagnostics: Diagnostic[];
}

export interface ParseLabelSetOptions {
  reservedKeys?: readonly string[];
}

const ID_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const KNOWN_FIELDS = new Set(['id', 'name', 'description', 'key', 'scope']);
const SET_FIELDS = new Set(['labels', 'traceLabels']);

export function defaultLabelSet(diagnostics: Diagnostic[] = []): LabelSet {
  return {
    labels: DEFAULT_LABELS.map((l) => ({ ...l })),
    traceLabels: DEFAULT_TRACE_LABELS.map((l) => ({ ...l })),
    isDefault: true,
    diagnostics,
  };
}

/**
 * Validates the text of a labels.json: `{"labels": [...], "traceLabels": [...]}` (traceLabels optional: the
 * OmniBehavior defaults) or a bare array of label objects. Never throws.
 */
export function parseLabelSet(text: string, file: string, opts: ParseLabelSetOptions = {}): LabelSet {
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
    return defaultLabelSet(diagnostics);
  }
  let list: unknown = parsed.value;
  let traceList: unknown;
  let base = '';
  if (typeof list === 'object' && list !== null && !Array.isArray(list)) {
    const obj = list as Record<string, unknown>;
    for (const k of Object.keys(obj)) if (!SET_FIELDS.has(k)) warn(k, `unknown field "${k}" is ignored`);
    list = obj.labels;
    traceList = obj.traceLabels;
    base = 'labels';
  }
  if (!Array.isArray(list)) {
    error(base, 'expected an array of labels (or an object with a "labels" array); using the default labels');
    return defaultLabelSet(diagnostics);
  }
  if (traceList !== undefined && !Array.isArray(traceList)) {
    error('traceLabels', 'expected an array of labels; using the default labels');
    return defaultLabelSet(diagnostics);
  }
  const labels = parseEntries(list, base, { error, warn, at }, opts);
  const traceLabels =
    traceList === undefined
      ? DEFAULT_TRACE_LABELS.map((l) => ({ ...l }))
      : parseEntries(traceList, 'traceLabels', { error, warn, at }, opts);
  if (diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push({
      severity: 'info',
      file,
      line: 0,
      field: '',
      message: 'the file has errors: the default labels are in use until it is fixed',
    });
    return defaultLabelSet(diagnostics);
  }
  return { labels, traceLabels, isDefault: false, diagnostics };
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
      error(p, 'a label must be an object with id, name, description, scope and an optional key');
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
    if (ok && typeof id === 'string' && typeof name === 'string') {
      labels.push(key === undefined ? { id, name, description, scope } : { id, name, description, key, scope });
    }
  });
  if (labels.length === 0 && errors === 0) error(base, 'the label set is empty; using the default labels');
  return labels;
}

/** Reads a labels.json; a missing file means the defaults, silently. `file` names it in diagnostics. */
export function loadLabelSet(path: string, file = path, opts: ParseLabelSetOptions = {}): LabelSet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return defaultLabelSet();
    return defaultLabelSet([
      {
        severity: 'error',
        file,
        line: 0,
        field: '',
        message: `cannot read: ${(err as Error).message}; using the default labels`,
      },
    ]);
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

/** Label names by id over both sets (a summary holds labels of either format); an id in both keeps the first set's name. */
export function labelNames(set: Pick<LabelSet, 'labels' | 'traceLabels'>): Map<string, string> {
  return new Map([...set.traceLabels, ...set.labels].map((l) => [l.id, l.name]));
}

export function labelForKey(set: readonly LabelDef[], key: string): LabelDef | undefined {
  return set.find((l) => l.key === key);
}
