// `persona-lab run` on an OmniBehavior folder: every test action (or one user's, or one) against an OpenAI-compatible
// endpoint into results/<out>/predictions.jsonl, resumable. Requests and readings come from the user's checkout of
// the OmniBehavior repository when there is one (runs its code), else from Persona Lab's own prompt, named so.
import { join } from 'node:path';
import { omniBehavior } from '../../../core/omni/format';
import { OMNI_TEMPLATE_MARK } from '../../../core/omni/run/manifest';
import { planOmni } from '../../../core/omni/run/plan';
import { runOmni, type OmniRunProgress } from '../../../core/omni/run/runner';
import { DEFAULT_MAX_HISTORY_TOKENS, type OmniPromptSource } from '../../../core/omni/run/source';
import { omniTemplateSource } from '../../../core/omni/run/template';
import { scoreOmniRun } from '../../../core/omni/score';
import { judgeCommandLine, overallText } from '../../../core/omni/overallReason';
import {
  findOmniReferenceCheckout,
  isOmniReferenceCheckout,
  OMNI_REFERENCE_FILES,
  omniReferenceSource,
} from '../../../core/omni/reference/source';
import { estimateLine, estimateRequests } from '../../../core/runner/estimate';
import { runNameProblem } from '../../../core/runner/runFolder';
import {
  batchExit,
  endLines,
  neverStarted,
  EXIT_PI_REFUSED,
  openRequestSource,
  parseBatchRun,
  parseOrUsage,
  progressLine,
  runAbort,
  type BatchRunCommand,
  guardedEndpoint,
  type CheckoutRule,
} from '../../batchRun';
import { num, Usage, type RunCliIo, type RunCliOptions } from '../../runArgs';

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

const OWN = ['index', 'max-history-tokens'];

export interface OmniRunCliOptions extends RunCliOptions {
  index?: string;
  'max-history-tokens'?: string;
}

/** Where the OmniBehavior repository's own code is found (the judge uses it too). */
export const OMNI_CHECKOUT: CheckoutRule = {
  label: 'OmniBehavior',
  isCheckout: isOmniReferenceCheckout,
  find: findOmniReferenceCheckout,
  needs: OMNI_REFERENCE_FILES.join(', '),
};

async function runOmniRunCommand(args: string[], opts: OmniRunCliOptions, io: RunCliIo): Promise<number> {
  const parsed = parseOrUsage(io, OMNI_RUN_USAGE, () => parse(args, opts, io.env));
  if (!parsed) return 2;
  const { bench } = await omniBehavior.load(parsed.dir, { runs: [parsed.out] });
  const source = await openRequestSource<OmniPromptSource>(io, parsed, {
    runs: `${join(parsed.checkout ?? '', 'src/models/prompt_builder.py')} (the benchmark's prompt builder)`,
    reference: () => omniReferenceSource(parsed.checkout ?? '', { python: parsed.python }),
    template: omniTemplateSource,
  });
  if (!source) return 1;
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
    const sending = guardedEndpoint(
      parsed,
      io,
      plan.requests.filter((r) => !r.done),
    );
    if (!sending) return EXIT_PI_REFUSED;
    const { endpoint, transport } = sending;
    const controller = runAbort(io);
    const line = progressLine(io);
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
      onProgress: (p: OmniRunProgress) =>
        line.show(`${parsed.out}: ${p.done}/${p.total} test actions, ${p.failed} with a failed question`),
    });
    line.end();
    if (neverStarted(io, summary)) return 1;
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
    lines.push(...endLines(summary));
    io.stdout(lines.join('\n') + '\n');
    return batchExit(summary.status, p.failed >= p.done, p.failed > 0);
  } finally {
    source.close();
  }
}

function parse(args: string[], opts: OmniRunCliOptions, env: Record<string, string | undefined>) {
  const common = parseBatchRun(args, opts, env, { rule: OMNI_CHECKOUT, own: OWN });
  if (!opts.out) throw new Usage('run needs --out NAME (the run folder under results/)');
  const nameProblem = runNameProblem(opts.out);
  if (nameProblem) throw new Usage(nameProblem);
  if (opts.index !== undefined && opts.user === undefined) throw new Usage('--index goes with --user ID');
  return {
    ...common,
    out: opts.out,
    index: num('index', opts.index, (n) => Number.isInteger(n) && n >= 0) ?? null,
    maxHistoryTokens:
      num('max-history-tokens', opts['max-history-tokens'], (n) => Number.isInteger(n) && n >= 0) ??
      DEFAULT_MAX_HISTORY_TOKENS,
  };
}

/** `persona-lab run` on an OmniBehavior folder (listed in cli/formats/index.ts). */
export const omniRun: BatchRunCommand<OmniRunCliOptions> = {
  usage: OMNI_RUN_USAGE,
  options: { index: { type: 'string' }, 'max-history-tokens': { type: 'string' } },
  run: runOmniRunCommand,
};
