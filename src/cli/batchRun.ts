// What every format's `persona-lab run` shares once the folder's format has chosen its command (cli/formats/): the
// options common to all batch runs and their checks, where the benchmark's own request comes from (a checkout of its
// repository, else our template, said so), the endpoint, Ctrl+C, the progress line and the exit status.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { OutgoingPrompt } from '../core/pi/guard';
import { createOpenAITransport, type ChatTransport, type EndpointConfig } from '../core/runner/client';
import type { RunStatus } from '../core/runner/manifest';
import { cliPiGuard, piGuardOption } from './piGuard';
import { num, sendingOptions, Usage, type RunCliIo, type RunCliOptions } from './runArgs';

/** A format's batch run as the CLI lists it: its usage, the options only it takes, and the command. */
export interface BatchRunCommand<O extends RunCliOptions = RunCliOptions> {
  usage: string;
  /** Options beyond RUN_OPTIONS, for parseArgs (main.ts) and `run --help`. */
  options: Readonly<Record<string, { type: 'string' | 'boolean' }>>;
  /** `ownSignals`: called by the CLI itself, not a test, so a run that stops on SIGINT / SIGTERM listens for them. */
  run(args: string[], opts: O, io: RunCliIo, ownSignals?: boolean): Promise<number>;
}

/** How a format finds the user's checkout of its authors' repository. */
export interface CheckoutRule {
  /** The benchmark's name, in messages. */
  label: string;
  isCheckout(dir: string): boolean;
  /** The checkout the folder is in, or null (only the folder itself is looked at, never its parents). */
  find(folder: string): string | null;
  /** What --reference DIR must hold, in the refusal. */
  needs: string;
}

/** The options every batch run takes; a format adds its own. */
const COMMON = [
  'out',
  'base-url',
  'model',
  'user',
  'temperature',
  'concurrency',
  'timeout',
  'max-reply-mb',
  'pi-guard',
  'pi-guard-loopback',
  'input-per-mtok',
  'output-per-mtok',
  'dry-run',
  'reference',
  'no-reference',
  'python',
  'no-cache',
];

export function checkoutFor(dir: string, opts: RunCliOptions, rule: CheckoutRule): string | null {
  if (opts.reference !== undefined && opts['no-reference'])
    throw new Usage('--reference and --no-reference exclude each other');
  if (opts.reference !== undefined) {
    if (!rule.isCheckout(opts.reference))
      throw new Usage(`--reference ${opts.reference}: not a checkout of ${rule.label} (needs ${rule.needs})`);
    return resolve(opts.reference);
  }
  if (opts['no-reference']) return null;
  return rule.find(statSync(dir).isFile() ? dirname(resolve(dir)) : resolve(dir));
}

/**
 * The common options of a batch run, checked: the folder, the endpoint, the limits, the PI guard, the prices and the
 * checkout. An option of another format's run (any not in COMMON or `own`) is a usage error naming it.
 */
export function parseBatchRun(
  args: string[],
  opts: RunCliOptions,
  env: Record<string, string | undefined>,
  { rule, own }: { rule: CheckoutRule; own: readonly string[] },
) {
  const [dir, extra] = args;
  if (!dir) throw new Usage('run needs a benchmark folder');
  if (extra !== undefined) throw new Usage(`unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Usage(`${dir}: no such file or folder`);
  const given = opts as Record<string, unknown>;
  const other = Object.keys(given).filter((o) => given[o] !== undefined && !COMMON.includes(o) && !own.includes(o));
  if (other.length > 0)
    throw new Usage(`${other.map((o) => `--${o}`).join(', ')}: not an option of ${article(rule.label)} run`);
  if (!opts['base-url']) throw new Usage('run needs --base-url URL');
  if (!opts.model) throw new Usage('run needs --model NAME');
  return {
    dir,
    baseURL: opts['base-url'],
    model: opts.model,
    user: opts.user ?? null,
    temperature: num('temperature', opts.temperature, (n) => n >= 0 && n <= 2),
    ...sendingOptions(opts, env),
    piGuard: piGuardOption(opts['pi-guard']),
    checkout: checkoutFor(dir, opts, rule),
  };
}

export type BatchRunArgs = ReturnType<typeof parseBatchRun>;

const article = (label: string) => (/^[AEIOU]/i.test(label) ? `an ${label}` : `a ${label}`);

/** Parses with `parse`; a usage error is printed with the command's usage and gives undefined (exit status 2). */
export function parseOrUsage<P>(io: RunCliIo, usage: string, parse: () => P): P | undefined {
  try {
    return parse();
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    io.stderr(`persona-lab: ${e.message}\nUsage:\n${usage}\n`);
    return undefined;
  }
}

/**
 * The request source: the checkout's (its own code runs on this machine, so that is said first), else the template.
 * undefined after saying why the checkout's cannot be used.
 */
export async function openRequestSource<S>(
  io: RunCliIo,
  parsed: BatchRunArgs,
  { runs, reference, template }: { runs: string; reference: () => Promise<S>; template: () => S },
): Promise<S | undefined> {
  if (!parsed.checkout) return template();
  io.stderr(`running ${runs} with ${parsed.python}\n`);
  try {
    return await reference();
  } catch (e) {
    io.stderr(
      `persona-lab: the benchmark's request cannot be rendered from ${parsed.checkout}: ${(e as Error).message}\n` +
        "  (pass --no-reference to run Persona Lab's template instead, which is not the benchmark's request)\n",
    );
    return undefined;
  }
}

/**
 * The endpoint the run sends to, and its transport through the PI guard over `outgoing` (what the run will send);
 * null after the guard refused and said why (exit status EXIT_PI_REFUSED).
 */
export function guardedEndpoint(
  parsed: BatchRunArgs,
  io: RunCliIo,
  outgoing: Iterable<OutgoingPrompt>,
): { endpoint: EndpointConfig; transport: ChatTransport } | null {
  const endpoint: EndpointConfig = {
    baseURL: parsed.baseURL,
    apiKey: io.env.OPENAI_API_KEY ?? '',
    model: parsed.model,
    timeoutMs: parsed.timeoutS * 1000,
    maxReplyBytes: parsed.maxReplyBytes,
  };
  const transport = cliPiGuard(outgoing, parsed, createOpenAITransport(endpoint), io);
  return transport && { endpoint, transport };
}

/** The run's abort: the test's signal when there is one (the CLI's main aborts on SIGINT / SIGTERM through it). */
export function runAbort(io: RunCliIo): AbortController {
  const controller = new AbortController();
  io.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}

/** A progress line: rewritten in place on a terminal, one line per change elsewhere (a log). */
export function progressLine(io: RunCliIo) {
  let last = '';
  return {
    show(line: string) {
      if (line === last) return;
      last = line;
      io.stderr(io.stderrIsTTY ? `\r${line}` : `${line}\n`);
    },
    end() {
      if (io.stderrIsTTY && last) io.stderr('\n');
    },
  };
}

/** Exit status when the PI guard refused to send prompts with residual PI. */
export const EXIT_PI_REFUSED = 4;
/** A run finished, but every request got the error record (wrong key, endpoint down, every reply too slow...). */
export const EXIT_ALL_FAILED = 5;
/** A run finished, and some of its requests got the error record. */
export const EXIT_SOME_FAILED = 6;

/** What every run's summary says of how it ended. */
interface Ended {
  status: RunStatus;
  manifest: unknown;
  error?: string | null;
}

/** A run that could not start (it wrote no manifest): says why, and gives true. */
export function neverStarted(io: RunCliIo, summary: Ended): boolean {
  if (summary.status !== 'failed' || summary.manifest) return false;
  io.stderr(`persona-lab: ${summary.error ?? 'the run failed'}\n`);
  return true;
}

/** The summary's last lines: how to resume a cancelled run, and the error that ended one. */
export function endLines(summary: Ended): string[] {
  return [
    ...(summary.status === 'cancelled' ? ['  cancelled: run the same command again to resume'] : []),
    ...(summary.error ? [`  error: ${summary.error}`] : []),
  ];
}

/**
 * Exit status of a run that started: 1 failed, 130 cancelled (resume by running the same command), else 0 when
 * nothing failed, 5 when everything did and 6 when some did.
 */
export function batchExit(status: RunStatus, allFailed: boolean, someFailed: boolean) {
  if (status === 'cancelled') return 130;
  if (status !== 'finished') return 1;
  return !someFailed ? 0 : allFailed ? EXIT_ALL_FAILED : EXIT_SOME_FAILED;
}
