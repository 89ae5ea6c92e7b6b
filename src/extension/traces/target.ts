// Where an OmniBehavior benchmark is in a folder: the folder itself, or its omnibehavior/ subfolder (sample/ holds
// both benchmarks). Pure (the existence check is injected), so it is unit-tested.
import { basename, dirname, join } from 'node:path';

export const OMNI_TASKS = 'test_actions.jsonl';
export const OMNI_SUBFOLDER = 'omnibehavior';

/** The OmniBehavior root for a folder or for its test_actions.jsonl, or undefined when there is none. */
export function omniRootOf(target: string, exists: (path: string) => boolean): string | undefined {
  if (basename(target) === OMNI_TASKS && exists(target)) return dirname(target);
  for (const dir of [target, join(target, OMNI_SUBFOLDER)]) {
    if (exists(join(dir, OMNI_TASKS)) && exists(join(dir, 'raw'))) return dir;
  }
  return undefined;
}
