// `persona-lab judge`: the LLM judge on an OmniBehavior run's predictions, as a step of its own (re-judge without
// re-running). The judge endpoint and model default to the run's (run.json) and can be set apart.
import { join } from 'node:path';
import { omniBehavior } from '../../../core/omni/format';
import { judgePrompts, judgeRun, type JudgeProgress } from '../../../core/omni/run/judge';
import { OMNI_TEMPLATE_MARK, readOmniManifest } from '../../../core/omni/run/manifest';
import { DEFAULT_MAX_HISTORY_TOKENS, type OmniPromptSource } from '../../../core/omni/run/source';
import { omniTemplateSource } from '../../../core/omni/run/template';
import { omniReferenceSource } from '../../../core/omni/reference/source';
import { scoreOmniRun } from '../../../core/omni/score';
import { createOpenAITransport } from '../../../core/runner/client';
import { MANIFEST_FILE } from '../../../core/runner/runFolder';
import { checkoutFor } from '../../batchRun';
import { OMNI_CHECKOUT, type OmniRunCliOptions } from './run';
import { cliPiGuard, piGuardOption } from '../../piGuard';
import { num, timeoutSeconds, Usage, type RunCliIo } from '../../runArgs';

export const JUDGE_OPTIONS = {
  'judge-base-url': { type: 'string' },
  'judge-model': { type: 'string' },
} as const;

export const JUDGE_USAGE = `  judge <omnibehavior dir> --run NAME [--judge-base-url URL] [--judge-model NAME] [--temperature T]
      [--concurrency N] [--timeout S] [--max-history-tokens N] [--pi-guard refuse|mask|send]
      [--pi-guard-loopback] [--reference DIR | --no-reference] [--python EXE]
                                                           the LLM judge on run NAME's next_user_message answers:
                                                           four scores from 1 to 10, their mean (5 decimals) and
                                                           the judge model written beside each answer in its
                                                           predictions.jsonl; resumes when re-run. Which answers
                                                           are judged, the judge's prompt and its reading come from
                                                           the OmniBehavior checkout's evaluator.py (else Persona
                                                           Lab's own wording). The endpoint and model default to
                                                           the run's run.json; key from OPENAI_API_KEY`;

export interface JudgeCliOptions extends OmniRunCliOptions {
  run?: string[];
  'judge-base-url'?: string;
  'judge-model'?: string;
}

export async function runJudgeCommand(args: string[], opts: JudgeCliOptions, io: RunCliIo): Promise<number> {
  const fail = (m: string) => {
    io.stderr(`persona-lab: ${m}\nUsage:\n${JUDGE_USAGE}\n`);
    return 2;
  };
  const [dir, extra] = args;
  if (!dir) return fail('judge needs an OmniBehavior folder');
  if (extra !== undefined) return fail(`unexpected argument "${extra}"`);
  if (!omniBehavior.detect(dir)) return fail(`${dir}: not an OmniBehavior folder (test_actions.jsonl and raw/*.json)`);
  const runName = opts.run?.length === 1 ? opts.run[0] : undefined;
  if (!runName) return fail('judge needs one --run NAME');
  const { bench } = await omniBehavior.load(dir, { runs: [runName] });
  const run = bench.runs.get(runName);
  if (!run) return fail(`--run ${runName}: no run under ${join(bench.root, 'results')}`);
  const manifest = readOmniManifest(join(run.dir, MANIFEST_FILE));
  let parsed;
  try {
    const baseURL = opts['judge-base-url'] ?? manifest?.endpoint.baseURL;
    const model = opts['judge-model'] ?? manifest?.endpoint.model;
    if (!baseURL || !model)
      throw new Usage(`${runName} has no run.json to take the endpoint from: give --judge-base-url and --judge-model`);
    const p = {
      baseURL,
      model,
      temperature: num('temperature', opts.temperature, (n) => n >= 0 && n <= 2),
      concurrency: num('concurrency', opts.concurrency, (n) => Number.isInteger(n) && n >= 1 && n <= 256) ?? 4,
      timeoutS: timeoutSeconds(opts.timeout),
      maxHistoryTokens:
        num('max-history-tokens', opts['max-history-tokens'], (n) => Number.isInteger(n) && n >= 0) ??
        (manifest?.maxHistoryTokens || DEFAULT_MAX_HISTORY_TOKENS),
      piGuard: piGuardOption(opts['pi-guard']),
      piGuardLoopback: opts['pi-guard-loopback'] === true,
      checkout: checkoutFor(dir, opts, OMNI_CHECKOUT),
      retryBaseMs: num('PERSONA_LAB_RETRY_BASE_MS', io.env.PERSONA_LAB_RETRY_BASE_MS, (n) => n >= 0),
    };
    parsed = p;
  } catch (e) {
    if (e instanceof Usage) return fail(e.message);
    throw e;
  }
  let source: OmniPromptSource;
  try {
    source = parsed.checkout
      ? await omniReferenceSource(parsed.checkout, { python: opts.python ?? 'python3' })
      : omniTemplateSource();
  } catch (e) {
    io.stderr(`persona-lab: the benchmark's judge cannot be used from ${parsed.checkout}: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    io.stderr(
      `judge: ${source.kind === 'reference' ? `evaluator.py from ${source.checkout}` : OMNI_TEMPLATE_MARK}, model ${parsed.model}\n`,
    );
    const endpoint = {
      baseURL: parsed.baseURL,
      apiKey: io.env.OPENAI_API_KEY ?? '',
      model: parsed.model,
      timeoutMs: parsed.timeoutS * 1000,
    };
    const http = createOpenAITransport(endpoint);
    // The judge's prompts carry the user's profile: the PI guard reads what would be sent before anything is.
    const prompts = await judgePrompts(bench, run, source, parsed.maxHistoryTokens);
    const transport = cliPiGuard(prompts, parsed, http, io);
    if (!transport) return 4;
    const controller = new AbortController();
    io.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const line = (p: JudgeProgress) =>
      `${runName}: judged ${p.evaluated} of ${p.total}, ${p.skipped} skipped (no earlier user turn), ${p.errors} errors`;
    let last = '';
    const summary = await judgeRun({
      bench,
      run,
      source,
      endpoint,
      temperature: parsed.temperature,
      transport,
      maxHistoryTokens: parsed.maxHistoryTokens,
      concurrency: parsed.concurrency,
      retry: parsed.retryBaseMs !== undefined ? { baseMs: parsed.retryBaseMs } : undefined,
      signal: controller.signal,
      onProgress: (p) => {
        const l = line(p);
        if (l !== last) io.stderr(`${l}\n`);
        last = l;
      },
    });
    if (summary.status === 'failed') {
      io.stderr(`persona-lab: ${summary.error}\n`);
      return 1;
    }
    const rescored = await omniBehavior.load(dir, { runs: [runName] });
    const again = rescored.bench.runs.get(runName);
    const text = again ? scoreOmniRun(rescored.bench, again).components.shopText : undefined;
    io.stdout(
      `judge ${runName}: ${summary.status}\n  ${line(summary.progress)}\n  shop text ${text === undefined ? 'undefined (nothing judged)' : text.toFixed(2)}\n  wrote ${summary.file}\n`,
    );
    if (summary.status === 'cancelled') return 130;
    return summary.progress.errors > 0 ? 6 : 0;
  } finally {
    source.close();
  }
}
