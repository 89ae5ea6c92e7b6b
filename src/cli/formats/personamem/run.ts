// `persona-lab run` on a PersonaMem folder: one split's questions (or one persona's) against an OpenAI-compatible
// endpoint into results/eval_results_<size>_<out>.csv, the authors' results columns, resumable. The request comes
// from the user's checkout of the PersonaMem repository when there is one (runs its inference.py's code), else from
// the Persona Lab template, named so.
import { join } from 'node:path';
import { personaMem } from '../../../core/personamem/format';
import {
  findPmReferenceCheckout,
  isPmReferenceCheckout,
  pmReferenceSource,
} from '../../../core/personamem/reference/source';
import { planPersonaMem } from '../../../core/personamem/run/plan';
import {
  resultsFileName,
  runNameOfModel,
  runPersonaMem,
  type PmRunProgress,
  type PmRunSummary,
  type PmSelection,
} from '../../../core/personamem/run/runner';
import { pmTemplateSource, type PmRequestSource } from '../../../core/personamem/run/source';
import { scorePersonaMemRun } from '../../../core/personamem/score';
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
  type BatchRunArgs,
  type BatchRunCommand,
  guardedEndpoint,
  type CheckoutRule,
} from '../../batchRun';
import { Usage, type RunCliIo, type RunCliOptions } from '../../runArgs';

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

export interface PmRunCliOptions extends RunCliOptions {
  size?: string;
}

const OWN = ['size'];

export const PM_CHECKOUT_RULE: CheckoutRule = {
  label: 'PersonaMem',
  isCheckout: isPmReferenceCheckout,
  find: findPmReferenceCheckout,
  needs: 'inference.py with its Evaluation',
};

function parse(args: string[], opts: PmRunCliOptions, env: Record<string, string | undefined>) {
  const common = parseBatchRun(args, opts, env, { rule: PM_CHECKOUT_RULE, own: OWN });
  const out = opts.out ?? runNameOfModel(common.model);
  const nameProblem = runNameProblem(out);
  if (nameProblem) throw new Usage(nameProblem);
  return { ...common, out, size: opts.size };
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(2)}%`);

/** What a PersonaMem run asks: the questions of `selection` in split `size` (undefined: the folder's one split). */
export interface PmRunScope {
  size: string | undefined;
  selection: PmSelection;
  /** the run's name (the results file's <name>) */
  out: string;
}

/** How a run went: its exit status, and the summary and split when it ran. */
export interface PmRunOutcome {
  code: number;
  summary?: PmRunSummary;
  size?: string;
}

/**
 * Runs (or resumes) the scope's questions, printing its estimate, progress and summary. Exit status: 0 finished,
 * 1 failed, 2 usage error, 4 refused by the PI guard, 5 finished with every request failed, 6 finished with some
 * failed (asked again on the next run), 130 cancelled (resume by running the same command).
 */
export async function executePmRun(parsed: BatchRunArgs, scope: PmRunScope, io: RunCliIo): Promise<PmRunOutcome> {
  const { bench } = await personaMem.load(parsed.dir, { runs: [] });
  const sizes = [...bench.splits.keys()];
  const size = scope.size ?? (sizes.length === 1 ? sizes[0] : undefined);
  if (size === undefined || !bench.splits.has(size)) {
    const why = scope.size === undefined ? 'the folder has several splits' : `no split ${scope.size}`;
    io.stderr(`persona-lab: ${why}: pass --size ${sizes.join(' | ') || 'SIZE'}\nUsage:\n${PM_RUN_USAGE}\n`);
    return { code: 2 };
  }
  const out = scope.out;
  const plan = planPersonaMem(bench, size, out, scope.selection);
  if (plan.problem) {
    io.stderr(`persona-lab: ${plan.problem}\n`);
    return { code: 1 };
  }
  const file = join(bench.root, 'results', resultsFileName(size, out));
  io.stderr(`${out}: ${estimateLine(estimateRequests(plan.requests, parsed.prices), 'question')}\n`);
  if (parsed.dryRun) return { code: 0 };
  const source = await openRequestSource<PmRequestSource>(io, parsed, {
    runs: `${join(parsed.checkout ?? '', 'inference.py')} (the benchmark's request)`,
    reference: () => pmReferenceSource(parsed.checkout ?? '', { python: parsed.python }),
    template: pmTemplateSource,
  });
  if (!source) return { code: 1 };
  try {
    io.stderr(
      source.kind === 'reference'
        ? `request: ${source.name} from ${source.checkout} (${source.id})\n`
        : `request: ${source.name}\n`,
    );
    const sending = guardedEndpoint(parsed, io, plan.outgoing);
    if (!sending) return { code: EXIT_PI_REFUSED };
    const { endpoint, transport } = sending;
    const controller = runAbort(io);
    const line = progressLine(io);
    const summary = await runPersonaMem({
      bench,
      size,
      name: out,
      source,
      endpoint,
      temperature: parsed.temperature,
      transport,
      selection: scope.selection,
      concurrency: parsed.concurrency,
      retry: parsed.retryBaseMs !== undefined ? { baseMs: parsed.retryBaseMs } : undefined,
      signal: controller.signal,
      onProgress: (p: PmRunProgress) =>
        line.show(`${out}: ${p.done}/${p.total} questions answered, ${p.failed} failed requests`),
    });
    line.end();
    if (neverStarted(io, summary)) return { code: 1 };
    const p = summary.progress;
    const lines = [
      `run ${out} (${size}): ${summary.status}${summary.resumed ? ' (resumed)' : ''}`,
      `  ${p.done}/${p.total} questions answered (${p.failed} requests failed: no row, asked again next time), ${p.requests} requests this session`,
      ...summary.errors.map((e) => `  failed: ${e}`),
      `  wrote ${file}`,
    ];
    const scored = await personaMem.load(parsed.dir, { runs: [`${size}_${out}`] });
    const run = scored.bench.runs.get(`${size}_${out}`);
    if (run) {
      const s = scorePersonaMemRun(scored.bench, run);
      lines.push(
        `  accuracy ${pct(s.overall.accuracy)} (${s.overall.correct} of ${s.overall.answered} answered; ${s.unreadable} replies name no single option, scored wrong as the authors' code scores them)`,
      );
    }
    lines.push(...endLines(summary));
    io.stdout(lines.join('\n') + '\n');
    return { code: batchExit(summary.status, p.done === 0, p.failed > 0), summary, size };
  } finally {
    source.close();
  }
}

async function runPersonaMemRunCommand(args: string[], opts: PmRunCliOptions, io: RunCliIo): Promise<number> {
  const parsed = parseOrUsage(io, PM_RUN_USAGE, () => parse(args, opts, io.env));
  if (!parsed) return 2;
  const scope = { size: parsed.size, selection: { personaId: parsed.user }, out: parsed.out };
  return (await executePmRun(parsed, scope, io)).code;
}

/** `persona-lab run` on a PersonaMem folder (listed in cli/formats/index.ts). */
export const personaMemRun: BatchRunCommand<PmRunCliOptions> = {
  usage: PM_RUN_USAGE,
  options: { size: { type: 'string' } },
  run: runPersonaMemRunCommand,
};
