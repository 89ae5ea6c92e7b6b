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
} from '../../../core/personamem/run/runner';
import { pmTemplateSource, type PmRequestSource } from '../../../core/personamem/run/source';
import { scorePersonaMemRun } from '../../../core/personamem/score';
import { estimateLine, estimateRequests } from '../../../core/runner/estimate';
import { runNameProblem } from '../../../core/runner/runner';
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

const RULE: CheckoutRule = {
  label: 'PersonaMem',
  isCheckout: isPmReferenceCheckout,
  find: findPmReferenceCheckout,
  needs: 'inference.py with its Evaluation',
};

function parse(args: string[], opts: PmRunCliOptions, env: Record<string, string | undefined>) {
  const common = parseBatchRun(args, opts, env, { rule: RULE, own: OWN });
  const out = opts.out ?? runNameOfModel(common.model);
  const nameProblem = runNameProblem(out);
  if (nameProblem) throw new Usage(nameProblem);
  return { ...common, out, size: opts.size };
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(2)}%`);

/**
 * Exit status: 0 finished, 1 failed, 2 usage error, 4 refused by the PI guard, 5 finished with every request failed,
 * 6 finished with some failed (asked again on the next run), 130 cancelled (resume by running the same command).
 */
async function runPersonaMemRunCommand(args: string[], opts: PmRunCliOptions, io: RunCliIo): Promise<number> {
  const parsed = parseOrUsage(io, PM_RUN_USAGE, () => parse(args, opts, io.env));
  if (!parsed) return 2;
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
  const source = await openRequestSource<PmRequestSource>(io, parsed, {
    runs: `${join(parsed.checkout ?? '', 'inference.py')} (the benchmark's request)`,
    reference: () => pmReferenceSource(parsed.checkout ?? '', { python: parsed.python }),
    template: pmTemplateSource,
  });
  if (!source) return 1;
  try {
    io.stderr(
      source.kind === 'reference'
        ? `request: ${source.name} from ${source.checkout} (${source.id})\n`
        : `request: ${source.name}\n`,
    );
    const sending = guardedEndpoint(parsed, io, plan.outgoing);
    if (!sending) return EXIT_PI_REFUSED;
    const { endpoint, transport } = sending;
    const controller = runAbort(io);
    const line = progressLine(io);
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
      onProgress: (p: PmRunProgress) =>
        line.show(`${parsed.out}: ${p.done}/${p.total} questions answered, ${p.failed} failed requests`),
    });
    line.end();
    if (neverStarted(io, summary)) return 1;
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
    lines.push(...endLines(summary));
    io.stdout(lines.join('\n') + '\n');
    return batchExit(summary.status, p.done === 0, p.failed > 0);
  } finally {
    source.close();
  }
}

/** `persona-lab run` on a PersonaMem folder (listed in cli/formats/index.ts). */
export const personaMemRun: BatchRunCommand<PmRunCliOptions> = {
  usage: PM_RUN_USAGE,
  options: { size: { type: 'string' } },
  run: runPersonaMemRunCommand,
};
