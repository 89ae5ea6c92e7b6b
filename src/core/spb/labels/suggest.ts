// Label suggestions computed from a step's metrics. They are plain values for the step view to show and the user
// to confirm; nothing here touches the store.
import type { ReplyFlag } from '../prompt/response';
import { kForPool, pickSet, scoreStep } from '../score/step';
import type { PoolClass, PoolSplit } from '../types';
import { CLASS_NAMES } from '../names';
import type { LabelDef } from '../../labels/labelDefs';

export interface SuggestInput {
  split: PoolSplit;
  pool: readonly string[];
  /** The run's prediction as returned (duplicates, out-of-pool tags and non-strings included). */
  prediction: readonly unknown[];
  /** The step's reasoning: the runner records "Error: ..." with no picks after three failed attempts. */
  reasoning?: string;
  /** Flags of parseReply() when the raw reply is at hand (re-runs); they add the not-JSON kinds of format error. */
  replyFlags?: readonly ReplyFlag[];
}

export interface Suggestion {
  labelId: string;
  /** One line saying why, e.g. "picked D_decay tag(s): #a#". */
  reason: string;
  /** The tags behind the suggestion (picked distractors, missed positives, stray picks); may be empty. */
  tags: string[];
}

export interface SuggestOptions {
  /** Only suggest ids of this label set (a workspace set may not have all the defaults). */
  labels?: readonly LabelDef[];
  /**
   * When to suggest "Missed T_new" / "Missed T_keep": 'none-picked' (the default) when no tag of T_new / T_keep
   * was picked, 'any-missed' as soon as one of them was not picked.
   */
  missed?: 'none-picked' | 'any-missed';
}

const DISTRACTORS: { cls: PoolClass; labelId: string }[] = [
  { cls: 'dDecay', labelId: 'decay-error' },
  { cls: 'dPeer', labelId: 'peer-confusion' },
  { cls: 'dViral', labelId: 'popularity-bias' },
  { cls: 'dRandom', labelId: 'random-pick' },
];

const FORMAT_FLAGS = new Set<ReplyFlag['code']>([
  'not_json',
  'not_object',
  'missing_key',
  'wrong_type',
  'count',
  'duplicates',
  'out_of_pool',
]);

function list(tags: readonly string[]): string {
  const shown = tags.slice(0, 5).join(', ');
  return tags.length > 5 ? `${shown} and ${tags.length - 5} more` : shown;
}

export function suggestLabels(input: SuggestInput, opts: SuggestOptions = {}): Suggestion[] {
  const out: Suggestion[] = [];
  const picks = pickSet(input.prediction);
  const metrics = scoreStep(input.split, input.prediction);

  for (const d of DISTRACTORS) {
    const hit = [...new Set(input.split[d.cls])].filter((t) => picks.has(t));
    if (hit.length > 0)
      out.push({ labelId: d.labelId, reason: `picked ${CLASS_NAMES[d.cls].name} tag(s): ${list(hit)}`, tags: hit });
  }

  if (metrics) {
    const mode = opts.missed ?? 'none-picked';
    const missed = (cls: 'tNew' | 'tKeep', recall: number, labelId: string, meta: string) => {
      if (Number.isNaN(recall)) return;
      if (mode === 'none-picked' ? recall !== 0 : recall === 1) return;
      const tags = [...new Set(input.split[cls])].filter((t) => !picks.has(t));
      out.push({ labelId, reason: `${meta} not picked: ${list(tags)}`, tags });
    };
    missed('tNew', metrics.Recall_Novelty, 'missed-novelty', CLASS_NAMES.tNew.name);
    missed('tKeep', metrics.Recall_Stability, 'missed-stability', CLASS_NAMES.tKeep.name);
  }

  const format = formatProblems(input);
  if (format.reasons.length > 0)
    out.push({ labelId: 'format-error', reason: format.reasons.join('; '), tags: format.tags });

  const known = opts.labels ? new Set(opts.labels.map((l) => l.id)) : null;
  return known ? out.filter((s) => known.has(s.labelId)) : out;
}

function formatProblems(input: SuggestInput): { reasons: string[]; tags: string[] } {
  const reasons: string[] = [];
  const tags = new Set<string>();
  const failed =
    typeof input.reasoning === 'string' && input.reasoning.startsWith('Error:') && input.prediction.length === 0;
  if (failed) reasons.push(`no reply after the runner's retries (${input.reasoning?.slice(0, 80)})`);
  for (const f of input.replyFlags ?? []) {
    if (!FORMAT_FLAGS.has(f.code)) continue;
    reasons.push(f.message);
    if (f.code === 'duplicates' || f.code === 'out_of_pool') f.tags.forEach((t) => tags.add(t));
  }
  if (input.replyFlags && input.replyFlags.length > 0) return { reasons, tags: [...tags] };
  // No parse flags at hand: judge the stored prediction alone.
  if (failed) return { reasons, tags: [] };
  const k = kForPool(input.pool.length);
  if (input.prediction.length !== k) reasons.push(`${input.prediction.length} tag(s) predicted, ${k} asked for`);
  const pool = new Set(input.pool);
  const seen = new Set<string>();
  const dups = new Set<string>();
  const outside = new Set<string>();
  let nonStrings = 0;
  for (const t of input.prediction) {
    if (typeof t !== 'string') {
      nonStrings++;
      continue;
    }
    if (seen.has(t)) dups.add(t);
    seen.add(t);
    if (!pool.has(t)) outside.add(t);
  }
  if (nonStrings > 0) reasons.push(`${nonStrings} non-string pick(s)`);
  if (dups.size > 0) reasons.push(`duplicates: ${list([...dups])}`);
  if (outside.size > 0) reasons.push(`not in the pool: ${list([...outside])}`);
  [...dups, ...outside].forEach((t) => tags.add(t));
  return { reasons, tags: [...tags] };
}
