// A run folder's fixed names (results/<name>/) and the one check of a run's name, shared by every format's runner.
export const JOURNAL_FILE = '.journal.jsonl';
export const MANIFEST_FILE = 'run.json';
export const LOCK_FILE = '.lock';

const NAME_RE = /^[A-Za-z0-9._-]+$/;

export function isValidRunName(name: unknown): name is string {
  return typeof name === 'string' && NAME_RE.test(name) && !/^\.+$/.test(name);
}

/** Why a run name is refused, or null when it is valid: the one check of a run, its dry run and the CLI's parsing. */
export function runNameProblem(name: unknown): string | null {
  return isValidRunName(name) ? null : `invalid run name "${String(name)}": use letters, digits, . _ -`;
}
