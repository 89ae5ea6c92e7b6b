// `persona-lab run`: batch runs against an OpenAI-compatible endpoint into results/<out>/, resumable.
// The key comes from OPENAI_API_KEY only (may be empty for local servers) and is never printed or written.
import { existsSync, readFileSync } from 'node:fs';
import { loadBenchmark } from '../core/spb/load';
import { cacheOption } from './cacheOption';
import {
  decideGuard,
  findingLine,
  guardApplies,
  maskingTransport,
  maskOutgoing,
  scanOutgoing,
  type GuardSettings,
} from '../core/pi/guard';
import { createOpenAITransport, publicBaseURL, type ChatTransport } from '../core/runner/client';
import { plannedPrompts } from '../core/runner/preflight';
import type { RunHistory } from '../core/runner/history';
import type { StartPersona } from '../core/runner/manifest';
import { runBenchmark, type RunProgress } from '../core/runner/runner';
import { scoreRun } from '../core/spb/score/run';
import { isPlatform, type Platform } from '../core/spb/types';
import { DEFAULT_TEMPLATE } from '../core/spb/prompt';

/** Options of `run`, for parseArgs in main.ts (`--out` is shared with `baseline`). */
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
  temperature: { type: 'string' },
  'max-tokens': { type: 'string' },
  'system-message': { type: 'string' },
  history: { type: 'string' },
  'pi-guard': { type: 'string' },
  'pi-guard-loopback': { type: 'boolean' },
} as const;

export const RUN_USAGE = `  run <dir> --out NAME --base-url URL --model NAME [--template FILE]
      [--platform P] [--user ID] [--from-step N] [--persona full|none] [--base-run NAME]
      [--concurrency N] [--timeout S] [--temperature T] [--max-tokens N] [--system-message FILE]
      [--history FILE] [--pi-guard refuse|mask|send] [--pi-guard-loopback]
                                                           run a prompt template (default: the built-in one, which
                                                           \`template init\` writes out) against an OpenAI-compatible
                                                           endpoint into results/NAME/ (resumes when re-run);
                                                           key from OPENAI_API_KEY. Prompts to a non-loopback
                                                           endpoint that hold residual PI are refused (exit 4)
                                                           unless --pi-guard says mask (each finding replaced by
                                                           its placeholder) or send; --pi-guard-loopback guards
                                                           loopback endpoints too`;

export interface RunCliOptions {
  'no-cache'?: boolean;
  out?: string;
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
  temperature?: string;
  'max-tokens'?: string;
  'system-message'?: string;
  history?: string;
  'pi-guard'?: string;
  'pi-guard-loopback'?: boolean;
}

/** Exit status when the PI guard refused to send prompts with residual PI. */
export const EXIT_PI_REFUSED = 4;

export interface RunCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** for tests; the CLI itself aborts on SIGINT / SIGTERM */
  signal?: AbortSignal;
  stderrIsTTY?: boolean;
}

const defaultIo = (): RunCliIo => ({
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  stderrIsTTY: process.stderr.isTTY === true,
});

class Usage extends Error {}

function num(name: string, value: string | undefined, check: (n: number) => boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !check(n)) throw new Usage(`--${name}: invalid value "${value}"`);
  return n;
}

function readText(name: string, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Usage(`--${name}: cannot read ${path}: ${(e as Error).message}`);
  }
}

const pct = (x: number) => (Number.isNaN(x) ? '  n/a' : (100 * x).toFixed(1).padStart(5));

/**
 * The PI guard: a CLI cannot ask, so "ask" refuses. Returns the transport to use (masking or not), or null after
 * printing why it refused.
 */
function cliGuard(
  parsed: ParsedRun,
  bench: Awaited<ReturnType<typeof loadBenchmark>>,
  http: ChatTransport,
  io: RunCliIo,
): ChatTransport | null {
  const settings: GuardSettings = {
    mode: parsed.piGuard === 'send' ? 'off' : parsed.piGuard === 'mask' ? 'mask' : 'ask',
    guardLoopback: parsed.piGuardLoopback,
  };
  if (!guardApplies(parsed.baseURL, settings)) return http;
  const scan = scanOutgoing(
    plannedPrompts(bench, {
      template: parsed.template,
      systemMessage: parsed.systemMessage,
      personaMode: parsed.persona,
      platforms: parsed.platform ? [parsed.platform] : undefined,
      userId: parsed.user,
      fromStep: parsed.fromStep,
      startPersona: parsed.startPersona,
    }),
  );
  const action = decideGuard(settings, scan);
  if (action === 'send') return http;
  const n = scan.findings.length;
  if (action === 'mask') {
    io.stderr(
      `PI guard: masking ${n} residual PI finding${n === 1 ? '' : 's'} in ${scan.affected} of ${scan.prompts} prompts\n`,
    );
    return maskingTransport(http);
  }
  const lines = scan.findings.slice(0, 20).map((f) => `  ${findingLine(f)}`);
  if (n > 20) lines.push(`  … and ${n - 20} more`);
  io.stderr(
    `persona-lab: not sending: ${scan.affected} of ${scan.prompts} prompts to ${publicBaseURL(parsed.baseURL)} hold ${n} unredacted PI finding${n === 1 ? '' : 's'}:\n` +
      `${lines.join('\n')}\nRun again with --pi-guard mask (each finding replaced by its placeholder) or --pi-guard send.\n`,
  );
  return null;
}

/** Exit status: 0 finished, 1 failed, 2 usage error, 4 refused by the PI guard, 130 cancelled (resume by running the same command). */
export async function runRunCommand(args: string[], opts: RunCliOptions, ioIn?: RunCliIo): Promise<number> {
  const io = ioIn ?? defaultIo();
  let parsed;
  try {
    parsed = parseRunArgs(args, opts, io.env);
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    io.stderr(`persona-lab: ${e.message}\nUsage:\n${RUN_USAGE}\n`);
    return 2;
  }
  const { dir, template, systemMessage } = parsed;
  const bench = await loadBenchmark(dir, { runs: parsed.baseRun ? [parsed.baseRun] : [], ...cacheOption(opts) });
  const endpoint = {
    baseURL: parsed.baseURL,
    apiKey: io.env.OPENAI_API_KEY ?? '',
    model: parsed.model,
    temperature: parsed.temperature,
    maxTokens: parsed.maxTokens,
    timeoutMs: parsed.timeoutS * 1000,
  };
  const http = createOpenAITransport(endpoint);
  const transport = cliGuard(parsed, bench, http, io);
  if (!transport) return EXIT_PI_REFUSED;
  const masked = transport !== http;
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    io.stderr('\nstopping: finished steps are kept; run the same command again to resume\n');
    controller.abort();
  };
  const external = io.signal;
  external?.addEventListener('abort', () => controller.abort(), { once: true });
  if (!ioIn) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  let history: RunHistory | null = null;
  try {
    // Loaded only when asked for: a native module that fails to load must not break the other commands.
    if (parsed.history) history = (await import('../core/runner/history')).RunHistory.open(parsed.history);
    const baseURL = publicBaseURL(parsed.baseURL);
    let lastLine = '';
    const progress = (p: RunProgress) => {
      const line = `${opts.out}: ${p.done}/${p.total} steps, ${p.failed} failed, ${p.usersDone}/${p.usersTotal} users`;
      if (line === lastLine) return;
      lastLine = line;
      io.stderr(io.stderrIsTTY ? `\r${line}` : `${line}\n`);
    };
    const summary = await runBenchmark({
      bench,
      name: parsed.out,
      template,
      systemMessage,
      endpoint,
      transport,
      personaMode: parsed.persona,
      platforms: parsed.platform ? [parsed.platform] : undefined,
      userId: parsed.user,
      fromStep: parsed.fromStep,
      startPersona: parsed.startPersona,
      concurrency: parsed.concurrency,
      retry: parsed.retryBaseMs !== undefined ? { baseMs: parsed.retryBaseMs } : undefined,
      signal: controller.signal,
      onProgress: progress,
      onStep: (r) => {
        history?.record({ run: parsed.out, model: parsed.model, baseURL }, masked ? maskOutgoing(r) : r);
      },
    });
    if (io.stderrIsTTY && lastLine) io.stderr('\n');
    const p = summary.progress;
    if (summary.status === 'failed' && !summary.manifest) {
      io.stderr(`persona-lab: ${summary.error ?? 'the run failed'}\n`);
      return 1;
    }
    const lines = [
      `run ${parsed.out}: ${summary.status}${summary.resumed ? ' (resumed)' : ''}`,
      `  ${p.done}/${p.total} steps (${p.failed} with the error record), ${p.usersDone}/${p.usersTotal} users, ${p.requests} requests this session`,
      ...summary.files.map((f) => `  wrote ${f}`),
    ];
    const scored = await loadBenchmark(dir, { runs: [parsed.out], ...cacheOption(opts) });
    const run = scored.runs.get(parsed.out);
    if (run) {
      for (const [platform, fig] of scoreRun(scored, run).platforms) {
        lines.push(
          `  ${platform}: Recall ${pct(fig.metrics.Recall)} | F1NS ${pct(fig.f1ns)} | ${fig.users} users, ${fig.steps} scored steps`,
        );
      }
    }
    if (summary.status === 'cancelled') lines.push('  cancelled: run the same command again to resume');
    if (summary.error) lines.push(`  error: ${summary.error}`);
    io.stdout(lines.join('\n') + '\n');
    return summary.status === 'finished' ? 0 : summary.status === 'cancelled' ? 130 : 1;
  } finally {
    history?.close();
    if (!ioIn) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}

interface ParsedRun {
  dir: string;
  out: string;
  template: string;
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
  temperature: number;
  maxTokens: number | undefined;
  history: string | undefined;
  retryBaseMs: number | undefined;
  piGuard: 'refuse' | 'mask' | 'send';
  piGuardLoopback: boolean;
}

function parseRunArgs(args: string[], opts: RunCliOptions, env: Record<string, string | undefined>): ParsedRun {
  const [dir, extra] = args;
  if (!dir) throw new Usage('run needs a benchmark folder or tasks file');
  if (extra !== undefined) throw new Usage(`unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Usage(`${dir}: no such file or folder`);
  if (!opts.out) throw new Usage('run needs --out NAME (the run folder under results/)');
  if (!opts['base-url']) throw new Usage('run needs --base-url URL');
  if (!opts.model) throw new Usage('run needs --model NAME');
  // Without --template: the built-in template, the same the extension offers as "built-in default".
  const template = readText('template', opts.template) ?? DEFAULT_TEMPLATE;
  if (opts.platform !== undefined && !isPlatform(opts.platform))
    throw new Usage(`--platform: unknown platform "${opts.platform}"`);
  const persona = opts.persona ?? 'full';
  if (persona !== 'full' && persona !== 'none') throw new Usage('--persona must be full or none');
  const baseRun = opts['base-run'];
  const piGuard = opts['pi-guard'] ?? 'refuse';
  if (piGuard !== 'refuse' && piGuard !== 'mask' && piGuard !== 'send')
    throw new Usage('--pi-guard must be refuse, mask or send');
  return {
    dir,
    out: opts.out,
    template,
    systemMessage: readText('system-message', opts['system-message']),
    baseURL: opts['base-url'],
    model: opts.model,
    platform: opts.platform,
    user: opts.user ?? null,
    fromStep: num('from-step', opts['from-step'], (n) => Number.isInteger(n) && n >= 1) ?? 1,
    persona,
    baseRun,
    startPersona: baseRun ? { kind: 'run', run: baseRun } : { kind: 'none' },
    concurrency: num('concurrency', opts.concurrency, (n) => Number.isInteger(n) && n >= 1 && n <= 256) ?? 4,
    timeoutS: num('timeout', opts.timeout, (n) => n > 0) ?? 60,
    temperature: num('temperature', opts.temperature, (n) => n >= 0 && n <= 2) ?? 0,
    maxTokens: num('max-tokens', opts['max-tokens'], (n) => Number.isInteger(n) && n >= 1),
    history: opts.history,
    piGuard,
    piGuardLoopback: opts['pi-guard-loopback'] === true,
    // Undocumented, for the test suite: backoff base in ms (default 1000).
    retryBaseMs: num('PERSONA_LAB_RETRY_BASE_MS', env.PERSONA_LAB_RETRY_BASE_MS, (n) => n >= 0),
  };
}
