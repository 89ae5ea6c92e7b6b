// StreamProfileBench's options of `run` (and of `experiment` and `long-context`, which run the same way): parsing
// and checking, no side effects.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { findReferenceCheckout, isReferenceCheckout } from '../../../core/spb/reference/source';
import type { StartPersona } from '../../../core/runner/manifest';
import { runNameProblem } from '../../../core/runner/runFolder';
import type { Prices } from '../../../core/runner/estimate';
import { isPlatform, type Platform } from '../../../core/spb/types';
import { DEFAULT_TEMPLATE } from '../../../core/spb/prompt/prompt';
import { BUILTIN_TEMPLATE_NAME, templateNameOf } from '../../../core/spb/prompt/templateFiles';
import { readRegularText } from '../../../core/io/safeFs';
import { num, sendingOptions, Usage, type RunCliOptions } from '../../runArgs';

/** Its options of `run` (each format's run adds its own: cli/formats/index.ts joins them). */
export const RUN_OPTIONS = {
  template: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  platform: { type: 'string' },
  user: { type: 'string' },
  'from-step': { type: 'string' },
  persona: { type: 'string' },
  'base-run': { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  'max-reply-mb': { type: 'string' },
  temperature: { type: 'string' },
  'max-tokens': { type: 'string' },
  'system-message': { type: 'string' },
  history: { type: 'string' },
  'pi-guard': { type: 'string' },
  'pi-guard-loopback': { type: 'boolean' },
  'input-per-mtok': { type: 'string' },
  'output-per-mtok': { type: 'string' },
  reference: { type: 'string' },
  'no-reference': { type: 'boolean' },
  python: { type: 'string' },
  'only-failed': { type: 'string' },
} as const;

export const RUN_USAGE = `  run <dir> --out NAME --base-url URL --model NAME [--template FILE]
      [--platform P] [--user ID] [--from-step N] [--persona full|none] [--base-run NAME]
      [--concurrency N] [--timeout S] [--max-reply-mb N] [--temperature T] [--max-tokens N]
      [--system-message FILE]
      [--history FILE] [--pi-guard refuse|mask|send] [--pi-guard-loopback]
      [--input-per-mtok PRICE] [--output-per-mtok PRICE] [--dry-run]
      [--reference DIR | --no-reference] [--python EXE] [--only-failed FROM]
                                                           run the benchmark's own prompt or a template against
                                                           an OpenAI-compatible endpoint. When the folder is a
                                                           checkout of the StreamProfileBench repository (its
                                                           parents are never looked at), or given --reference DIR,
                                                           the default is the benchmark's prompt, rendered by the
                                                           checkout's bench_task.py with its system message and
                                                           temperature (runs its code with --python, default
                                                           python3); elsewhere, or with --template FILE or
                                                           --no-reference, a template (default: Persona Lab's
                                                           built-in one, which \`template init\` writes out, not the
                                                           benchmark's prompt). Writes
                                                           results/NAME/ (resumes when re-run);
                                                           key from OPENAI_API_KEY. Prompts to a non-loopback
                                                           endpoint that hold residual PI are refused (exit 4)
                                                           unless --pi-guard says mask (each finding replaced by
                                                           its placeholder) or send; --pi-guard-loopback guards
                                                           loopback endpoints too. Before sending it prints the
                                                           requests and an estimate of the prompt tokens (and of
                                                           the cost, given prices per million tokens); --dry-run
                                                           stops there. --timeout (default 60, at most 86400)
                                                           bounds each attempt, headers and body; a reply over
                                                           --max-reply-mb (default 8) is cut off; redirects are
                                                           not followed. Exit 5 when every step failed, 6 when
                                                           some did. --only-failed FROM: NAME becomes a copy of run
                                                           FROM in which only its failed requests (the reference's
                                                           error record) are sent again, each with the persona it
                                                           received; FROM is left as it is`;

function readText(name: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readRegularText(path);
  } catch (e) {
    throw new Usage(`--${name}: cannot read ${path}: ${(e as Error).message}`);
  }
}

export interface ParsedRun {
  dir: string;
  out: string;
  template: string;
  /** the template file's name, or the built-in template's */
  templateName: string;
  systemMessage: string | undefined;
  baseURL: string;
  model: string;
  platform: Platform | undefined;
  user: string | null;
  fromStep: number;
  persona: 'full' | 'none';
  baseRun: string | undefined;
  startPersona: StartPersona;
  concurrency: number;
  timeoutS: number;
  maxReplyBytes: number;
  temperature: number;
  maxTokens: number | undefined;
  history: string | undefined;
  retryBaseMs: number | undefined;
  piGuard: 'refuse' | 'mask' | 'send';
  piGuardLoopback: boolean;
  /** only these users per platform (an experiment's sample) */
  users?: Partial<Record<Platform, string[]>>;
  prices: Prices;
  /** print the estimate and stop before anything is sent */
  dryRun: boolean;
  /** the checkout whose bench_task.py renders the requests; null: the template */
  reference: string | null;
  python: string;
  /** the run whose failed requests are sent again into a copy (--only-failed) */
  onlyFailed: string | undefined;
}

/** The checkout that renders `run`'s requests: --reference, else the folder itself when it is one (never a parent). */
function referenceFor(dir: string, opts: RunCliOptions, command: string): string | null {
  const given = opts.reference;
  if (given !== undefined && (opts['no-reference'] || opts.template !== undefined))
    throw new Usage('--reference goes with neither --template nor --no-reference');
  if (given !== undefined) {
    if (command !== 'run') throw new Usage(`--reference is an option of run, not of ${command}`);
    if (!isReferenceCheckout(given))
      throw new Usage(
        `--reference ${given}: not a checkout of StreamProfileBench (no bench_task.py and bench_inference.py)`,
      );
    return resolve(given);
  }
  if (command !== 'run' || opts['no-reference'] || opts.template !== undefined) return null;
  let folder = resolve(dir);
  try {
    if (statSync(folder).isFile()) folder = dirname(folder);
  } catch {
    return null;
  }
  const found = findReferenceCheckout(folder);
  if (found && (opts['system-message'] !== undefined || opts.temperature !== undefined))
    throw new Usage(
      `${found} is a checkout of StreamProfileBench: its bench_inference.py sets the system message and temperature; pass --no-reference to send other ones with a template`,
    );
  return found;
}

/** `command` names the command in messages; an experiment names its own run folder, so --out is optional there. */
export function parseRunArgs(
  args: string[],
  opts: RunCliOptions,
  env: Record<string, string | undefined>,
  command: 'run' | 'experiment' | 'long-context' = 'run',
): ParsedRun {
  const [dir, extra] = args;
  if (!dir) throw new Usage(`${command} needs a benchmark folder or tasks file`);
  if (extra !== undefined) throw new Usage(`unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Usage(`${dir}: no such file or folder`);
  if (!opts.out && command === 'run') throw new Usage('run needs --out NAME (the run folder under results/)');
  // checked here, so that --dry-run refuses what the run itself would (and reads no journal outside results/)
  const nameProblem = command === 'run' ? runNameProblem(opts.out) : null;
  if (nameProblem) throw new Usage(nameProblem);
  if (!opts['base-url']) throw new Usage(`${command} needs --base-url URL`);
  if (!opts.model) throw new Usage(`${command} needs --model NAME`);
  // Without --template: the built-in template, the same the extension offers as BUILTIN_TEMPLATE_NAME.
  const template = readText('template', opts.template) ?? DEFAULT_TEMPLATE;
  if (opts.platform !== undefined && !isPlatform(opts.platform))
    throw new Usage(`--platform: unknown platform "${opts.platform}"`);
  const persona = opts.persona ?? 'full';
  if (persona !== 'full' && persona !== 'none') throw new Usage('--persona must be full or none');
  const reference = referenceFor(dir, opts, command);
  if (
    reference &&
    opts.reference !== undefined &&
    (opts['system-message'] !== undefined || opts.temperature !== undefined)
  )
    throw new Usage(
      "--reference sends the checkout's own system message and temperature; --system-message and --temperature go with a template",
    );
  const baseRun = opts['base-run'];
  const onlyFailed = opts['only-failed'];
  if (onlyFailed !== undefined) {
    if (command !== 'run') throw new Usage(`--only-failed is an option of run, not of ${command}`);
    if (onlyFailed === opts.out)
      throw new Usage(`--only-failed ${onlyFailed}: give the copy another --out NAME (FROM is left as it is)`);
    const selecting = (['platform', 'user', 'from-step', 'base-run'] as const).filter((o) => opts[o] !== undefined);
    if (selecting.length || persona === 'none')
      throw new Usage(
        `--only-failed sends FROM's failed steps with the persona each received; it takes no ${selecting.length ? selecting.map((o) => `--${o}`).join(', ') : '--persona none'}`,
      );
  }
  const piGuard = opts['pi-guard'] ?? 'refuse';
  if (piGuard !== 'refuse' && piGuard !== 'mask' && piGuard !== 'send')
    throw new Usage('--pi-guard must be refuse, mask or send');
  return {
    dir,
    out: opts.out ?? '',
    template,
    templateName: opts.template !== undefined ? templateNameOf(opts.template) : BUILTIN_TEMPLATE_NAME,
    systemMessage: readText('system-message', opts['system-message']),
    baseURL: opts['base-url'],
    model: opts.model,
    platform: opts.platform,
    user: opts.user ?? null,
    fromStep: num('from-step', opts['from-step'], (n) => Number.isInteger(n) && n >= 1) ?? 1,
    persona,
    baseRun,
    startPersona: baseRun ? { kind: 'run', run: baseRun } : { kind: 'none' },
    ...sendingOptions(opts, env),
    piGuard,
    temperature: num('temperature', opts.temperature, (n) => n >= 0 && n <= 2) ?? 0,
    maxTokens: num('max-tokens', opts['max-tokens'], (n) => Number.isInteger(n) && n >= 1),
    history: opts.history,
    reference,
    onlyFailed,
  };
}
