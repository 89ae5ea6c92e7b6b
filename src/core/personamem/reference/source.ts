// PersonaMem's own request and answer reading, from the user's checkout of its repository, through the Python driver
// (driver.py): Evaluation.query_llm and Evaluation.extract_answer of its inference.py. It runs the checkout's code:
// trusted folders only (the callers decide).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isInside, readRegularFile } from '../../io/safeFs';
import { DriverError, PythonDriver, type DriverOptions } from '../../io/pythonDriver';
import type { ChatMessage } from '../../runner/client';
import type { PmRequestSource } from '../run/source';
import PM_DRIVER_SOURCE from './driver.py';
import { crypto } from '../../io/builtins';

/** The file whose code decides a request and its reading. */
export const PM_REFERENCE_FILE = 'inference.py';
export const PM_REFERENCE_NAME = "the benchmark's request (inference.py, Evaluation.query_llm)";

export interface PmReferenceInfo {
  module: string;
  python: string;
  methods: string[];
  helpers: string[];
}

/** A checkout: inference.py at the top, defining the Evaluation class the authors' run_evaluation uses. */
export function isPmReferenceCheckout(dir: string): boolean {
  const file = join(dir, PM_REFERENCE_FILE);
  if (!existsSync(file)) return false;
  try {
    return /^class Evaluation\b/m.test(readRegularFile(file, dir).toString('utf8'));
  } catch {
    return false;
  }
}

/** The folder itself or its nearest parent up to `within` that is a checkout; never above `within` (its code runs). */
export function findPmReferenceCheckout(from: string, within: string = from): string | null {
  let dir = resolve(from);
  const top = resolve(within);
  for (;;) {
    if (!isInside(top, dir)) return null;
    if (isPmReferenceCheckout(dir)) return dir;
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The hash of the code that decides a request (a changed inference.py is another source). */
export function pmReferenceHash(checkout: string): string {
  return crypto()
    .createHash('sha256')
    .update(readRegularFile(join(checkout, PM_REFERENCE_FILE), checkout))
    .digest('hex');
}

const ROLES: readonly string[] = ['system', 'user', 'assistant'];

function messages(v: unknown): ChatMessage[] {
  if (!Array.isArray(v)) throw new DriverError('inference.py: query_llm sent no message list');
  return v.map((m: unknown) => {
    const r = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
    if (typeof r.role !== 'string' || !ROLES.includes(r.role) || typeof r.content !== 'string')
      throw new DriverError(`inference.py: a message without a chat role and text: ${JSON.stringify(m)}`);
    return { role: r.role as ChatMessage['role'], content: r.content };
  });
}

/** The benchmark's own request and reading (runs the checkout's code: trusted folders only). */
export async function pmReferenceSource(
  checkout: string,
  options: DriverOptions = {},
): Promise<PmRequestSource & { info: PmReferenceInfo }> {
  if (!isPmReferenceCheckout(checkout))
    throw new DriverError(`${checkout}: not a checkout of PersonaMem (needs ${PM_REFERENCE_FILE} with its Evaluation)`);
  const hash = pmReferenceHash(checkout);
  const { driver, ready } = await PythonDriver.start(PM_DRIVER_SOURCE, checkout, PM_REFERENCE_FILE, {
    // a 1M-token history goes through the pipe and back
    answerTimeoutMs: 120_000,
    ...options,
  });
  const info = ready as unknown as PmReferenceInfo;
  return {
    kind: 'reference',
    name: PM_REFERENCE_NAME,
    id: `inference.py@${hash.slice(0, 12)}`,
    checkout,
    info,
    async request(q, history, model) {
      const a = await driver.call({
        op: 'request',
        model,
        question: q.question,
        // their request puts the all_options cell in as the file spells it
        all_options: q.optionsText,
        context: history,
      });
      const params = typeof a.params === 'object' && a.params !== null ? (a.params as Record<string, unknown>) : {};
      const api = a.api === 'anthropic' || a.api === 'gemini' ? a.api : 'openai';
      return { messages: messages(a.messages), params, api };
    },
    async read(reply, correctAnswer) {
      const a = await driver.call({ op: 'read', reply, correct_answer: correctAnswer });
      return { score: a.score === true, predicted: typeof a.predicted_answer === 'string' ? a.predicted_answer : '' };
    },
    close: () => driver.close(),
  };
}
