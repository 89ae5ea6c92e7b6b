// Reads one results file (`results/<run>/inference_results_<platform>.jsonl`) and checks it against the tasks.
import { DiagnosticSink, isInt, isRecord } from '../../io/diagnostics';
import { pyNumber, type ReadFrom } from '../../io/jsonl';
import { readSkimmedUserRows } from '../../io/rows';
import { skimSpec } from '../../io/skim';
import { FileStepResult, spanSource, type SpanSource } from './stepText';
import { countHits, metricsFromHits, metricsTableOf, splitIndex } from '../score/step';
import { attachPickTables } from '../score/table';
import type { FileFigures } from '../score/fileFigures';
import { tableStep, tableStepValues, type TableStep } from '../score/tableUsers';
import { describe, type Interner } from './tasks';
import {
  METRIC_KEYS,
  type Platform,
  type PoolSplit,
  type StepMetrics,
  type StepResult,
  type User,
  type UserResult,
} from '../types';

/** Where a read resumes a results file that grew: the rows read before (the sink holds their diagnostics). */
export interface ResultsResume extends ReadFrom {
  results: Map<string, UserResult>;
}

/**
 * Reads the file (or, with `resume`, what was appended to it); `lines` is the number of lines it has now. With
 * `fold`, each row is checked against the fold's table users (not `users`), goes to the fold and is not kept:
 * `results` is then empty.
 */
export async function readResultsFile(
  absPath: string,
  relPath: string,
  platform: Platform,
  users: ReadonlyMap<string, User> | undefined,
  sink: DiagnosticSink,
  intern: Interner,
  onProgress?: (bytes: number) => void,
  resume?: ResultsResume,
  fold?: FileFigures,
): Promise<{ results: Map<string, UserResult>; lines: number }> {
  const results = resume?.results ?? new Map<string, UserResult>();
  // The rows' users, for the duplicate check, when the rows themselves are not kept.
  const seen = fold ? new Set<string>() : results;
  const source = spanSource(absPath);
  const lines = await readSkimmedUserRows(
    absPath,
    // A folded row is let go at once, so the texts decoded with it are never kept; and parsing the whole line
    // natively is cheaper than finding the texts and parsing around them (docs/performance.md, cold time).
    fold ? undefined : RESULT_SKIM,
    sink,
    describe,
    (value, raw, spans) => {
      if (!Array.isArray(value.steps)) {
        return sink.error(raw.line, 'steps', `expected an array, got ${describe(value.steps)}`);
      }
      const tableUser = fold?.users.get(value.user_id);
      const fullUser = fold ? undefined : users?.get(value.user_id);
      const user = tableUser ?? fullUser;
      if (!user) {
        return sink.warn(raw.line, 'user_id', `unknown user ${value.user_id} (not in the ${platform} tasks); ignored`);
      }
      if (seen.has(value.user_id)) {
        return sink.warn(raw.line, 'user_id', `duplicate result row for ${value.user_id}; the later one is ignored`);
      }
      const result: UserResult = {
        userId: user.userId, // the tasks' string: map lookups by it then compare pointers, not text
        platform,
        username: typeof value.username === 'string' ? value.username : '',
        steps: new Map(),
        file: relPath,
        line: raw.line,
      };
      const truthOf = (id: number): StepTruth | undefined =>
        tableUser ? tableStep(tableUser, id) : fullUser?.steps.find((s) => s.stepId === id)?.split;
      value.steps.forEach((s, i) => {
        const at = `steps[${i}]`;
        const step = readStepResult(
          s,
          at,
          raw.line,
          user.userId,
          truthOf,
          sink,
          fold ? undefined : intern,
          spans,
          source,
        );
        if (!step) return;
        if (result.steps.has(step.stepId)) {
          sink.warn(raw.line, `steps[${i}].step_id`, `duplicate step id ${step.stepId}; the later one is ignored`);
          return;
        }
        result.steps.set(step.stepId, step);
      });
      if (fold && tableUser) {
        (seen as Set<string>).add(user.userId);
        fold.add(tableUser, result);
      } else results.set(user.userId, result);
    },
    onProgress,
    resume,
  );
  if (users) attachPickTables(results, users);
  return { results, lines };
}

// Scoring reads ids, picks and metrics; the texts are read back when a view shows them, ground_truth never (the
// tasks' split is the truth).
const RESULT_SKIM = skimSpec(['reasoning', 'persona_summary'], ['ground_truth']);

function readStepResult(
  value: unknown,
  at: string,
  line: number,
  userId: string,
  truthOf: (stepId: number) => StepTruth | undefined,
  sink: DiagnosticSink,
  /** Shares the picks' strings with the tasks' tags, for rows that are kept; a folded row's go with it. */
  intern: Interner | undefined,
  spans: readonly number[],
  file: SpanSource | undefined,
): StepResult | null {
  if (!isRecord(value)) {
    sink.error(line, at, `expected an object, got ${describe(value)}`);
    return null;
  }
  if (!isInt(value.step_id)) {
    sink.error(line, `${at}.step_id`, `expected an integer, got ${describe(value.step_id)}`);
    return null;
  }
  const task = truthOf(value.step_id);
  if (!task) {
    sink.warn(line, `${at}.step_id`, `user ${userId} has no step ${value.step_id}; ignored`);
    return null;
  }
  let prediction: unknown[] = [];
  if (Array.isArray(value.prediction)) {
    // In place: the parsed array is ours, and a copy per step is garbage the load would pay for.
    prediction = value.prediction;
    for (let i = 0; intern && i < prediction.length; i++) {
      const p = prediction[i];
      if (typeof p === 'string') prediction[i] = intern.get(p);
    }
  } else {
    sink.error(line, `${at}.prediction`, `expected an array, got ${describe(value.prediction)}; taken as no picks`);
  }
  const stored = readMetrics(value.metrics, `${at}.metrics`, line, sink);
  const exact = stored && agreesWithScore(stored, task, prediction, true);
  if (stored !== undefined && !exact && !agreesWithScore(stored, task, prediction)) {
    const recomputed = stepValues(task, prediction, values) ? metricsTableOf((m) => values[m]) : null;
    sink.warn(
      line,
      `${at}.metrics`,
      `stored metrics disagree with the recomputed ones (${metricsDiff(stored, recomputed)})`,
    );
  }
  if (spans.length && file) {
    const [rAt, rLength] = spanOf(value.reasoning, spans);
    const [pAt, pLength] = spanOf(value.persona_summary, spans);
    // A table step is a cold figures-only read's, which keeps no texts and so never gets here.
    const kept = exact && !isTableStep(task) ? { scoredBy: task } : stored;
    return new FileStepResult(value.step_id, prediction, kept, line, file, rAt, rLength, pAt, pLength);
  }
  return {
    stepId: value.step_id,
    prediction,
    storedMetrics: stored,
    reasoning: typeof value.reasoning === 'string' ? value.reasoning : '',
    personaSummary: typeof value.persona_summary === 'string' ? value.persona_summary : '',
    line,
  };
}

/** A skimmed line's string value is the marker of its span: [file offset, byte length], or [0, 0] for no string. */
function spanOf(marker: unknown, spans: readonly number[]): [number, number] {
  if (typeof marker !== 'string') return [0, 0];
  const n = Number(marker);
  return [spans[2 * n], spans[2 * n + 1] - spans[2 * n]];
}

/** undefined when absent or unreadable (reported), null when the file says null. */
function readMetrics(value: unknown, at: string, line: number, sink: DiagnosticSink): StepMetrics | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (!isRecord(value)) {
    sink.warn(line, at, `expected an object or null, got ${describe(value)}`);
    return undefined;
  }
  for (const key of METRIC_KEYS) {
    if (pyNumber(value[key]) === undefined) {
      sink.warn(line, `${at}.${key}`, `expected a number, got ${describe(value[key])}`);
      return undefined;
    }
  }
  // One literal: an object filled key by key spills past its in-object slots into a second allocation.
  const n = (key: string) => pyNumber(value[key]) as number;
  return {
    Recall: n('Recall'),
    Recall_Novelty: n('Recall_Novelty'),
    Recall_Stability: n('Recall_Stability'),
    Error_Decay: n('Error_Decay'),
    Error_Peer: n('Error_Peer'),
    Error_Viral: n('Error_Viral'),
    Error_Random: n('Error_Random'),
  };
}

const close = (a: number, b: number) => (Number.isNaN(a) ? Number.isNaN(b) : Math.abs(a - b) <= 1e-9);

const hits = new Int32Array(8);
const values = new Float64Array(7);

/** The tasks' side of a step a result is checked against: its split, or its entry in a table user (tableUsers.ts). */
type StepTruth = PoolSplit | TableStep;

const isTableStep = (t: StepTruth): t is TableStep => 'splits' in t;

/** The step's metrics into `out` (METRIC_KEYS order); false when it is not scored (no positives). */
function stepValues(truth: StepTruth, prediction: readonly unknown[], out: Float64Array): boolean {
  if (isTableStep(truth)) return tableStepValues(truth, prediction, out);
  const ix = splitIndex(truth);
  if (ix.K === 0) return false;
  countHits(ix, prediction, hits);
  metricsFromHits(ix, hits, out);
  return true;
}

/**
 * Whether the stored metrics are the step's score (within 1e-9, or to the bit with `exact`), checked without
 * building a metrics object: the loader asks for every step of every load, the index for every step it writes.
 */
export function agreesWithScore(
  stored: StepMetrics | null,
  truth: StepTruth,
  prediction: readonly unknown[],
  exact = false,
): boolean {
  if (stored === null) return !stepValues(truth, prediction, values);
  if (!stepValues(truth, prediction, values)) return false;
  for (let m = 0; m < METRIC_KEYS.length; m++) {
    const a = stored[METRIC_KEYS[m]];
    if (exact ? !Object.is(a, values[m]) : !close(a, values[m])) return false;
  }
  return true;
}

function metricsDiff(stored: StepMetrics | null, recomputed: StepMetrics | null): string {
  if (stored === null) return 'stored null, the step is scored';
  if (recomputed === null) return 'stored values, but the step has no positives';
  return METRIC_KEYS.filter((k) => !close(stored[k], recomputed[k]))
    .map((k) => `${k} ${stored[k]} vs ${recomputed[k]}`)
    .join(', ');
}
