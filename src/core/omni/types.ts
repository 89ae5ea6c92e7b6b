// OmniBehavior as Persona Lab holds it (docs/formats.md). The folder layout is ours, since the format gives record
// shapes only:
//   <root>/raw/<user_id>.json                  one raw user file: { "<user_id>": { user_profile, action_history } }
//   <root>/test_actions.jsonl                  one line per test action: { user_id, index, fields: [field, ...] }
//   <root>/results/<run>/predictions.jsonl     one line per test action: { user_id, index, questions: [...] }
// `index` is the test action's position in the user's action_history; the history before it is the model's input.
import type { Diagnostic } from '../io/diagnostics';

/** One raw user file's index (history.ts builds it): per-record facts in typed arrays; records stay on disk. */
export interface HistoryIndex {
  userId: string;
  profile: string;
  count: number;
  /** Byte offset and length of each action_history element. */
  offsets: Float64Array;
  lengths: Uint32Array;
  /** 1-based line where each element starts. */
  lines: Uint32Array;
  /** Index into SCENES; UNKNOWN_SCENE when the scene is unknown or the record unreadable. */
  scenes: Uint8Array;
  /** Epoch ms (UTC reading); NaN when the timestamp is not a date. */
  times: Float64Array;
  /** Bitmask over BEHAVIOURS: bit i set when the record has an action of type BEHAVIOURS[i]. */
  behaviours: Uint32Array;
}

/** English scene names; the Chinese files' names (直播间, 视频浏览, …) are mapped to these on reading. */
export type Scene =
  'Video Browsing' | 'Live Streaming' | 'Advertisement' | 'E-commerce' | 'Search Behavior' | 'Customer Service';

export type FieldKind = 'binary' | 'continuous' | 'text';

/** The headline components (spec "Scoring"); the overall score is their mean and undefined if any is missing. */
export type ComponentId = 'videoBinary' | 'liveBinary' | 'adsBinary' | 'shopBinary' | 'videoContinuous' | 'shopText';

/** One action_history record, as read from the raw file (values may be null). */
export interface HistoryRecord {
  /** Position in action_history. */
  index: number;
  scene: Scene;
  /** The scene as written in the file (Chinese or English). */
  sceneRaw: string;
  /** The timestamp text as written ("YYYY-MM-DD HH:MM:SS" or date-only for ads). */
  timestamp: string;
  /** Epoch milliseconds (UTC reading of the text); NaN when the text is not a date. */
  time: number;
  context: Record<string, unknown> | null;
  actions: { type: string; [attr: string]: unknown }[];
  /** 1-based line in the raw file where the record starts (for diagnostics and opening at the record). */
  line: number;
}

/** One user, without the history: that stays on disk until a view asks for it. */
export interface OmniUser {
  userId: string;
  profile: string;
  /** The raw file of this user (absolute path: pass it to readHistory). */
  file: string;
  /** The same file relative to the benchmark root, as diagnostics name it. */
  relFile: string;
  /** Number of action_history records, counted while indexing the file. */
  historyLength: number;
  /** Per-record facts (offsets, lines, scenes, times, behaviours) in typed arrays; records stay on disk. */
  index: HistoryIndex;
  testActions: TestAction[];
}

export interface TestAction {
  userId: string;
  index: number;
  scene: Scene;
  timestamp: string;
  fields: string[];
  /** Line in test_actions.jsonl. */
  line: number;
  /**
   * A video record's context `duration` in seconds (a number, or a string such as `45秒`): the normaliser of its
   * video_watch_seconds question. undefined for other scenes, and when missing or not above 0.
   */
  normaliser: number | undefined;
}

export interface Question {
  type: FieldKind;
  field: string;
  trueValue: string | number | null;
  predictedValue: string | number | null;
  /** A binary answer's label as scored: `predicted_label`, else Yes at a predicted value ≥ 0.5; null when neither. */
  predictedLabel: number | null;
  rawOutput: string;
  promptTokens?: number;
  completionTokens?: number;
  /** LLM judge score, 1–10, for text fields (spec: shop text score = mean × 10). */
  judgeScore?: number;
  /** The judge's four dimensions (intent_fidelity, persona_mimicry, knowledge_boundary, semantic_alignment), 1–10. */
  judgeScores?: JudgeScores;
  /** The model that judged this answer. */
  judgeModel?: string;
  /** The question's own `video_duration`, as the reference's runner writes it; it comes before the record's duration. */
  videoDuration?: string | number;
}

export interface Prediction {
  userId: string;
  index: number;
  questions: Question[];
  /** predictions.jsonl relative to the benchmark root. */
  file: string;
  line: number;
}

export interface OmniRun {
  name: string;
  /** Absolute path of results/<run>/. */
  dir: string;
  /** predictions.jsonl relative to the benchmark root. */
  file: string;
  /** Keyed by `${userId}#${index}`. */
  predictions: Map<string, Prediction>;
}

export interface OmniBenchmark {
  root: string;
  users: Map<string, OmniUser>;
  runs: Map<string, OmniRun>;
  diagnostics: Diagnostic[];
}

/** The judge's four dimensions, each scored 1–10 (the authors' evaluator, and people scoring beside it). */
export const JUDGE_DIMENSIONS = [
  'intent_fidelity',
  'persona_mimicry',
  'knowledge_boundary',
  'semantic_alignment',
] as const;
export type JudgeDimension = (typeof JUDGE_DIMENSIONS)[number];
export type JudgeScores = Record<JudgeDimension, number>;

export function isJudgeDimension(x: string): x is JudgeDimension {
  return (JUDGE_DIMENSIONS as readonly string[]).includes(x);
}

export const predictionKey = (userId: string, index: number): string => `${userId}#${index}`;
