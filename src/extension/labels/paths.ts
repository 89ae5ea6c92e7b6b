// Where the label database and the workspace label set live. Pure (no `vscode`), so it is unit-tested.
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { resolveSettingPath } from '../workspace/target';

export const LABELS_DIR = '.personalab';
export const DB_FILE = 'labels.db';
export const LABEL_SET_FILE = 'labels.json';

/**
 * The folder that holds `.personalab/`: the first workspace folder, else the benchmark folder, else `fallback`
 * (the extension's global storage), so labelling works in a window without a folder too.
 */
export function labelsHome(folders: readonly string[], benchRoot: string | undefined, fallback: string): string {
  return folders[0] ?? benchRoot ?? fallback;
}

/** personaLab.labels.dbPath (`~`, `${workspaceFolder}`, relative to the first folder) or the default. */
export function dbPath(
  setting: string | undefined,
  folders: readonly string[],
  home: string,
  labelsHomeDir: string,
): string {
  return resolveSettingPath(setting, folders, home) ?? join(labelsHomeDir, LABELS_DIR, DB_FILE);
}

export function labelSetPath(labelsHomeDir: string): string {
  return join(labelsHomeDir, LABELS_DIR, LABEL_SET_FILE);
}

/** personaLab.labels.author, or the OS user name ('annotator' when even that is unknown). */
export function authorName(setting: string | undefined): string {
  const s = setting?.trim();
  if (s) return s;
  try {
    return userInfo().username || 'annotator';
  } catch {
    return 'annotator';
  }
}

export { benchmarkId } from '../../core/labels/model';
