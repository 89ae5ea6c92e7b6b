// What a PersonaMem run will send, before it sends anything: the questions still to ask (a resume skips those with a
// row), the estimate of its prompt tokens and the texts the PI guard scans. Each context is read once: a question's
// history is a prefix of it, so the longest prefix any queued question sends holds every history text of that
// context, and its tokens are summed per message and looked up per question.
import { join } from 'node:path';
import type { OutgoingPrompt } from '../../pi/guard';
import { estimateTokens, type EstimatedRequest } from '../../runner/estimate';
import { readContext } from '../contexts';
import type { PersonaMemBench, PmQuestion } from '../types';
import { askable, readResultRows, resultsFileName, type PmSelection } from './runner';
import { manifestFileName, readPmManifest } from './manifest';
import { templateQuestion } from './source';

export interface PmPlan {
  questions: PmQuestion[];
  /** question ids the results file already answers */
  done: Set<string>;
  requests: EstimatedRequest[];
  /** what leaves for the endpoint, for the PI guard: each context's longest history sent, and each question */
  outgoing: Iterable<OutgoingPrompt>;
  problem: string | null;
}

export function planPersonaMem(bench: PersonaMemBench, size: string, name: string, sel: PmSelection = {}): PmPlan {
  const questions = askable(bench, size, sel);
  const plan: PmPlan = { questions, done: new Set(), requests: [], outgoing: [], problem: null };
  const split = bench.splits.get(size);
  if (!split) return { ...plan, problem: `no split ${size} in ${bench.root}` };
  if (questions.length === 0) return { ...plan, problem: 'no question of the selection can be asked' };
  const read = readResultRows(join(bench.root, 'results', resultsFileName(size, name)));
  if ('problem' in read) return { ...plan, problem: read.problem };
  const manifest = readPmManifest(join(bench.root, 'results', manifestFileName(size, name)));
  if (typeof manifest === 'string') return { ...plan, problem: manifest };
  if (manifest === null && read.rows.size > 0)
    return {
      ...plan,
      problem: `results/${resultsFileName(size, name)} holds answers persona-lab run did not write: choose another --out`,
    };
  for (const q of questions) if (read.rows.has(q.questionId)) plan.done.add(q.questionId);
  const queued = questions.filter((q) => !plan.done.has(q.questionId));
  const longest = new Map<string, number>();
  for (const q of queued) longest.set(q.contextId, Math.max(longest.get(q.contextId) ?? 0, q.endIndex ?? 0));
  const prefixTokens = new Map<string, number[]>();
  for (const [id, end] of longest) {
    const sums = [0];
    for (const m of readContext(split.contexts.get(id)!, end))
      sums.push(sums[sums.length - 1] + estimateTokens(m.content) + 4);
    prefixTokens.set(id, sums);
  }
  for (const q of questions) {
    const done = plan.done.has(q.questionId);
    const sums = prefixTokens.get(q.contextId);
    plan.requests.push({ system: '', prompt: templateQuestion(q), done, extraTokens: sums?.[q.endIndex ?? 0] ?? 0 });
  }
  // Read again when scanned, one context at a time: a 1M-token split's histories are not held together.
  plan.outgoing = {
    *[Symbol.iterator]() {
      for (const [id, end] of longest) {
        if (end === 0) continue;
        const history = readContext(split.contexts.get(id)!, end);
        yield {
          label: `${size} context ${id.slice(0, 12)} (messages 0–${end - 1})`,
          system: '',
          prompt: history.map((m) => m.content).join('\n'),
        };
      }
      for (const q of queued)
        yield { label: `${size} question ${q.questionId}`, system: '', prompt: templateQuestion(q) };
    },
  };
  return plan;
}
