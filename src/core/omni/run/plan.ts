// What a run will send, before it sends anything: every question's prompt of the selected test actions a resume has
// not finished, with its request's completion cap, for the estimate and the PI guard's scan; and where the builder's
// questions and test_actions.jsonl's fields disagree (the scorer ignores an answer to a field not listed there).
import { join } from 'node:path';
import type { EstimatedRequest } from '../../runner/estimate';
import type { OutgoingPrompt } from '../../pi/guard';
import { predictionKey, type OmniBenchmark } from '../types';
import { omniResumeProblem, omniRunIdentity } from './manifest';
import { readOmniJournal, selectedActions } from './runner';
import type { OmniPromptSource, OmniRunSelectionLike } from './source';

export type PlannedOmniRequest = EstimatedRequest & OutgoingPrompt;

export interface OmniPlan {
  requests: PlannedOmniRequest[];
  warnings: string[];
  /** why the run cannot go into its folder (runOmni would refuse); nothing is planned then */
  problem: string | null;
}

const cap = (params: Record<string, unknown>): number | null => {
  const v = params.max_tokens ?? params.max_completion_tokens;
  return typeof v === 'number' ? v : null;
};

export async function planOmni(
  bench: OmniBenchmark,
  source: OmniPromptSource,
  runName: string,
  selection: OmniRunSelectionLike,
  opts: { model: string; temperature?: number; maxHistoryTokens: number },
): Promise<OmniPlan> {
  const dir = join(bench.root, 'results', runName);
  const problem = omniResumeProblem(dir, omniRunIdentity(source, opts, selection));
  if (problem) return { requests: [], warnings: [], problem };
  const done = readOmniJournal(dir);
  const requests: PlannedOmniRequest[] = [];
  const warnings: string[] = [];
  for (const action of selectedActions(bench, selection)) {
    const user = bench.users.get(action.userId);
    if (!user) continue;
    const key = predictionKey(action.userId, action.index);
    const { filtered, questions } = await source.questions(user.file, action.userId, action.index, {
      maxHistoryTokens: opts.maxHistoryTokens,
    });
    const asked = questions.filter((q) => q.prompt !== null).map((q) => q.field);
    const extra = asked.filter((f) => !action.fields.includes(f));
    const unasked = filtered ? [] : action.fields.filter((f) => !asked.includes(f));
    if (filtered) warnings.push(`${key}: ${source.name} filters this record out; nothing is asked`);
    if (extra.length) warnings.push(`${key}: ${extra.join(', ')} asked, but not listed in test_actions.jsonl`);
    if (unasked.length) warnings.push(`${key}: test_actions.jsonl lists ${unasked.join(', ')}, which is not asked`);
    for (const q of questions) {
      if (q.prompt === null) continue;
      const shape = await source.request(q.kind, opts.model, opts.temperature);
      requests.push({
        label: `${key} ${q.field}`,
        system: '',
        prompt: q.prompt,
        done: done.has(key),
        maxTokens: cap(shape.params),
      });
    }
  }
  return { requests, warnings, problem: null };
}
