// The persistent index for CLI loads: the benchmark's own .personalab/index (shared with the extension) unless
// --no-cache; a folder the CLI cannot write to is read in full, as with --no-cache.
import { chooseCacheDir } from '../core/cache/store';
import type { FormatLoadOptions } from '../core/formats/descriptor';

export const cacheOption = (opts: { 'no-cache'?: boolean }): Pick<FormatLoadOptions, 'cacheDir'> =>
  opts['no-cache'] ? {} : { cacheDir: (root: string) => chooseCacheDir(root) };
