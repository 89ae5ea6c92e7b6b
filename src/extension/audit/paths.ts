// Where the verdict database lives and who records a verdict. Pure (no `vscode`), so it is unit-tested.
import { userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { resolveSettingPath } from '../workspace/target';

export const AUDIT_DIR = '.personalab';
export const AUDIT_DB_FILE = 'audit.db';

/**
 * personaLab.audit.dbPath (`~`, `${workspaceFolder}`, relative to the first workspace folder), else
 * `.personalab/audit.db` in the first workspace folder, else in the benchmark folder, else in `fallback`
 * (the extension's global storage). Its own file: the verdict schema cannot share a database with the labels.
 */
export function auditDbPath(
  setting: string | undefined,
  folders: readonly string[],
  home: string,
  benchRoot: string | undefined,
  fallback: string,
): string {
  return (
    resolveSettingPath(setting, folders, home) ?? join(folders[0] ?? benchRoot ?? fallback, AUDIT_DIR, AUDIT_DB_FILE)
  );
}

/** personaLab.labels.author (the same author as for labels), else the OS user name, else 'auditor'. */
export function auditAuthor(setting: string | undefined, osUser: () => string = () => userInfo().username): string {
  const s = setting?.trim();
  if (s) return s;
  try {
    return osUser().trim() || 'auditor';
  } catch {
    return 'auditor';
  }
}

/** A file name for the report: `pi-audit-<benchmark>.md`. */
export function reportFileName(benchmark: string, ext: 'md' | 'json'): string {
  const safe =
    basename(benchmark)
      .replace(/[^\w.-]+/g, '_')
      .replace(/^[._]+/, '') || 'benchmark';
  return `pi-audit-${safe}.${ext}`;
}
