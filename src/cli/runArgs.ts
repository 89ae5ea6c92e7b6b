// What every command that sends requests reads from its options (each format's run parses the rest: cli/formats/):
// the options' type, the CLI's streams, the usage error and the checks of the sending options. No side effects.
import { DEFAULT_MAX_REPLY_BYTES, timeoutProblem } from '../core/runner/guardedFetch';

export interface RunCliOptions {
  'no-cache'?: boolean;
  out?: string;
  'only-failed'?: string;
  template?: string;
  'base-url'?: string;
  model?: string;
  platform?: string;
  user?: string;
  'from-step'?: string;
  persona?: string;
  'base-run'?: string;
  concurrency?: string;
  timeout?: string;
  'max-reply-mb'?: string;
  temperature?: string;
  'max-tokens'?: string;
  'system-message'?: string;
  history?: string;
  'pi-guard'?: string;
  'pi-guard-loopback'?: boolean;
  'input-per-mtok'?: string;
  'output-per-mtok'?: string;
  'dry-run'?: boolean;
  reference?: string;
  'no-reference'?: boolean;
  python?: string;
}

export interface RunCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** for tests; the CLI itself aborts on SIGINT / SIGTERM */
  signal?: AbortSignal;
  stderrIsTTY?: boolean;
}

export class Usage extends Error {}

/** A usage error: the message and the command's usage on stderr, exit status 2. */
export function usageFailure(io: RunCliIo, usage: string, message: string): number {
  io.stderr(`persona-lab: ${message}\nUsage:\n${usage}\n`);
  return 2;
}

export const defaultIo = (): RunCliIo => ({
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  stderrIsTTY: process.stderr.isTTY === true,
});

export function num(name: string, value: string | undefined, check: (n: number) => boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !check(n)) throw new Usage(`--${name}: invalid value "${value}"`);
  return n;
}

export function timeoutSeconds(value: string | undefined): number {
  const s = num('timeout', value, (n) => n > 0) ?? 60;
  const problem = timeoutProblem(s, '--timeout');
  if (problem) throw new Usage(problem);
  return s;
}

/** The options of every command that sends requests: how many at once, the limits, the guard's scope and prices. */
export function sendingOptions(opts: RunCliOptions, env: Record<string, string | undefined>) {
  return {
    concurrency: num('concurrency', opts.concurrency, (n) => Number.isInteger(n) && n >= 1 && n <= 256) ?? 4,
    timeoutS: timeoutSeconds(opts.timeout),
    maxReplyBytes:
      (num('max-reply-mb', opts['max-reply-mb'], (n) => n > 0 && n <= 4096) ?? DEFAULT_MAX_REPLY_BYTES / 1048576) *
      1048576,
    piGuardLoopback: opts['pi-guard-loopback'] === true,
    // Undocumented, for the test suite: backoff base in ms (default 1000).
    retryBaseMs: num('PERSONA_LAB_RETRY_BASE_MS', env.PERSONA_LAB_RETRY_BASE_MS, (n) => n >= 0),
    prices: {
      inputPerMTok: num('input-per-mtok', opts['input-per-mtok'], (n) => n >= 0),
      outputPerMTok: num('output-per-mtok', opts['output-per-mtok'], (n) => n >= 0),
    },
    dryRun: opts['dry-run'] === true,
    python: opts.python ?? 'python3',
  };
}
