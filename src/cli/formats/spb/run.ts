// StreamProfileBench's `persona-lab run`: batch runs against an OpenAI-compatible endpoint into results/<out>/,
// resumable. The key comes from OPENAI_API_KEY only (may be empty for local servers) and is never printed or written.
import { join } from 'node:path';
import { loadBenchmark } from '../../../core/spb/format/load';
import { EXIT_ALL_FAILED, EXIT_SOME_FAILED, EXIT_PI_REFUSED, type BatchRunCommand } from '../../batchRun';
import { cacheOption } from '../../cacheOption';
import { cliPiGuard } from '../../piGuard';
import { maskOutgoing } from '../../../core/pi/guard';
import { createOpenAITransport, publicBaseURL } from '../../../core/runner/client';
import { estimateRun, renderPlanned, type PlannedPrompt } from '../../../core/spb/run/preflight';
import { referenceSource, type PromptSource } from '../../../core/spb/reference/source';
import { BUILTIN_TEMPLATE_MARK } from '../../../core/spb/prompt/runOrigin';
import { DEFAULT_TEMPLATE } from '../../../core/spb/prompt/prompt';
import { estimateLine } from '../../../core/runner/estimate';
import { readJournalSteps } from '../../../core/runner/journal';
import type { RunHistory } from '../../../core/spb/run/history';
import { runBenchmark, type RunProgress, type RunSummary } from '../../../core/spb/run/runner';
import { JOURNAL_FILE } from '../../../core/runner/runFolder';
import { scoreRun } from '../../../core/spb/score/run';
import { runCoverageText } from '../../../core/spb/score/coverage';
import { isWhole } from '../../../core/coverage';
import { METRIC_NAMES } from '../../../core/spb/names';
import { failedRequests } from '../../../core/spb/score/failedRequests';
import { isPlatform, type Benchmark, type Step, type User } from '../../../core/spb/types';
import { Usage, usageFailure, type RunCliIo, type RunCliOptions } from '../../runArgs';
import { parseRunArgs, RUN_OPTIONS, RUN_USAGE, type ParsedRun } from './runArgs';

type PostsReader = (user: User, step: Step) => string;

/** `run` finished, but every step got the error record (wrong key, endpoint down, every reply too slow...). */
export const EXIT_ALL_STEPS_FAILED = EXIT_ALL_FAILED;
/** `run` finished, and some of its steps got the error record. */
export const EXIT_SOME_STEPS_FAILED = EXIT_SOME_FAILED;

const pct = (x: number) => (Number.isNaN(x) ? '  n/a' : (100 * x).toFixed(1).padStart(5));

/**
 * Exit status: 0 finished, 1 failed, 2 usage error, 4 refused by the PI guard, 5 finished with every step failed,
 * 6 finished with some steps failed, 130 cancelled (resume by running the same command).
 */
async function runSpb(args: string[], opts: RunCliOptions, io: RunCliIo, ownSignals = false): Promise<number> {
  let parsed;
  try {
    parsed = parseRunArgs(args, opts, io.env);
  } catch (e) {
    if (!(e instanceof Usage)) throw e;
    io.stderr(`persona-lab: ${e.message}\nUsage:\n${RUN_USAGE}\n`);
    return 2;
  }
  const from = parsed.onlyFailed;
  const bench = await loadBenchmark(parsed.dir, {
    runs: [parsed.baseRun, from].filter((r): r is string => r !== undefined),
    ...cacheOption(opts),
  });
  if (from !== undefined) {
    const run = bench.runs.get(from);
    if (!run)
      return usageFailure(
        io,
        RUN_USAGE,
        `--only-failed ${from}: no run "${from}" under ${join(bench.root, 'results')}`,
      );
    const failed = failedRequests(bench, run).failed;
    if (failed === 0) {
      io.stderr(`${from} has no failed request: nothing to send\n`);
      return 0;
    }
    io.stderr(
      `${parsed.out}: a copy of ${from} with its ${failed} failed request${failed === 1 ? '' : 's'} sent again\n`,
    );
  }
  const { code, summary } = await executeRun(parsed, bench, opts, io, ownSignals);
  if (code !== 0 || summary?.status !== 'finished') return code;
  const { done, failed } = summary.progress;
  return failed === 0 ? 0 : failed >= done ? EXIT_ALL_STEPS_FAILED : EXIT_SOME_STEPS_FAILED;
}

/** Its run as cli/formats/index.ts lists it. */
export const spbRun: BatchRunCommand = { usage: RUN_USAGE, options: RUN_OPTIONS, run: runSpb };

/** What a run covers and how it threads the persona: the same for its estimate, its PI guard and the run itself. */
function selection(parsed: ParsedRun, bench: Benchmark) {
  return {
    onlyFailedOf: parsed.onlyFailed === undefined ? undefined : bench.runs.get(parsed.onlyFailed),
    personaMode: parsed.persona,
    platforms: parsed.platform ? [parsed.platform] : undefined,
    userId: parsed.user,
    users: parsed.users,
    fromStep: parsed.fromStep,
    startPersona: parsed.startPersona,
  };
}

/** The prompts of the run's selection, rendered as it will send them (for the estimate and the PI guard). */
function prompts(
  parsed: ParsedRun,
  bench: Benchmark,
  source: PromptSource | undefined,
  readPosts?: PostsReader,
): Promise<PlannedPrompt[]> {
  return renderPlanned(bench, {
    template: parsed.template,
    systemMessage: parsed.systemMessage,
    source,
    ...selection(parsed, bench),
    readPosts,
  });
}

/** Which prompt the run sends, on stderr before anything else: a run must never pass for the benchmark's by accident. */
function sourceLine(parsed: ParsedRun, source: PromptSource | undefined): string {
  if (source) return `prompt: ${source.name} from ${source.checkout} (${source.id})`;
  return parsed.template === DEFAULT_TEMPLATE
    ? `prompt: ${BUILTIN_TEMPLATE_MARK}`
    : "prompt: your template, not the benchmark's prompt";
}

/**
 * Runs a parsed `run` (or an experiment's run) on a loaded benchmark: the estimate, the PI guard, the run, a summary
 * on stdout. `summary` is absent when nothing ran (dry run, guard refusal, a run that could not start). For the
 * long-context baseline, `readPosts` replaces the posts of each step (the estimate and the PI guard see the same text)
 * and `oneStepPerUser` leaves F1^NS out of the summary (it is per user over a chain).
 */
export async function executeRun(
  parsed: ParsedRun,
  bench: Benchmark,
  opts: RunCliOptions,
  io: RunCliIo,
  ownSignals: boolean,
  { readPosts, oneStepPerUser = false }: { readPosts?: PostsReader; oneStepPerUser?: boolean } = {},
): Promise<{ code: number; summary?: RunSummary }> {
  let source: PromptSource | undefined;
  if (parsed.reference) {
    // Said before it runs: the checkout's own code is about to run on this machine.
    io.stderr(
      `running ${join(parsed.reference, 'bench_task.py')} (the benchmark's prompt builder) with ${parsed.python}\n`,
    );
    try {
      source = await referenceSource(parsed.reference, { python: parsed.python });
    } catch (e) {
      io.stderr(
        `persona-lab: the benchmark's prompt cannot be rendered from ${parsed.reference}: ${(e as Error).message}\n` +
          "  (pass --no-reference to run Persona Lab's template instead, which is not the benchmark's prompt)\n",
      );
      return { code: 1 };
    }
  }
  try {
    return await executeWith(parsed, bench, opts, io, ownSignals, source, { readPosts, oneStepPerUser });
  } catch (e) {
    if (!source) throw e;
    io.stderr(`persona-lab: ${(e as Error).message}\n`);
    return { code: 1 };
  } finally {
    source?.close();
  }
}

async function executeWith(
  parsed: ParsedRun,
  bench: Benchmark,
  opts: RunCliOptions,
  io: RunCliIo,
  ownSignals: boolean,
  source: PromptSource | undefined,
  { readPosts, oneStepPerUser }: { readPosts?: PostsReader; oneStepPerUser: boolean },
): Promise<{ code: number; summary?: RunSummary }> {
  const { dir, template, systemMessage } = parsed;
  io.stderr(`${sourceLine(parsed, source)}\n`);
  const planned = await prompts(parsed, bench, source, readPosts);
  const done = readJournalSteps(join(bench.root, 'results', parsed.out, JOURNAL_FILE), isPlatform);
  // A copy's failed steps are in its journal from the start (copied, attempts 0): only a sent one is done.
  const sent = [...done].filter(([, e]) => parsed.onlyFailed === undefined || e.attempts > 0);
  const estimate = estimateRun(planned, {
    done: new Set(sent.map(([key]) => key)),
    maxTokens: parsed.maxTokens,
    prices: parsed.prices,
  });
  io.stderr(`${parsed.out}: ${estimateLine(estimate)}\n`);
  if (parsed.dryRun) return { code: 0 };
  const endpoint = {
    baseURL: parsed.baseURL,
    apiKey: io.env.OPENAI_API_KEY ?? '',
    model: parsed.model,
    temperature: source?.temperature ?? parsed.temperature,
    maxTokens: parsed.maxTokens,
    timeoutMs: parsed.timeoutS * 1000,
    maxReplyBytes: parsed.maxReplyBytes,
  };
  const http = createOpenAITransport(endpoint);
  const transport = cliPiGuard(planned, parsed, http, io);
  if (!transport) return { code: EXIT_PI_REFUSED };
  const masked = transport !== http;
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    io.stderr('\nstopping: finished steps are kept; run the same command again to resume\n');
    controller.abort();
  };
  const external = io.signal;
  external?.addEventListener('abort', () => controller.abort(), { once: true });
  if (ownSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  let history: RunHistory | null = null;
  try {
    // Loaded only when asked for: a native module that fails to load must not break the other commands.
    if (parsed.history) history = (await import('../../../core/spb/run/history')).RunHistory.open(parsed.history);
    const baseURL = publicBaseURL(parsed.baseURL);
    let lastLine = '';
    const progress = (p: RunProgress) => {
      const line = `${parsed.out}: ${p.done}/${p.total} steps, ${p.failed} failed, ${p.usersDone}/${p.usersTotal} users`;
      if (line === lastLine) return;
      lastLine = line;
      io.stderr(io.stderrIsTTY ? `\r${line}` : `${line}\n`);
    };
    const summary = await runBenchmark({
      bench,
      name: parsed.out,
      template,
      systemMessage,
      source,
      endpoint,
      transport,
      ...selection(parsed, bench),
      concurrency: parsed.concurrency,
      retry: parsed.retryBaseMs !== undefined ? { baseMs: parsed.retryBaseMs } : undefined,
      signal: controller.signal,
      onProgress: progress,
      readPosts,
      onStep: (r) => {
        history?.record({ run: parsed.out, model: parsed.model, baseURL }, masked ? maskOutgoing(r) : r);
      },
    });
    if (io.stderrIsTTY && lastLine) io.stderr('\n');
    const p = summary.progress;
    if (summary.status === 'failed' && !summary.manifest) {
      io.stderr(`persona-lab: ${summary.error ?? 'the run failed'}\n`);
      return { code: 1 };
    }
    const lines = [
      `run ${parsed.out}: ${summary.status}${summary.resumed ? ' (resumed)' : ''}`,
      `  ${p.done}/${p.total} steps (${p.failed} with the error record), ${p.usersDone}/${p.usersTotal} users, ${p.requests} requests this session`,
      ...summary.files.map((f) => `  wrote ${f}`),
    ];
    const scored = await loadBenchmark(dir, { runs: [parsed.out], ...cacheOption(opts) });
    const run = scored.runs.get(parsed.out);
    if (run) {
      const score = scoreRun(scored, run);
      const f1ns = METRIC_NAMES.F1NS.short;
      for (const [platform, fig] of score.platforms) {
        lines.push(
          `  ${platform}: Recall ${pct(fig.metrics.Recall)}${oneStepPerUser ? '' : ` | ${f1ns} ${pct(fig.f1ns)}`} | ${fig.users} users, ${fig.steps} scored steps`,
        );
      }
      // a run of some users or steps: its figures are over those only, as score's note says
      if (!isWhole(score.coverage.total)) lines.push(`  figures over ${runCoverageText(score.coverage)}`);
    }
    if (summary.status === 'cancelled') lines.push('  cancelled: run the same command again to resume');
    if (summary.error) lines.push(`  error: ${summary.error}`);
    io.stdout(lines.join('\n') + '\n');
    return { code: summary.status === 'finished' ? 0 : summary.status === 'cancelled' ? 130 : 1, summary };
  } finally {
    history?.close();
    if (ownSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}
