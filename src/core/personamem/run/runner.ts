// PersonaMem runs into the results file the authors' run_evaluation writes (results/eval_results_<size>_<name>.csv,
// their columns), so `score` reads it as a run beside theirs. One request per question, at most `concurrency` in
// flight (runner/pool.ts). The file is its own journal: a row is appended when its question is answered, and a rerun
// keeps the complete rows and asks only the questions without one. A question whose request failed gets no row, as in
// their loop (an errored row is absent), and is asked again on the next run. When the run ends the file is rewritten
// in the questions file's order.
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { mkdirInside, readRegularText, resolveInside } from '../../io/safeFs';
import { csvRecords } from '../../io/csv';
import { createOpenAITransport, DEFAULT_RETRY, publicBaseURL } from '../../runner/client';
import type { ChatTransport, EndpointConfig, RetryPolicy } from '../../runner/client';
import { acquireLock } from '../../runner/journal';
import { writeManifest, type RunStatus } from '../../runner/manifest';
import { runPool, safeListener } from '../../runner/pool';
import { runNameProblem } from '../../runner/runFolder';
import { csvField } from '../../tables/format';
import { readContext, type PmMessage } from '../contexts';
import { RESULT_COPIED_COLUMNS, type PersonaMemBench, type PmContext, type PmQuestion } from '../types';
import { manifestFileName, pmResumeProblem, readPmManifest, PM_RUN_FORMAT, type PmRunManifest } from './manifest';
import { askPersonaMem } from './ask';
import type { PmRequestSource } from './source';

/** run_evaluation's columns, in its order. */
export const RESULT_COLUMNS = [
  'score',
  'persona_id',
  'question_id',
  'user_question_or_message',
  'question_type',
  'topic',
  ...RESULT_COPIED_COLUMNS,
  'model_response',
  'len_of_model_response',
  'predicted_answer',
  'correct_answer',
] as const;

/** A model's name as a run name (the default one): what a file name cannot hold becomes "-". */
export const runNameOfModel = (model: string) => model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '') || 'run';

export const resultsFileName = (size: string, name: string) => `eval_results_${size}_${name}.csv`;

export interface PmSelection {
  /** one persona's questions (persona_id), or every persona's */
  personaId?: string | null;
  /** only these questions (a sample's), else every question of the split */
  questionIds?: ReadonlySet<string> | null;
}

/** The questions a selection covers that can be asked (a known context and an end index), in the file's order. */
export function askable(bench: PersonaMemBench, size: string, sel: PmSelection = {}): PmQuestion[] {
  const split = bench.splits.get(size);
  if (!split) return [];
  return split.questions.filter(
    (q) =>
      (sel.personaId == null || q.personaId === sel.personaId) &&
      (sel.questionIds == null || sel.questionIds.has(q.questionId)) &&
      q.endIndex !== undefined &&
      split.contexts.has(q.contextId),
  );
}

export interface PmRunOptions {
  bench: PersonaMemBench;
  size: string;
  name: string;
  source: PmRequestSource;
  endpoint: EndpointConfig;
  /** the user's temperature; undefined: none is sent, as in the authors' calls */
  temperature?: number;
  transport?: ChatTransport;
  selection?: PmSelection;
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  onProgress?: (p: PmRunProgress) => void;
  now?: () => Date;
}

export interface PmRunProgress {
  /** questions with a row, including those a resume found */
  done: number;
  total: number;
  /** questions whose request failed in this session (no row: asked again next time) */
  failed: number;
  requests: number;
}

export interface PmRunSummary {
  status: RunStatus;
  file: string;
  resumed: boolean;
  progress: PmRunProgress;
  /** the first few failed requests, "question_id: why" */
  errors: string[];
  error: string | null;
  manifest: PmRunManifest | null;
}

/** The rows a results file holds, by question id (a record cut off by a crash is left out), or why it cannot resume. */
export function readResultRows(file: string): { rows: Map<string, string[]> } | { problem: string } {
  const rows = new Map<string, string[]>();
  if (!existsSync(file)) return { rows };
  const [head, ...records] = csvRecords(readRegularText(file).replace(/^\uFEFF/, ''));
  if (!head) return { rows };
  if (head.fields.join(',') !== RESULT_COLUMNS.join(','))
    return { problem: `${file} exists with other columns than a run writes: choose another --out` };
  const id = RESULT_COLUMNS.indexOf('question_id');
  for (const r of records)
    if (!r.unterminated && r.fields.length === RESULT_COLUMNS.length && r.fields[id]) rows.set(r.fields[id], r.fields);
  return { rows };
}

const csvLine = (fields: readonly string[]) => fields.map(csvField).join(',') + '\r\n';

/** Python's str(bool) and len(str): what their csv.writer puts in the score and length cells. */
const resultRow = (q: PmQuestion, response: string, score: boolean, predicted: string): string[] => [
  score ? 'True' : 'False',
  q.personaId,
  q.questionId,
  q.question,
  q.questionType,
  q.topic,
  ...RESULT_COPIED_COLUMNS.map((c) => q.resultCells[c] ?? ''),
  response,
  String(Array.from(response).length),
  predicted,
  q.correctAnswer,
];

/** A few contexts' messages kept between questions: the questions of one context follow each other in the file. */
function contextCache(max = 4) {
  const cache = new Map<string, PmMessage[]>();
  return (ctx: PmContext) => {
    let m = cache.get(ctx.id);
    if (!m) {
      m = readContext(ctx);
      cache.set(ctx.id, m);
      if (cache.size > max) cache.delete(cache.keys().next().value as string);
    }
    return m;
  };
}

const failure = (file: string, error: string): PmRunSummary => ({
  status: 'failed',
  file,
  resumed: false,
  progress: { done: 0, total: 0, failed: 0, requests: 0 },
  errors: [],
  error,
  manifest: null,
});

/** Runs (or resumes) one split's questions into a results file. Never throws: problems come back as 'failed'. */
export async function runPersonaMem(opts: PmRunOptions): Promise<PmRunSummary> {
  const { bench, source, size } = opts;
  const resultsDir = join(bench.root, 'results');
  const file = join(resultsDir, resultsFileName(size, opts.name));
  const nameProblem = runNameProblem(opts.name);
  if (nameProblem) return failure(file, nameProblem);
  const split = bench.splits.get(size);
  if (!split) return failure(file, `no split ${size} in ${bench.root}`);
  const questions = askable(bench, size, opts.selection);
  if (questions.length === 0) return failure(file, 'no question of the selection can be asked');
  const progress: PmRunProgress = { done: 0, total: questions.length, failed: 0, requests: 0 };
  const errors: string[] = [];
  let release: (() => void) | null = null;
  let fd: number | null = null;
  try {
    mkdirInside(bench.root, resultsDir);
    release = acquireLock(join(resultsDir, `.${resultsFileName(size, opts.name)}.lock`));
    const read = readResultRows(file);
    if ('problem' in read) return failure(file, read.problem);
    const rows = read.rows;
    const now = opts.now ?? (() => new Date());
    const at = now().toISOString();
    const wanted: PmRunManifest = {
      format: PM_RUN_FORMAT,
      version: 1,
      name: opts.name,
      size,
      request: { kind: source.kind, name: source.name, id: source.id, checkout: source.checkout ?? null },
      endpoint: {
        baseURL: publicBaseURL(opts.endpoint.baseURL),
        model: opts.endpoint.model,
        temperature: opts.temperature ?? null,
      },
      createdAt: at,
      updatedAt: at,
      status: 'running',
      counts: { questions: questions.length, done: 0, failed: 0, requests: 0 },
      error: null,
    };
    const manifestPath = join(resultsDir, manifestFileName(size, opts.name));
    const existing = readPmManifest(manifestPath);
    if (typeof existing === 'string') return failure(file, existing);
    const problem = existing
      ? pmResumeProblem(existing, wanted)
      : rows.size > 0
        ? `${file} holds answers persona-lab run did not write: choose another --out`
        : null;
    if (problem) return failure(file, problem);
    let manifest: PmRunManifest = existing
      ? { ...existing, endpoint: { ...existing.endpoint, baseURL: wanted.endpoint.baseURL }, status: 'running' }
      : wanted;
    const previousRequests = existing?.counts.requests ?? 0;
    const sync = (status: RunStatus, error: string | null = null) => {
      manifest = {
        ...manifest,
        status,
        error,
        updatedAt: now().toISOString(),
        counts: {
          questions: questions.length,
          done: progress.done,
          failed: progress.failed,
          requests: previousRequests + progress.requests,
        },
      };
      writeManifest(manifestPath, manifest);
    };
    const resumed = rows.size > 0;
    // Rows in the split's order, then any the file holds for questions no longer in it.
    const order = new Map(split.questions.map((q, i) => [q.questionId, i]));
    const writeAll = () => {
      const out = openSync(resolveInside(bench.root, file), 'w');
      try {
        writeSync(out, csvLine(RESULT_COLUMNS));
        const ids = [...rows.keys()].sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity));
        for (const id of ids) writeSync(out, csvLine(rows.get(id)!));
      } finally {
        closeSync(out);
      }
    };
    // Whatever a crash left half-written is dropped here.
    writeAll();
    progress.done = questions.filter((q) => rows.has(q.questionId)).length;
    sync('running');
    fd = openSync(file, 'a');
    const onProgress = safeListener(opts.onProgress);
    const report = () => onProgress({ ...progress });
    report();
    const transport = opts.transport ?? createOpenAITransport(opts.endpoint);
    const retry: RetryPolicy = { ...DEFAULT_RETRY, ...(opts.retry ?? {}) };
    const contextOf = contextCache();
    const queue = questions.filter((q) => !rows.has(q.questionId));
    const { fatal } = await runPool(
      queue,
      async (q, signal) => {
        const history = contextOf(split.contexts.get(q.contextId)!).slice(0, q.endIndex);
        const { outcome, reading } = await askPersonaMem(q, history, {
          source,
          transport,
          model: opts.endpoint.model,
          temperature: opts.temperature,
          retry,
          signal,
        });
        progress.requests += outcome.attempts.length;
        if (outcome.aborted || signal.aborted) return;
        if (!outcome.ok || !reading) {
          progress.failed++;
          if (errors.length < 5) errors.push(`${q.questionId}: ${outcome.error}`);
          report();
          return;
        }
        const row = resultRow(q, outcome.raw, reading.score, reading.predicted);
        rows.set(q.questionId, row);
        if (fd !== null) writeSync(fd, csvLine(row));
        progress.done++;
        report();
      },
      opts,
    );
    const status: RunStatus =
      fatal !== null
        ? 'failed'
        : opts.signal?.aborted && progress.done + progress.failed < questions.length
          ? 'cancelled'
          : 'finished';
    closeSync(fd);
    fd = null;
    if (status === 'finished') writeAll();
    sync(status, fatal);
    return { status, file, resumed, progress: { ...progress }, errors, error: fatal, manifest };
  } catch (e) {
    return { ...failure(file, e instanceof Error ? e.message : String(e)), progress: { ...progress }, errors };
  } finally {
    if (fd !== null) closeSync(fd);
    release?.();
  }
}
