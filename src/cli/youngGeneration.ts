// The CLI's jobs read a benchmark once and keep a small part of it: most of what they allocate dies young, and V8's
// default young generation (semi-spaces of up to 16 MiB, more on large machines) is memory the peak pays for without
// saving time. V8 sizes its heap only from the command line or NODE_OPTIONS (`v8.setFlagsFromString` at start-up does
// not resize it), so the CLI replaces itself once, with `process.execve`, by the same Node with a smaller one: the
// same process id, stdio, signals and exit status, and no parent left waiting beside it. glibc reads its malloc
// tunables only when a process starts, so the same restart gives it ones that hand freed memory back sooner
// (MALLOC_TUNABLES); the new image takes them out of its environment again, so its children start as usual.

/** Set on the replaced process, so that it is never replaced again. */
export const YOUNG_GENERATION_ENV = 'PERSONA_LAB_CLI_V8_FLAGS';

/** Semi-space size in MiB (measured on the paper-scale folder in docs/performance.md). */
export const SEMI_SPACE_MIB = 2;

/**
 * glibc's malloc, for a job whose few threads (V8's compilers and collector, libuv's pool) allocate little: one arena
 * instead of one per thread, and freed memory at the top of the heap given back from 128 KiB instead of kept. Musl and
 * macOS ignore the variable.
 */
export const MALLOC_TUNABLES = 'glibc.malloc.arena_max=1:glibc.malloc.trim_threshold=131072:glibc.malloc.top_pad=0';

/** Set on the replaced process when the restart gave it MALLOC_TUNABLES (none of the user's own were set). */
export const MALLOC_ENV = 'PERSONA_LAB_CLI_MALLOC';

/** Flags that size V8's heap: given by the user (on the command line or in NODE_OPTIONS), they are theirs to keep. */
const HEAP_FLAG =
  /^--(?:max|min)[-_]semi[-_]space[-_]size|^--semi[-_]space[-_]growth[-_]factor|^--max[-_]old[-_]space[-_]size|^--max[-_]young[-_]generation[-_]size|^--max[-_]heap[-_]size/;

const hasHeapFlag = (args: readonly string[]) => args.some((a) => HEAP_FLAG.test(a));

/**
 * The V8 flags to restart this CLI with, or undefined to run as it is: when this process was already restarted,
 * when the user sized the heap themselves, under a debugger, or when this Node cannot replace a process (`process.execve` is Unix-only
 * and new in Node 22.15/23.11; a child process instead would keep a second Node's memory beside the job's).
 */
export function youngGenerationFlags(
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
  canExecve: boolean,
): string[] | undefined {
  if (!canExecve || env[YOUNG_GENERATION_ENV]) return undefined;
  const options = (env.NODE_OPTIONS ?? '').split(/\s+/);
  if (hasHeapFlag(execArgv) || hasHeapFlag(options)) return undefined;
  // A debugger attached to this image would lose its session when the image is replaced.
  if ([...execArgv, ...options].some((a) => a.startsWith('--inspect'))) return undefined;
  return [`--max-semi-space-size=${SEMI_SPACE_MIB}`];
}

/** Replaces this process with the same Node, script and arguments under `flags`; never returns. */
export function restartWith(flags: readonly string[]): never {
  const execve = process.execve;
  if (!execve) throw new Error('process.execve is not available');
  return execve(
    process.execPath,
    [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)],
    restartEnv(process.env, flags),
  );
}

/** The restarted image's environment: marked as restarted, with the malloc tunables unless the user set their own. */
export function restartEnv(env: NodeJS.ProcessEnv, flags: readonly string[]): NodeJS.ProcessEnv {
  const next: NodeJS.ProcessEnv = { ...env, [YOUNG_GENERATION_ENV]: flags.join(' ') };
  if (env.GLIBC_TUNABLES === undefined) {
    next.GLIBC_TUNABLES = MALLOC_TUNABLES;
    next[MALLOC_ENV] = '1';
  }
  return next;
}

/** In the restarted image: takes the tunables the restart added out of the environment its children inherit. */
export function forgetRestartTunables(env: NodeJS.ProcessEnv): void {
  if (env[MALLOC_ENV] !== '1') return;
  if (env.GLIBC_TUNABLES === MALLOC_TUNABLES) delete env.GLIBC_TUNABLES;
  delete env[MALLOC_ENV];
}
