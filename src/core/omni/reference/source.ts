// OmniBehavior's own prompts and readings, from the user's checkout of its repository, through the Python driver
// (driverSource.ts). It runs the checkout's code: trusted folders only (the callers decide).
import { existsSync } from 'node:fs';
import { isInside, readRegularFile } from '../../io/safeFs';
import { dirname, join, resolve } from 'node:path';
import { DriverError, PythonDriver, type DriverOptions } from '../../io/pythonDriver';
import type { FieldKind } from '../types';
import {
  JUDGE_DIMENSIONS,
  type JudgeScores,
  type OmniParsed,
  type OmniPromptSource,
  type OmniQuestionRequest,
  type OmniRequestShape,
} from '../run/source';
import OMNI_DRIVER_SOURCE from './driver.py';
import { crypto } from '../../io/builtins';

/** The files whose code decides a request or its reading (config.py is left out: it holds the user's keys). */
export const OMNI_REFERENCE_FILES = [
  'src/models/prompt_builder.py',
  'src/models/model_caller.py',
  'src/evaluation/evaluator.py',
  'src/action_types.py',
] as const;
export const OMNI_REFERENCE_PROMPT_NAME = "the benchmark's prompt (prompt_builder.py)";

export interface OmniReferenceInfo {
  module: string;
  python: string;
  /** how the builder counts tokens for the history window: Qwen's tokenizer, or its approximation without it */
  tokenizer: 'qwen' | 'approximate';
  attempts: Partial<Record<FieldKind, number>>;
}

export function isOmniReferenceCheckout(dir: string): boolean {
  return OMNI_REFERENCE_FILES.every((f) => existsSync(join(dir, f)));
}

/**
 * The folder itself, or the nearest of its parents up to `within` (the folder the user opened), that is a checkout;
 * null if none is. Never above `within`: a checkout's code runs, and a parent of the folder the user chose (or
 * trusted) is not theirs to vouch for. Without `within`, only the folder itself.
 */
export function findOmniReferenceCheckout(from: string, within: string = from): string | null {
  let dir = resolve(from);
  const top = resolve(within);
  for (;;) {
    if (!isInside(top, dir)) return null;
    if (isOmniReferenceCheckout(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

export function omniReferenceHash(checkout: string): string {
  const h = crypto().createHash('sha256');
  for (const f of OMNI_REFERENCE_FILES) h.update(readRegularFile(join(checkout, f), checkout)).update('\0');
  return h.digest('hex');
}

const KINDS: readonly string[] = ['binary', 'continuous', 'text'];

function question(v: unknown): OmniQuestionRequest {
  const q = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  if (typeof q.field !== 'string' || typeof q.type !== 'string' || !KINDS.includes(q.type))
    throw new DriverError(`prompt_builder.py: a question without a field or a known type: ${JSON.stringify(v)}`);
  const tv = q.true_value;
  return {
    field: q.field,
    kind: q.type as FieldKind,
    trueValue: typeof tv === 'number' || typeof tv === 'string' ? tv : typeof tv === 'boolean' ? Number(tv) : null,
    videoDuration: typeof q.video_duration === 'number' ? q.video_duration : null,
    hasPriorUserSpeech: typeof q.has_prior_user_speech === 'boolean' ? q.has_prior_user_speech : null,
    prompt: typeof q.prompt === 'string' ? q.prompt : null,
  };
}

function judgeScores(v: unknown): JudgeScores | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const out = {} as JudgeScores;
  for (const d of JUDGE_DIMENSIONS) {
    if (typeof o[d] !== 'number') return null;
    out[d] = o[d];
  }
  return out;
}

/** The benchmark's own requests and readings (runs the checkout's code: trusted folders only). */
export async function omniReferenceSource(checkout: string, options: DriverOptions = {}): Promise<OmniPromptSource> {
  if (!isOmniReferenceCheckout(checkout))
    throw new DriverError(`${checkout}: not a checkout of OmniBehavior (needs ${OMNI_REFERENCE_FILES.join(', ')})`);
  const hash = omniReferenceHash(checkout);
  const { driver, ready } = await PythonDriver.start(OMNI_DRIVER_SOURCE, checkout, 'prompt_builder.py', {
    startTimeoutMs: 60_000,
    ...options,
  });
  const info = ready as unknown as OmniReferenceInfo;
  const shapes = new Map<string, Promise<OmniRequestShape>>();
  return {
    kind: 'reference',
    name: OMNI_REFERENCE_PROMPT_NAME,
    id: `prompt_builder.py@${hash.slice(0, 12)}`,
    hash,
    checkout,
    async questions(file, userId, index, opts) {
      const a = await driver.call({
        op: 'questions',
        // The driver runs in the checkout's folder: a path relative to ours would name another file there.
        file: resolve(file),
        user: userId,
        index,
        max_history_tokens: opts.maxHistoryTokens,
        max_history_days: opts.maxHistoryDays ?? null,
      });
      return { filtered: a.filtered === true, questions: Array.isArray(a.questions) ? a.questions.map(question) : [] };
    },
    request(kind, model, temperature) {
      const key = `${kind}\0${model}\0${temperature ?? ''}`;
      let shape = shapes.get(key);
      if (!shape) {
        shape = driver.call({ op: 'request', kind, model, temperature: temperature ?? null }).then((a) => {
          const msgs = Array.isArray(a.messages) ? (a.messages as { role?: unknown }[]) : [];
          const params = typeof a.params === 'object' && a.params !== null ? (a.params as Record<string, unknown>) : {};
          const attempts = kind === 'judge' ? 3 : (info.attempts?.[kind] ?? 3);
          return { userOnly: msgs.every((m) => m.role === 'user'), params, attempts };
        });
        shapes.set(key, shape);
      }
      return shape;
    },
    async parse(kind, reply, model): Promise<OmniParsed> {
      const a = await driver.call({ op: 'parse', kind, reply, model });
      const p = a.prediction;
      return {
        ok: a.success === true,
        prediction: typeof p === 'number' || typeof p === 'string' ? p : null,
        label: a.predicted_label === 1 || a.predicted_label === 0 ? a.predicted_label : null,
        error: typeof a.why === 'string' ? a.why : null,
      };
    },
    async judgeTarget(record) {
      const a = await driver.call({ op: 'judge_prompt', record });
      if (a.status === 'target' && typeof a.prompt === 'string') return { status: 'target', prompt: a.prompt };
      return { status: a.status === 'skipped' ? 'skipped' : 'not_target', prompt: null };
    },
    async judgeParse(reply) {
      return judgeScores((await driver.call({ op: 'judge_parse', reply })).scores);
    },
    close: () => driver.close(),
  };
}

export function omniReferenceTokenizer(info: OmniReferenceInfo): string {
  return info.tokenizer === 'qwen' ? "Qwen's tokenizer" : 'the approximate token count (no tokenizer installed)';
}
