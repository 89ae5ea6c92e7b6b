// A prompt draft: one item's request as an editable text file (.pldraft), sent as it stands by Ctrl+Enter. What every
// format's drafts share: the file's extension and folder, the message markers, and reading "key: value" header lines
// with a located problem for each (each format reads its own keys). Pure: no `vscode`.
export const DRAFT_EXT = '.pldraft';
export const DRAFT_LANGUAGE = 'personalab-draft';
export const DRAFT_DIR = '.personalab/drafts';
export const SYSTEM_MARKER = '=== system ===';
export const USER_MARKER = '=== user ===';

export interface DraftProblem {
  /** 1-based */
  line: number;
  message: string;
}

const HEADER_RE = /^([a-z_]+):[ \t]*(.*?)[ \t]*$/;
/**
 * A draft's header, the lines before `end` (each kind of draft reads its own keys): notes (#) and blank lines are
 * skipped, every other line is a "key: value" given to `read`, which says what is wrong with it or null.
 */
export function readDraftHeader(
  lines: readonly string[],
  end: number,
  read: (key: string, value: string) => string | null,
): DraftProblem[] {
  const problems: DraftProblem[] = [];
  for (let i = 0; i < end; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = HEADER_RE.exec(line.trim());
    const problem = m ? read(m[1], m[2]) : `"${line.trim()}" is not a "key: value" header line`;
    if (problem) problems.push({ line: i + 1, message: problem });
  }
  return problems;
}

/** Adds "missing from the header" for each required key not read, unless that key already has a problem. */
export function requireHeaders(
  problems: DraftProblem[],
  keys: readonly (readonly [name: string, read: boolean])[],
): void {
  for (const [name, read] of keys)
    if (!read && !problems.some((p) => p.message.startsWith(`${name}:`)))
      problems.push({ line: 1, message: `${name}: missing from the header` });
}

/**
 * `model:` and `temperature:` as a format's own draft reads them (`temperature: source` leaves it to the source's
 * caller): the problem, null when read, undefined when `key` is neither.
 */
export function readModelHeader(
  key: string,
  value: string,
  into: { model?: string; temperature?: number },
): string | null | undefined {
  if (key === 'model') {
    if (value === '') return 'model: empty; name the model to ask';
    into.model = value;
    return null;
  }
  if (key !== 'temperature') return undefined;
  if (value === 'source') return null;
  const t = Number(value);
  if (value === '' || !Number.isFinite(t) || t < 0 || t > 2)
    return `temperature: "${value}" is not a number from 0 to 2 or "source"`;
  into.temperature = t;
  return null;
}
