// Node's compile cache for the CLI's bundle (module.enableCompileCache, Node 22.1+): the code V8 compiled in one run
// is read back in the next, instead of parsing and compiling 1.4 MB again (measured in docs/performance.md). It lives
// in the user's own cache folder (PERSONA_LAB_CACHE_DIR, else $XDG_CACHE_HOME/persona-lab, else ~/.cache/persona-lab),
// made private, never in a folder the CLI reads a benchmark from; Node checks each entry against the source's hash
// and its own version. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does for Node; a user's NODE_COMPILE_CACHE wins.
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as nodeModule from 'node:module';

/** The folder of the CLI's compile cache. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.PERSONA_LAB_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'persona-lab');
  return join(base, 'node-compile-cache');
}

/**
 * Turns the cache on for the modules loaded from now on; says nothing and changes nothing when it cannot (an older
 * Node, a cache folder that cannot be made): the CLI then compiles its bundle as before.
 */
export function enableCliCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE || env.NODE_COMPILE_CACHE) return;
  const dir = compileCacheDir(env);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    enable(dir);
  } catch {
    // no cache: the bundle is compiled as before
  }
}
