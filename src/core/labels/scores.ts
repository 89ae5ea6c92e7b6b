// People's scores of a judged utterance on the dimensions of its format's judge (its descriptor's
// `labels.judgeDimensions`), kept in the label database beside the labels (table judge_scores, schema v4). A score
// belongs to one author, one run's predicted next_user_message at one test action, and one dimension; an author has at
// most one score there, 1–10, and setting it again replaces it.
// `contentHash` is the hash of the utterance scored, so that a score of an answer the run no longer holds (the run
// was made again) is known as such and left out of the agreement.
import { textProblem } from './storableText';
import { crypto } from '../io/builtins';

export interface ScoreKey {
  benchmark: string;
  userId: string;
  /** the test action's index in action_history */
  index: number;
  run: string;
  author: string;
  /** one of a format's judge dimensions */
  dimension: string;
}

export interface ScoreRow extends ScoreKey {
  /** 1–10 */
  score: number;
  createdAt: string;
  contentHash: string;
}

export const MIN_SCORE = 1;
export const MAX_SCORE = 10;

/**
 * Why `k` (and `score`, when given) cannot be stored; null when it can. `dimensions`: the formats' judge dimensions
 * (platformRules.ts' judgeDimensions; this module is below the registry, which it cannot read).
 */
export function scoreProblem(k: ScoreKey, dimensions: readonly string[], score?: number): string | null {
  for (const f of ['benchmark', 'userId', 'run', 'author'] as const) {
    if (typeof k[f] !== 'string' || k[f] === '') return `${f} must be a non-empty string`;
    const text = textProblem(k[f]);
    if (text) return `${f} ${text}`;
  }
  if (!Number.isSafeInteger(k.index) || k.index < 0) return 'index must be a non-negative integer';
  if (typeof k.dimension !== 'string' || !dimensions.includes(k.dimension))
    return `dimension must be one of ${dimensions.join(', ')}`;
  if (score !== undefined && (!Number.isInteger(score) || score < MIN_SCORE || score > MAX_SCORE))
    return `a score is a whole number from ${MIN_SCORE} to ${MAX_SCORE}, got ${score}`;
  return null;
}

export function scoreKeyOf(r: ScoreKey): ScoreKey {
  const { benchmark, userId, index, run, author, dimension } = r;
  return { benchmark, userId, index, run, author, dimension };
}

/** The hash a score keeps of the utterance it scored. */
export function utteranceHash(text: string): string {
  return crypto().createHash('sha256').update(text, 'utf8').digest('hex');
}
