// Which benchmark opens by itself at start. Pure (file listing injected), so it is unit-tested.
import { isAbsolute, join, resolve } from 'node:path';

export const TASKS_FILE_RE = /^[a-z]+_inference_tasks\.jsonl$/;

/**
 * The personaLab.benchmarkPath setting as an absolute path: `~` is the home folder, `${workspaceFolder}` the first
 * workspace folder, and a relative path is taken from the first workspace folder. Undefined when empty, or when
 * it is relative and there is no workspace folder.
 */
export function resolveSettingPath(
  value: string | undefined,
  folders: readonly string[],
  home: string,
): string | undefined {
  let p = value?.trim();
  if (!p) return undefined;
  const first = folders[0];
  if (p.includes('${workspaceFolder}')) {
    if (!first) return undefined;
    p = p.split('${workspaceFolder}').join(first);
  }
  if (p === '~' || p.startsWith('~/')) p = join(home, p.slice(1));
  if (isAbsolute(p)) return resolve(p);
  return first ? resolve(first, p) : undefined;
}

/** The first workspace folder with a data/<platform>_inference_tasks.jsonl (what the workspaceContains event matches). */
export function findWorkspaceBenchmark(
  folders: readonly string[],
  list: (dir: string) => readonly string[],
): string | undefined {
  for (const folder of folders) {
    let names: readonly string[];
    try {
      names = list(join(folder, 'data'));
    } catch {
      continue;
    }
    if (names.some((n) => TASKS_FILE_RE.test(n))) return folder;
  }
  return undefined;
}
