// `persona-lab run` on an OmniBehavior folder: every test action (or one user's, or one) against an OpenAI-compatible
// endpoint into results/<out>/predictions.jsonl, resumable. Requests and readings come from the user's checkout of
// the OmniBehavior repository when there is one (runs its code), else from Persona Lab's own prompt, named so.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { omniBehavior } from '../core/omni/format';
import { OMNI_TEMPLATE_MARK } from '../core/omni/run/manifest';
import { planOmni } from '../core/omni/run/plan';
import { runOmni, type OmniRunProgress } from '../core/omni/run/runner';
import { DEFAULT_MAX_HISTORY_TOKENS, type OmniPromptSource } from '../core/omni/run/source';
import { omniTemplateSource } from '../core/omni/run/template';
import { scoreOmniRun } from '../core/omni/score';
import { judgeCommandLine, overallText } from '../core/omni/overallReason';
import {
  findOmniReferenceCheckout,
  isOmniReferenceCheckout,
  OMNI_REFERENCE_FILES,
  omniReferenceSource,
} from '../core/omni/reference/source';
import { createOpenAITransport } from '../core/runner/client';
import { cliPiGuard, piGuardOption } from './piGuard';
import { estimateLine, estimateRequests } from '../core/runner/estimate';
import { DEFAULT_MAX_REPLY_BYTES } from '../core/runner/guardedFetch';
import { runNameProblem } from '../core/runner/runner';
import { num, timeoutSeconds, Usage, type RunCliIo, type RunCliOptions } from './runArgs';

export const OMNI_RUN_USAGE = `  run <omnibehavior dir> --out NAME --base-url URL --model NAME [--user ID [--index N]]
      [--temperature T] [--max-history-tokens N] [--concurrency N] [--timeout S] [--max-reply-mb N]
      [--pi-guard refuse|mask|send] [--pi-guard-loopback] [--input-per-mtok P] [--output-per-mtok P]
      [--dry-run] [--reference DIR | --no-reference] [--python EXE]
                                                           OmniBehavior: asks every question of each test action
                                                           (one user's with --user, one with --index), one request
                                                           per question, into results/NAME/predictions.jsonl
                                                           (resumes when re-run). When the folder is a checkout
                                                           of the OmniBehavior repository (its parents are never
                                                           looked at), or with --reference DIR, its
                                                           prompt_builder.py renders the prompts, its ModelCaller
                                                           sets each request's parameters and reads each reply;
                                                           elsewhere Persona Lab's own prompt, which is not the
                                                           benchmark's. --max-history-tokens: the history budget
                                                           (default ${DEFAULT_MAX_HISTORY_TOKENS}, the authors' runs)`;

const SPB_ONLY = [
  'template',
  'platform',
  'from-step',
  'persona',
  'base-run',
  'system-message',
  'only-failed',
  'max-tokens',
];

export interface OmniRunCliOptions extends RunCliOptions {
  index?: string;
  'max-history-tokens'?: string;
}

export function checkoutFor(dir: string, opts: OmniRunCliOptions): string | null {
  if (opts.reference !== undefined && opts['no-reference'])
    throw new Usage('--reference and --no-reference exclude each other');
  if (opts.reference !== undefined) {
    if (!isOmniReferenceCheckout(opts.reference))
      throw new Usage(
        `--reference ${opts.reference}: not a checkout of OmniBehavior (needs ${OMNI_REFERENCE_FILES.join(', ')})`,
      );
    return resolve(opts.reference);
  }
  if (opts['no-reference']) return null;
  const folder = statSync(dir).isFile() ? dirname(resolve(dir)) : resolve(dir);
  return findOmniReferenceCheckout(folder);
}

export async function runOmniRunCommand(args: string[], opts: OmniRunCliOptions, io: RunCliIo): Promise<number> {
  let parsed;
  try {
    parsed = parse(args, opts, io.env);
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    io.stderr(`persona-lab: ${e.message}\nUsage:\n${OMNI_RUN_USAGE}\n`);
    return 2;
  }
  const { bench } = await omniBehavior.load(parsed.dir, { runs: [parsed.out] });
  let source: OmniPromptSource;
  // Said before it runs: the checkout's own code is about to run on this machine.
  if (parsed.checkout)
    io.stderr(
      `running ${join(parsed.checkout, 'src/models/prompt_builder.py')} (the benchmark's prompt builder) with ${parsed.python}\n`,
    );
  try {
    source = parsed.checkout
      ? await omniReferenceSource(parsed.checkout, { python: parsed.python })
      : omniTemplateSource();
  } catch (e) {
    io.stderr(
      `persona-lab: the benchmark's prompt cannot be rendered from ${parsed.checkout}: ${(e as Error).message}\n` +
        "  (pass --no-reference to run Persona Lab's prompt instead, which is not the benchmark's)\n",
    );
    return 1;
  }
  try {
    io.stderr(
      source.kind === 'reference'
        ? `prompt: ${source.name} from ${source.checkout} (${source.id})\n`
        : `prompt: ${OMNI_TEMPLATE_MARK}\n`,
    );
    const selection = { userId: parsed.user, index: parsed.index };
    const plan = await planOmni(bench, source, parsed.out, selection, {
      model: parsed.model,
      temperature: parsed.temperature,
      maxHistoryTokens: parsed.maxHistoryTokens,
    });
    if (plan.problem) {
      io.stderr(`persona-lab: ${plan.problem}\n`);
      return 1;
    }
    for (const w of plan.warnings.slice(0, 20)) io.stderr(`warning: ${w}\n`);
    if (plan.warnings.length > 20) io.stderr(`warning: … and ${plan.warnings.length - 20} more\n`);
    io.stderr(`${parsed.out}: ${estimateLine(estimateRequests(plan.requests, parsed.prices), 'request')}\n`);
    if (parsed.dryRun) return 0;
    const endpoint = {
      baseURL: parsed.baseURL,
      apiKey: io.env.OPENAI_API_KEY ?? '',
      model: parsed.model,
      timeoutMs: parsed.timeoutS * 1000,
      maxReplyBytes: parsed.maxReplyBytes,
    };
    const transport = cliPiGuard(
      plan.requests.filter((r) => !r.done),
      parsed,
      createOpenAITransport(endpoint),
      io,
    );
    if (!transport) return 4;
    const controller = new AbortController();
    io.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    let last = '';
    const progress = (p: OmniRunProgress) => {
      const line = `${parsed.out}: ${p.done}/${p.total} test actions, ${p.failed} with a failed question`;
      if (line === last) return;
      last = line;
      io.stderr(io.stderrIsTTY ? `\r${line}` : `${line}\n`);
    };
    const summary = await runOmni({
      bench,
      name: parsed.out,
      source,
      endpoint,
      temperature: parsed.temperature,
      transport,
      selection,
      maxHistoryTokens: parsed.maxHistoryTokens,
      concurrency: parsed.concurrency,
      retry: parsed.retryBaseMs !== undefined ? { baseMs: parsed.retryBaseMs } : undefined,
      signal: controller.signal,
      onProgress: progress,
    });
    if (io.stderrIsTTY && last) io.stderr('\n');
    if (summary.status === 'failed' && !summary.manifest) {
      io.stderr(`persona-lab: ${summary.error ?? 'the run failed'}\n`);
      return 1;
    }
    const p = summary.progress;
    const lines = [
      `run ${parsed.out}: ${summary.status}${summary.resumed ? ' (resumed)' : ''}`,
      `  ${p.done}/${p.total} test actions (${p.failed} with a question whose attempts all failed), ${p.requests} requests this session`,
      `  wrote ${summary.file}`,
    ];
    const scored = await omniBehavior.load(parsed.dir, { runs: [parsed.out] });
    const run = scored.bench.runs.get(parsed.out);
    if (run) {
      const s = scoreOmniRun(scored.bench, run);
      // the same words as score's: why no overall (judge not run, components missing) and what the run covers
      lines.push(`  ${overallText(s, judgeCommandLine(parsed.dir, parsed.out))}`);
      lines.push(`  ${s.answered} answers scored, ${s.leftOut} left out`);
    }
    if (summary.status === 'cancelled') lines.push('  cancelled: run the same command again to resume');
    if (summary.error) lines.push(`  error: ${summary.error}`);
    io.stdout(lines.join('\n') + '\n');
    if (summary.status !== 'finished') return summary.status === 'cancelled' ? 130 : 1;
    return p.failed === 0 ? 0 : p.failed >= p.done ? 5 : 6;
  } finally {
    source.close();
  }
}

function parse(args: string[], opts: OmniRunCliOptions, env: Record<string, string | undefined>) {
  const [dir, extra] = args;
  if (!dir) throw new Usage('run needs a benchmark folder');
  if (extra !== undefined) throw new Usage(`unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Usage(`${dir}: no such file or folder`);
  const spbOnly = SPB_ONLY.filter((o) => opts[o as keyof OmniRunCliOptions] !== undefined);
  if (spbOnly.length > 0)
    throw new Usage(`${spbOnly.map((o) => `--${o}`).join(', ')}: StreamProfileBench options; ${dir} is OmniBehavior`);
  if (!opts.out) throw new Usage('run needs --out NAME (the run folder under results/)');
  const nameProblem = runNameProblem(opts.out);
  if (nameProblem) throw new Usage(nameProblem);
  if (!opts['base-url']) throw new Usage('run needs --base-url URL');
  if (!opts.model) throw new Usage('run needs --model NAME');
  if (opts.index !== undefined && opts.user === undefined) throw new Usage('--index goes with --user ID');
  const piGuard = piGuardOption(opts['pi-guard']);
  return {
    dir,
    out: opts.out,
    baseURL: opts['base-url'],
    model: opts.model,
    user: opts.user ?? null,
    index: num('index', opts.index, (n) => Number.isInteger(n) && n >= 0) ?? null,
    temperature: num('temperature', opts.temperature, (n) => n >= 0 && n <= 2),
    maxHistoryTokens:
      num('max-history-tokens', opts['max-history-tokens'], (n) => Number.isInteger(n) && n >= 0) ??
      DEFAULT_MAX_HISTORY_TOKENS,
    concurrency: num('concurrency', opts.concurrency, (n) => Number.isInteger(n) && n >= 1 && n <= 256) ?? 4,
    timeoutS: timeoutSeconds(opts.timeout),
    maxReplyBytes:
      (num('max-reply-mb', opts['max-reply-mb'], (n) => n > 0 && n <= 4096) ?? DEFAULT_MAX_REPLY_BYTES / 1048576) *
      1048576,
    piGuard,
    piGuardLoopback: opts['pi-guard-loopback'] === true,
    retryBaseMs: num('PERSONA_LAB_RETRY_BASE_MS', env.PERSONA_LAB_RETRY_BASE_MS, (n) => n >= 0),
    prices: {
      inputPerMTok: num('input-per-mtok', opts['input-per-mtok'], (n) => n >= 0),
      outputPerMTok: num('output-per-mtok', opts['output-per-mtok'], (n) => n >= 0),
    },
    dryRun: opts['dry-run'] === true,
    checkout: checkoutFor(dir, opts),
    python: opts.python ?? 'python3',
  };
}
