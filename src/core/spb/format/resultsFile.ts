// StreamProfileBench's results file, `inference_results_<platform>.jsonl`, written as the reference runner writes it
// (one json.dumps line per user, metrics as floats), for runs and baselines.
import { pyJsonDumps } from '../../io/pyjson';
import { writeFileInsideAsync } from '../../io/safeFs';
import { METRIC_KEYS, type StepMetrics } from '../types';

/** One step of the official results file (spec section 4), keys in the reference's order. */
export interface ResultStepRecord {
  step_id: number;
  /** the model's predicted_tags as returned */
  prediction: unknown[];
  /** new_tags + keep_tags */
  ground_truth: string[];
  metrics: StepMetrics | null;
  reasoning: string;
  persona_summary: string;
}

export interface ResultUserRecord {
  user_id: string;
  platform: string;
  username: string;
  steps: ResultStepRecord[];
}

const RESULT_FLOAT_KEYS: ReadonlySet<string> = new Set<string>(METRIC_KEYS);

/** One line of a results file, exactly as the reference's json.dumps writes it (metrics as floats). */
export function resultLine(user: ResultUserRecord): string {
  const steps = (Array.isArray(user.steps) ? user.steps : []).map((s) => ({
    step_id: s.step_id,
    prediction: s.prediction,
    ground_truth: s.ground_truth,
    metrics: s.metrics ?? null,
    reasoning: s.reasoning,
    persona_summary: s.persona_summary,
  }));
  const record = { user_id: user.user_id, platform: user.platform, username: user.username, steps };
  return pyJsonDumps(record, { floatKeys: RESULT_FLOAT_KEYS });
}

/**
 * Writes `inference_results_<platform>.jsonl` content atomically (temp file in the same folder, then rename), refused
 * when the file's real path is not inside `within` (the benchmark folder).
 */
export async function writeResultsFile(
  path: string,
  users: readonly ResultUserRecord[],
  within: string,
): Promise<void> {
  await writeFileInsideAsync(within, path, users.map((u) => resultLine(u) + '\n').join(''));
}
