// StreamProfileBench's data model: platforms, pool classes, steps, users, results, runs. Pure TypeScript.

import type { Diagnostic, LineRef } from '../io/diagnostics';

export const PLATFORMS = ['weibo', 'xiaohongshu', 'toutiao', 'zhihu', 'douban'] as const;
export type Platform = (typeof PLATFORMS)[number];

export function isPlatform(value: unknown): value is Platform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

/** The six classes of the candidate pool, named as in the paper. `dPeer` is stored as `D_cluster`. */
export const POOL_CLASSES = ['tKeep', 'tNew', 'dDecay', 'dPeer', 'dViral', 'dRandom'] as const;
export type PoolClass = (typeof POOL_CLASSES)[number];

/** The `meta` key under which each class is stored in the release. */
export const META_KEYS: Record<PoolClass, string> = {
  tKeep: 'T_keep',
  tNew: 'T_new',
  dDecay: 'D_decay',
  dPeer: 'D_cluster',
  dViral: 'D_viral',
  dRandom: 'D_random',
};

export type PoolSplit = Record<PoolClass, string[]>;

export interface Step {
  stepId: number;
  totalSteps: number;
  dateInput: string;
  dateTarget: string;
  pool: string[];
  split: PoolSplit;
  /** Index of this step inside the user's `prediction_tasks` array (to find its `posts_text` again). */
  index: number;
}

export interface User {
  userId: string;
  platform: Platform;
  username: string;
  bio: string;
  totalSteps: number;
  steps: Step[];
  /** Relative path of the tasks file, for diagnostics. */
  file: string;
  ref: LineRef;
}

/** The reference runner's seven per-step metrics. */
export const METRIC_KEYS = [
  'Recall',
  'Recall_Novelty',
  'Recall_Stability',
  'Error_Decay',
  'Error_Peer',
  'Error_Viral',
  'Error_Random',
] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];
/** NaN marks an undefined metric (empty denominator), exactly as Python's float('nan'). */
export type StepMetrics = Record<MetricKey, number>;

export interface StepResult {
  stepId: number;
  /** As returned by the model: may hold duplicates, out-of-pool tags, or non-strings. */
  prediction: unknown[];
  storedMetrics: StepMetrics | null | undefined;
  reasoning: string;
  personaSummary: string;
  line: number;
}

export interface UserResult {
  userId: string;
  platform: Platform;
  username: string;
  steps: Map<number, StepResult>;
  file: string;
  line: number;
}

export interface Run {
  name: string;
  /** platform -> userId -> result */
  results: Map<Platform, Map<string, UserResult>>;
  /** relative results file per platform */
  files: Map<Platform, string>;
}

export interface Benchmark {
  /** Absolute folder path (for a single tasks file: its folder's parent layout is not required). */
  root: string;
  /** platform -> userId -> user, in file order */
  users: Map<Platform, Map<string, User>>;
  runs: Map<string, Run>;
  diagnostics: Diagnostic[];
  /** relative tasks file per platform */
  taskFiles: Map<Platform, string>;
}

/** A benchmark with nothing read yet but the problems found while finding its files. */
export function emptyBenchmark(root: string, problems: readonly Diagnostic[]): Benchmark {
  return { root, users: new Map(), runs: new Map(), diagnostics: [...problems], taskFiles: new Map() };
}
