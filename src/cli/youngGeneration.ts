// The CLI's jobs read a benchmark once and keep a small part of it: most of what they allocate dies young, and V8's
// default young generation (semi-spaces of up to 16 MiB, more on large machines) is memory the peak pays for without
// saving time. V8 sizes its heap only from the command line or NODE_OPTIONS (`v8.setFlagsFromString` at start-up does
// not resize it), so the CLI replaces itself once, with `process.execve`, by the same Node with a smaller one: the
// same process id, stdio, signals and exit status, and no parent left waiting beside it.

/** Set on the replaced process, so that it is never replaced again. */
export const YOUNG_GENERATION_ENV = 'PERSONA_LAB_CLI_V8_FLAGS';

/** Semi-space size in MiB (measured on the paper-scale folder in docs/performance.md). */
export const SEMI_SPACE_MIB = 8;

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
  return execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    [YOUNG_GENERATION_ENV]: flags.join(' '),
  });
}
