// `persona-lab run` on a PersonaMem folder: one split's questions (or one persona's) against an OpenAI-compatible
// endpoint into results/eval_results_<size>_<out>.csv, the authors' results columns, resumable. The request comes
// from the user's checkout of the PersonaMem repository when there is one (runs its inference.py's code), else from
// the Persona Lab template, named so.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { personaMem } from '../core/personamem/format';
import { findPmReferenceCheckout, isPmReferenceCheckout, pmReferenceSource } from '../core/personamem/reference/source';
import { planPersonaMem } from '../core/personamem/run/plan';
import { resultsFileName, runPersonaMem, type PmRunProgress } from '../core/personamem/run/runner';
import { pmTemplateSource, type PmRequestSource } from '../core/personamem/run/source';
import { scorePersonaMemRun } from '../core/personamem/score';
import { createOpenAITransport } from '../core/runner/client';
import { estimateLine, estimateRequests } from '../core/runner/estimate';
import { DEFAULT_MAX_REPLY_BYTES } from '../core/runner/guardedFetch';
import { runNameProblem } from '../core/runner/runner';
import { cliPiGuard, piGuardOption } from './piGuard';
import { num, timeoutSeconds, Usage, type RunCliIo, type RunCliOptions } from './runArgs';

export const PM_RUN_USAGE = `  run <personamem dir> --base-url URL --model NAME [--size SIZE] [--out NAME] [--user PERSONA_ID]
      [--temperature T] [--concurrency N] [--timeout S] [--max-reply-mb N]
      [--pi-guard refuse|mask|send] [--pi-guard-loopback] [--input-per-mtok P] [--output-per-mtok P]
      [--dry-run] [--reference DIR | --no-reference] [--python EXE]
                                                           PersonaMem: asks each question of a split (--size, needed
                                                           when the folder has several; one persona's with --user)
                                                           with its history up to end_index_in_shared_context, into
                                                           results/eval_results_SIZE_NAME.csv in the authors' columns
                                                           (NAME: --out, else the model's name; resumes when re-run,
                                                           asking only questions without a row). When the folder is
                                                           a checkout of the PersonaMem repository (its parents are
                                                           never looked at), or with --reference DIR, its
                                                           inference.py builds each request and reads each reply;
                                                           elsewhere the Persona Lab template, which is not the
                                                           benchmark's request`;

const NOT_HERE = [
  'template',
  'platform',
  'from-step',
  'persona',
  'base-run',
  'system-message',
  'only-failed',
  'max-tokens',
  'index',
  'max-history-tokens',
  'history',
];

export interface PmRunCliOptions extends RunCliOptions {
  size?: string;
  index?: string;
  'max-history-tokens'?: string;
}

function checkoutFor(dir: string, opts: PmRunCliOptions): string | null {
  if (opts.reference !== undefined && opts['no-reference'])
    throw new Usage('--reference and --no-reference exclude each other');
  if (opts.reference !== undefined) {
    if (!isPmReferenceCheckout(opts.reference))
      throw new Usage(
        `--reference ${opts.reference}: not a checkout of PersonaMem (needs inference.py with its Evaluation)`,
      );
    return resolve(opts.reference);
  }
  if (opts['no-reference']) return null;
  return findPmReferenceCheckout(statSync(dir).isFile() ? dirname(resolve(dir)) : resolve(dir));
}

/** A model's name as a run name: what the file name cannot hold becomes "-". */
const runNameOf = (model: string) => model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '') || 'run';

function parse(args: string[], opts: PmRunCliOptions, env: Record<string, string | undefined>) {
  const [dir, extra] = args;
  if (!dir) throw new Usage('run needs a benchmark folder');
  if (extra !== undefined) throw new Usage(`unexpected argument "${extra}"`);
  if (!existsSync(dir)) throw new Usage(`${dir}: no such file or folder`);
  const other = NOT_HERE.filter((o) => opts[o as keyof PmRunCliOptions] !== undefined);
  if (other.length > 0) throw new Usage(`${other.map((o) => `--${o}`).join(', ')}: not an option of a PersonaMem run`);
  if (!opts['base-url']) throw new Usage('run needs --base-url URL');
  if (!opts.model) throw new Usage('run needs --model NAME');
  const out = opts.out ?? runNameOf(opts.model);
  const nameProblem = runNameProblem(out);
  if (nameProblem) throw new Usage(nameProblem);
  return {
    dir,
    out,
    size: opts.size,
    baseURL: opts['base-url'],
    model: opts.model,
    user: opts.user ?? null,
    temperature: num('temperature', opts.temperature, (n) => n >= 0 && n <= 2),
    concurrency: num('concurrency', opts.concurrency, (n) => Number.isInteger(n) && n >= 1 && n <= 256) ?? 4,
    timeoutS: timeoutSeconds(opts.timeout),
    maxReplyBytes:
      (num('max-reply-mb', opts['max-reply-mb'], (n) => n > 0 && n <= 4096) ?? DEFAULT_MAX_REPLY_BYTES / 1048576) *
      1048576,
    piGuard: piGuardOption(opts['pi-guard']),
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

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(2)}%`);

/**
 * Exit status: 0 finished, 1 failed, 2 usage error, 4 refused by the PI guard, 5 finished with every request failed,
 * 6 finished with some failed (asked again on the next run), 130 cancelled (resume by running the same command).
 */
export async function runPersonaMemRunCommand(args: string[], opts: PmRunCliOptions, io: RunCliIo): Promise<number> {
  let parsed;
  try {
    parsed = parse(args, opts, io.env);
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    io.stderr(`persona-lab: ${e.message}\nUsage:\n${PM_RUN_USAGE}\n`);
    return 2;
  }
  const { bench } = await personaMem.load(parsed.dir, { runs: [] });
  const sizes = [...bench.splits.keys()];
  const size = parsed.size ?? (sizes.length === 1 ? sizes[0] : undefined);
  if (size === undefined || !bench.splits.has(size)) {
    const why = parsed.size === undefined ? 'the folder has several splits' : `no split ${parsed.size}`;
    io.stderr(`persona-lab: ${why}: pass --size ${sizes.join(' | ') || 'SIZE'}\nUsage:\n${PM_RUN_USAGE}\n`);
    return 2;
  }
  const plan = planPersonaMem(bench, size, parsed.out, { personaId: parsed.user });
  if (plan.problem) {
    io.stderr(`persona-lab: ${plan.problem}\n`);
    return 1;
  }
  const file = join(bench.root, 'results', resultsFileName(size, parsed.out));
  io.stderr(`${parsed.out}: ${estimateLine(estimateRequests(plan.requests, parsed.prices), 'question')}\n`);
  if (parsed.dryRun) return 0;
  let source: PmRequestSource;
  // Said before it runs: the checkout's own code is about to run on this machine.
  if (parsed.checkout)
    io.stderr(`running ${join(parsed.checkout, 'inference.py')} (the benchmark's request) with ${parsed.python}\n`);
  try {
    source = parsed.checkout ? await pmReferenceSource(parsed.checkout, { python: parsed.python }) : pmTemplateSource();
  } catch (e) {
    io.stderr(
      `persona-lab: the benchmark's request cannot be rendered from ${parsed.checkout}: ${(e as Error).message}\n` +
        "  (pass --no-reference to run the Persona Lab template instead, which is not the benchmark's request)\n",
    );
    return 1;
  }
  try {
    io.stderr(
      source.kind === 'reference'
        ? `request: ${source.name} from ${source.checkout} (${source.id})\n`
        : `request: ${source.name}\n`,
    );
    const endpoint = {
      baseURL: parsed.baseURL,
      apiKey: io.env.OPENAI_API_KEY ?? '',
      model: parsed.model,
      timeoutMs: parsed.timeoutS * 1000,
      maxReplyBytes: parsed.maxReplyBytes,
    };
    const transport = cliPiGuard(plan.outgoing, parsed, createOpenAITransport(endpoint), io);
    if (!transport) return 4;
    const controller = new AbortController();
    io.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    let last = '';
    const progress = (p: PmRunProgress) => {
      const line = `${parsed.out}: ${p.done}/${p.total} questions answered, ${p.failed} failed requests`;
      if (line === last) return;
      last = line;
      io.stderr(io.stderrIsTTY ? `\r${line}` : `${line}\n`);
    };
    const summary = await runPersonaMem({
      bench,
      size,
      name: parsed.out,
      source,
      endpoint,
      temperature: parsed.temperature,
      transport,
      selection: { personaId: parsed.user },
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
      `run ${parsed.out} (${size}): ${summary.status}${summary.resumed ? ' (resumed)' : ''}`,
      `  ${p.done}/${p.total} questions answered (${p.failed} requests failed: no row, asked again next time), ${p.requests} requests this session`,
      ...summary.errors.map((e) => `  failed: ${e}`),
      `  wrote ${file}`,
    ];
    const scored = await personaMem.load(parsed.dir, { runs: [`${size}_${parsed.out}`] });
    const run = scored.bench.runs.get(`${size}_${parsed.out}`);
    if (run) {
      const s = scorePersonaMemRun(scored.bench, run);
      lines.push(
        `  accuracy ${pct(s.overall.accuracy)} (${s.overall.correct} of ${s.overall.answered} answered; ${s.unreadable} replies name no single option, scored wrong as the authors' code scores them)`,
      );
    }
    if (summary.status === 'cancelled') lines.push('  cancelled: run the same command again to resume');
    if (summary.error) lines.push(`  error: ${summary.error}`);
    io.stdout(lines.join('\n') + '\n');
    if (summary.status === 'failed') return 1;
    if (summary.status === 'cancelled') return 130;
    return p.failed === 0 ? 0 : p.done === 0 ? 5 : 6;
  } finally {
    source.close();
  }
}
