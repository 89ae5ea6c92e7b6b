// The judge, a step of its own: it reads a run's predictions (made here or anywhere), asks the judge model about each
// answer the evaluator would judge, and writes the four scores, their mean and the judge model beside each answer
// in predictions.jsonl. Which answers are judged, the judge's prompt and its reading come from the prompt source (the
// checkout's evaluator.py, or Persona Lab's own wording); the mean is rounded to 5 decimals as the evaluator does.
// Results go to results/<run>/.judge.jsonl first, so a judge that stops resumes without asking again.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pyJsonDumps, pyJsonLoads } from '../../io/pyjson';
import { readRegularText, resolveInside } from '../../io/safeFs';
import { pyRound } from '../../io/pyNumber';
import { isRecord } from '../../guards';
import { AppendLog } from '../../runner/appendLog';
import {
  callWithRetries,
  createOpenAITransport,
  DEFAULT_RETRY,
  type ChatTransport,
  type EndpointConfig,
  type RetryPolicy,
} from '../../runner/client';
import { acquireLock } from '../../runner/journal';
import { readRecordsAt } from '../history';
import { predictionKey, type OmniBenchmark, type OmniRun, type Prediction } from '../types';
import { usablePrediction } from '../fields';
import type { JudgeRecord, JudgeScores, OmniPromptSource } from './source';
import { JUDGE_DIMENSIONS } from './source';

export const JUDGE_JOURNAL = '.judge.jsonl';
const JUDGE_LOCK = '.judge.lock';

export type JudgeStatus = 'evaluated' | 'skipped' | 'error';

export interface JudgeEntry {
  t: 'judge';
  user: string;
  index: number;
  status: JudgeStatus;
  /** the judge model, and the prompt source's id: another of either judges again */
  model: string;
  source: string;
  scores?: JudgeScores;
  mean?: number;
  error?: string;
}

export interface JudgeProgress {
  /** answers the evaluator would look at (customer-service records with a read answer) */
  total: number;
  evaluated: number;
  skipped: number;
  errors: number;
  requests: number;
}

export interface JudgeOptions {
  bench: OmniBenchmark;
  run: OmniRun;
  source: OmniPromptSource;
  endpoint: EndpointConfig;
  temperature?: number;
  transport?: ChatTransport;
  /** the history budget the run's prompts were rendered with (the judge reads the profile out of them) */
  maxHistoryTokens: number;
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  signal?: AbortSignal;
  onProgress?: (p: JudgeProgress) => void;
}

export interface JudgeSummary {
  status: 'finished' | 'cancelled' | 'failed';
  progress: JudgeProgress;
  error: string | null;
  file: string;
}

/** The judge's mean as the evaluator writes it. */
export const judgeMean = (s: JudgeScores): number =>
  pyRound(JUDGE_DIMENSIONS.reduce((n, d) => n + s[d], 0) / JUDGE_DIMENSIONS.length, 5);

function readEntries(values: unknown[], model: string, source: string): Map<string, JudgeEntry> {
  const out = new Map<string, JudgeEntry>();
  for (const v of values) {
    if (!isRecord(v) || v.t !== 'judge' || typeof v.user !== 'string' || !Number.isInteger(v.index)) continue;
    if (v.model !== model || v.source !== source) continue;
    out.set(predictionKey(v.user, v.index as number), v as unknown as JudgeEntry);
  }
  return out;
}

/** The evaluator's record for one test action: its scene, its text question's prompt, its read answers. */
async function judgeRecord(
  bench: OmniBenchmark,
  p: Prediction,
  source: OmniPromptSource,
  maxHistoryTokens: number,
): Promise<JudgeRecord | null> {
  const user = bench.users.get(p.userId);
  if (!user) return null;
  const record = (await readRecordsAt(user.file, user.index, [p.index])).get(p.index);
  if (!record || record.scene !== 'Customer Service') return null;
  const asked = await source.questions(user.file, p.userId, p.index, { maxHistoryTokens });
  const prompts = asked.questions.map((q) => q.prompt).filter((x): x is string => x !== null);
  const answered = p.questions.filter((q) => usablePrediction(q.type, q.predictedValue));
  return {
    action_type: record.sceneRaw,
    prompts,
    questions: answered.map((q) => ({
      type: q.type,
      field: q.field,
      true_value: q.trueValue,
      predicted_value: q.predictedValue,
    })),
    model_responses: p.questions.map((q) => q.rawOutput),
    scene_info: { action: record.actions },
  };
}

interface Target {
  p: Prediction;
  status: 'skipped' | 'target';
  prompt: string | null;
}

/** The answers the evaluator would look at, in file order, each skipped or with the judge's prompt. */
async function judgeTargets(
  bench: OmniBenchmark,
  run: OmniRun,
  source: OmniPromptSource,
  maxHistoryTokens: number,
): Promise<Target[]> {
  const out: Target[] = [];
  for (const p of run.predictions.values()) {
    if (!p.questions.some((q) => q.field === 'next_user_message')) continue;
    const record = await judgeRecord(bench, p, source, maxHistoryTokens);
    if (!record) continue;
    const target = await source.judgeTarget(record);
    if (target.status !== 'not_target') out.push({ p, status: target.status, prompt: target.prompt });
  }
  return out;
}

/** The judge's prompts, for the PI guard's scan before anything is sent. */
export async function judgePrompts(
  bench: OmniBenchmark,
  run: OmniRun,
  source: OmniPromptSource,
  maxHistoryTokens: number,
): Promise<{ label: string; system: string; prompt: string }[]> {
  return (await judgeTargets(bench, run, source, maxHistoryTokens)).flatMap((t) =>
    t.prompt === null ? [] : [{ label: `${predictionKey(t.p.userId, t.p.index)} judge`, system: '', prompt: t.prompt }],
  );
}

/** Writes the judge's results into predictions.jsonl, atomically; lines it cannot read are kept as they are. */
export function writeJudged(file: string, entries: ReadonlyMap<string, JudgeEntry>): void {
  const lines = readRegularText(file).split('\n');
  const out = lines.map((line) => {
    if (line.trim() === '') return line;
    const parsed = pyJsonLoads(line);
    if (!parsed.ok || !isRecord(parsed.value) || !Array.isArray(parsed.value.questions)) return line;
    const v = parsed.value;
    const e =
      typeof v.user_id === 'string' && Number.isInteger(v.index)
        ? entries.get(predictionKey(v.user_id, v.index as number))
        : undefined;
    if (!e) return line;
    for (const q of v.questions as unknown[]) {
      if (!isRecord(q) || q.type !== 'text' || q.field !== 'next_user_message') continue;
      delete q.judge_score;
      delete q.judge_scores;
      q.judge_model = e.model;
      q.judge_status = e.status;
      if (e.status === 'evaluated' && e.scores && e.mean !== undefined) {
        q.judge_score = e.mean;
        q.judge_scores = e.scores;
      }
    }
    return pyJsonDumps(v);
  });
  const tmp = `${file}.tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  const fd = openSync(tmp, 'wx');
  try {
    writeSync(fd, out.join('\n'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export async function judgeRun(opts: JudgeOptions): Promise<JudgeSummary> {
  const { bench, run, source } = opts;
  const file = join(run.dir, 'predictions.jsonl');
  const progress: JudgeProgress = { total: 0, evaluated: 0, skipped: 0, errors: 0, requests: 0 };
  const model = opts.endpoint.model;
  let release: (() => void) | null = null;
  let log: AppendLog | null = null;
  try {
    release = acquireLock(join(run.dir, JUDGE_LOCK));
    const opened = AppendLog.open(resolveInside(bench.root, join(run.dir, JUDGE_JOURNAL)));
    log = opened.log;
    const done = readEntries(opened.values, model, source.id);
    const work: { p: Prediction; prompt: string }[] = [];
    for (const t of await judgeTargets(bench, run, source, opts.maxHistoryTokens)) {
      const { p } = t;
      progress.total++;
      const key = predictionKey(p.userId, p.index);
      const prior = done.get(key);
      if (t.status === 'skipped' || t.prompt === null) {
        progress.skipped++;
        if (!prior) {
          const entry: JudgeEntry = {
            t: 'judge',
            user: p.userId,
            index: p.index,
            status: 'skipped',
            model,
            source: source.id,
          };
          log.append(entry);
          done.set(key, entry);
        }
        continue;
      }
      if (prior?.status === 'evaluated') progress.evaluated++;
      else work.push({ p, prompt: t.prompt });
    }
    opts.onProgress?.({ ...progress });
    const transport = opts.transport ?? createOpenAITransport(opts.endpoint);
    const shape = await source.request('judge', model, opts.temperature);
    const retry: RetryPolicy = { ...DEFAULT_RETRY, ...(opts.retry ?? {}), attempts: shape.attempts };
    let next = 0;
    const worker = async () => {
      while (!opts.signal?.aborted && next < work.length) {
        const { p, prompt } = work[next++];
        let scores: JudgeScores | null = null;
        const outcome = await callWithRetries(
          transport,
          '',
          prompt,
          async (raw) => {
            scores = await source.judgeParse(raw);
            return scores ? null : 'the judge gave no four scores from 1 to 10';
          },
          retry,
          opts.signal,
          { userOnly: shape.userOnly, params: shape.params },
        );
        progress.requests += outcome.attempts.length;
        if (outcome.aborted) return;
        const got = outcome.ok ? (scores as JudgeScores | null) : null;
        const entry: JudgeEntry = got
          ? {
              t: 'judge',
              user: p.userId,
              index: p.index,
              status: 'evaluated',
              model,
              source: source.id,
              scores: got,
              mean: judgeMean(got),
            }
          : {
              t: 'judge',
              user: p.userId,
              index: p.index,
              status: 'error',
              model,
              source: source.id,
              error: outcome.error || 'no reply',
            };
        log?.append(entry);
        done.set(predictionKey(p.userId, p.index), entry);
        if (got) progress.evaluated++;
        else progress.errors++;
        try {
          opts.onProgress?.({ ...progress });
        } catch {
          // a listener must not stop the judge
        }
      }
    };
    const width = Math.max(1, Math.min(work.length, Math.floor(opts.concurrency ?? 4) || 1));
    await Promise.all(Array.from({ length: width }, worker));
    writeJudged(resolveInside(bench.root, file), done);
    const finished = progress.evaluated + progress.skipped + progress.errors === progress.total;
    return { status: finished ? 'finished' : 'cancelled', progress, error: null, file };
  } catch (e) {
    return { status: 'failed', progress, error: e instanceof Error ? e.message : String(e), file };
  } finally {
    log?.close();
    release?.();
  }
}
