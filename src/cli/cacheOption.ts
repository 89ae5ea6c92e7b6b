// The persistent index for CLI loads: the benchmark's own .personalab/index (shared with the extension) unless
// --no-cache; a folder the CLI cannot write to is read in full, as with --no-cache.
import { chooseCacheDir } from '../core/cache/store';
import type { LoadOptions } from '../core/spb/format/load';

export const cacheOption = (opts: { 'no-cache'?: boolean }): Pick<LoadOptions, 'cacheDir'> =>
  opts['no-cache'] ? {} : { cacheDir: (root: string) => chooseCacheDir(root) };
