// The CLI of a checkout runs on the toolchain's Node when started on one too old for its storage. `npm ci` installs
// Node 24 as the `node` devDependency, and every npm script runs on it; a person typing `node dist/cli.js …` (or
// `npx persona-lab …`) on a machine whose Node is 20 would otherwise get exit 2 from every label, verdict and history
// command. The packaged CLI (inside the .vsix) has no toolchain beside it: it runs as it is and says what it needs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { storageUnavailableReason } from '../core/storage/sqlite';
import { childProcess } from '../core/io/builtins';

/** Set on the relaunched process, so that a toolchain Node that is itself too old is not started again and again. */
export const RELAUNCHED_ENV = 'PERSONA_LAB_CLI_RELAUNCHED';

/**
 * The toolchain Node to run the CLI on instead of this one, or undefined to run here: when this Node cannot load
 * SQLite and the checkout that holds `distDir` has the toolchain's Node installed.
 */
export function toolchainNode(
  distDir: string,
  versions: NodeJS.ProcessVersions = process.versions,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (storageUnavailableReason(versions) === undefined || env[RELAUNCHED_ENV]) return undefined;
  const bin = join(distDir, '..', 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  return existsSync(bin) ? bin : undefined;
}

/**
 * Runs `script` with `args` on `node`, stdio shared; this process ends as the child ends, with its code or signal.
 * `interactive`: whether signals come from a terminal to the whole process group (default: stdin is a TTY).
 */
export function relaunch(node: string, script: string, args: readonly string[], interactive?: boolean): void {
  const child = childProcess().spawn(node, [script, ...args], {
    stdio: 'inherit',
    env: { ...process.env, [RELAUNCHED_ENV]: '1' },
  });
  // Ctrl-C in a terminal reaches the child from the terminal itself (same process group): passed on as well, it would
  // arrive twice, and `run` takes a second one as "stop now" instead of finishing the steps in flight. So with a
  // terminal SIGINT is only kept from ending this process first. Without one (a script, a process manager, CI) a
  // SIGINT is sent to this process alone and is passed on, as SIGTERM and SIGHUP always are.
  const terminal = interactive ?? Boolean(process.stdin.isTTY);
  process.on('SIGINT', () => {
    if (!terminal) child.kill('SIGINT');
  });
  for (const s of ['SIGTERM', 'SIGHUP'] as const) process.on(s, () => child.kill(s));
  child.on('error', (err) => {
    process.stderr.write(`persona-lab: could not start ${node}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}
