// The run dashboard's and the compare view's webview protocol: the one module both sides import (extension:
// src/extension/benchmarks/spb/dashboard and compare, webview: webview/spb/dashboard). Messages are discriminated on
// `type`; each message's type and its guard come from one definition (src/core/guards.ts), and each side checks
// what it receives with the guard. The webview posts `ready` first; only then does the extension post. Numbers that may be undefined travel as null (messages are JSON: NaN would not survive).
import { METRIC_NAMES } from '../../core/spb/names';
import type { FlippedTag } from '../../core/spb/score/runCompare';
import { saveChartShape } from '../chartExport';
import { TABLE_IDS, type TableId } from '../../core/spb/score/paperTables';
import { TABLE_FORMATS, type TableFormat, type TableModel as AnyTableModel } from '../../core/tables/format';
import type { ErrorKey, Pt } from '../../core/spb/score/figures';
import { METRIC_KEYS, PLATFORMS, isPlatform, type MetricKey, type Platform } from '../../core/spb/types';
import type { PiMark } from '../../core/pi/spans';
import type { RunPairStep } from '../../core/spb/view/runPair';
import type { SideModel } from '../../core/spb/view/sides';
import {
  array,
  arrayOf,
  bool,
  claim,
  type Infer,
  int,
  literal,
  message,
  messages,
  nullable,
  object,
  oneOf,
  optional,
  recordOf,
  shapeOf,
  str,
  union,
} from '../../core/guards';
import { whyRunsFailMessage } from '../whyRunsFailProtocol';

export const DASHBOARD_VIEW_TYPE = 'personaLab.dashboard';
export const COMPARE_VIEW_TYPE = 'personaLab.compare';

export type Num = number | null;
export const ERROR_KEYS: readonly ErrorKey[] = ['Error_Decay', 'Error_Peer', 'Error_Viral', 'Error_Random'];

export const isScope = union(literal('all'), isPlatform);
export type Scope = Infer<typeof isScope>;
export const isMetricKey = oneOf(METRIC_KEYS);
export const isErrorKey = oneOf(ERROR_KEYS);
const tableId = oneOf(TABLE_IDS);
const copyFormat = oneOf(TABLE_FORMATS);
export type { TableCell, TableColumn } from '../../core/tables/format';
export type { TableId };
export type TableModel = AnyTableModel<TableId>;
export type CopyFormat = TableFormat;
const sortOrder = literal('regression', 'gain');
export type SortOrder = Infer<typeof sortOrder>;

export const isRef = object({ platform: isPlatform, userId: str, stepId: int });
export type Ref = Infer<typeof isRef>;

// ---- dashboard model
export interface OperatingModel {
  budget: Num;
  ratio: Num;
  alpha: Num;
  rStab: Num;
  rNov: Num;
  f1: Num;
  steps: number;
  ratioSteps: number;
  /** constraint line α·R_stab + (1−α)·R_nov = B inside the unit square (x = R_stab, y = R_nov) */
  segment: Pt[];
  /** iso-F1 curve through the operating point */
  contour: Pt[];
}
export interface ScopeFigures {
  op: OperatingModel;
  byStep: { stepId: number; recall: Num; steps: number }[];
}
export interface PlatformBar {
  platform: Platform;
  errors: Record<ErrorKey, Num>;
  alpha: Num;
  steps: number;
}
export interface RunFigures {
  run: string;
  scopes: Partial<Record<Scope, ScopeFigures>>;
  platforms: PlatformBar[];
}
export interface DashboardModel {
  benchmark: string;
  /** every run of the benchmark, and those shown */
  runs: string[];
  selected: string[];
  /** run whose error bars are drawn */
  focus: string;
  scopes: Scope[];
  tables: TableModel[];
  figures: RunFigures[];
  /** background iso-F1 levels of Figure 4 */
  isoLevels: { f1: number; curve: Pt[] }[];
  /** the benchmark's samples (.personalab/samples/), for the "computed on" choice */
  samples: DashboardSampleChoice[];
  /** the sample the tables and figures are over; null: the whole benchmark (the default, the official figures) */
  sample: DashboardSample | null;
  /** run -> what made it, for runs Persona Lab made with its own prompt wording (not the benchmark's prompt) */
  marks: Record<string, string>;
  /** run -> "N of M steps; Avg. R … (official, with them), … excluding failed requests, not the paper's figure" */
  failed: Record<string, string>;
  /** run -> its persona memory (our reading, core/spb/score/tagMemory.ts), pooled over the platforms */
  memory: Record<string, DashboardMemory>;
  /** run -> "over 1 of 10 users, 2 of 17 steps", for the shown runs whose figures cover part of the benchmark (or sample) */
  coverage: Record<string, string>;
  /** what the figures are computed on, as the "Computed on" choice says it: "Whole benchmark" only when it is true */
  scopeLabel: string;
}
/** Counts of a run's persona memory; each share is of its whole (missed T_keep or D_decay picks), null when 0. */
export interface DashboardMemory {
  steps: number;
  missedTKeep: number;
  forgotten: number;
  ignored: number;
  neverCaptured: number;
  dDecayPicks: number;
  carriedOver: number;
  reInferred: number;
}
export interface DashboardSampleChoice {
  name: string;
  users: number;
}
export interface DashboardSample extends DashboardSampleChoice {
  /** "sample s5 (5 users)", shown wherever its figures are */
  label: string;
  /** located problems of the sample file (users not in the benchmark, tasks files changed) */
  problems: string[];
}

// ---- filtered step list
export type StepSort = 'budget' | 'ratio' | 'alpha' | 'recall' | ErrorKey;
const STEP_SORTS: readonly StepSort[] = ['budget', 'ratio', 'alpha', 'recall', ...ERROR_KEYS];

export const isStepFilter = object({
  run: str,
  scope: isScope,
  stepId: optional(int),
  /** only steps with a positive rate of this error class */
  errorKey: optional(isErrorKey),
  sort: optional(oneOf(STEP_SORTS)),
});
export type StepFilter = Infer<typeof isStepFilter>;
export interface StepRow extends Ref {
  recall: Num;
  rStab: Num;
  rNov: Num;
  errors: Num[];
  budget: Num;
  alpha: Num;
  ratio: Num;
}

// ---- compare model
export interface SummaryRow {
  metric: MetricKey | 'F1NS';
  meanA: Num;
  meanB: Num;
  diff: Num;
  ciLow: Num;
  ciHigh: Num;
  users: number;
  userWtl: [number, number, number];
  stepWtl: [number, number, number] | null;
  higherIsBetter: boolean;
}
export interface CompareRow extends Ref {
  /** the seven metrics in METRIC_KEYS order */
  a: Num[];
  b: Num[];
  delta: Num[];
  gained: FlippedTag[];
  lost: FlippedTag[];
  newWrong: FlippedTag[];
  droppedWrong: FlippedTag[];
}
export interface CompareModel {
  runA: string;
  runB: string;
  /** each side's coverage in the scope (core/coverage.ts words), whether whole, and what the comparison is over when
   *  the two cover different steps; null when not known */
  coverage: { a: string; b: string; whole: [boolean, boolean]; over: string | null } | null;
  /** run A's and run B's origin marks when Persona Lab made them with its own prompt wording */
  marks: Record<string, string>;
  runs: string[];
  scope: Scope;
  scopes: Scope[];
  sortMetric: MetricKey;
  order: SortOrder;
  summary: SummaryRow[];
  rows: CompareRow[];
  paired: number;
  onlyA: number;
  onlyB: number;
  resamples: number;
  seed: number;
}

// ---- extension -> webview
const dashboardModel = shapeOf<DashboardModel>()({
  benchmark: str,
  runs: arrayOf(str),
  selected: arrayOf(str),
  focus: str,
  scopes: arrayOf(isScope),
  tables: array,
  figures: array,
  isoLevels: array,
  samples: array,
  sample: union(literal(null), object({ name: str, users: int, label: str, problems: arrayOf(str) })),
  marks: recordOf(str),
  failed: recordOf(str),
  coverage: recordOf(str),
  scopeLabel: str,
  memory: recordOf(
    object({
      steps: int,
      missedTKeep: int,
      forgotten: int,
      ignored: int,
      neverCaptured: int,
      dDecayPicks: int,
      carriedOver: int,
      reInferred: int,
    }),
  ),
});
const sideModel = shapeOf<SideModel>()({
  hasResult: bool,
  picks: array,
  personaIn: nullable(str),
  personaWritten: str,
  reasoning: str,
});
const compareModel = shapeOf<CompareModel>()({
  runA: str,
  runB: str,
  coverage: union(
    literal(null),
    object({ a: str, b: str, whole: claim<[boolean, boolean]>()(arrayOf(bool)), over: nullable(str) }),
  ),
  marks: recordOf(str),
  runs: arrayOf(str),
  scope: isScope,
  scopes: array,
  sortMetric: isMetricKey,
  order: sortOrder,
  summary: array,
  rows: array,
});

/** One step of both runs side by side (src/core/spb/view/runPair.ts). */
const runPairStep = shapeOf<RunPairStep>()({
  ref: isRef,
  runA: str,
  runB: str,
  before: sideModel,
  after: sideModel,
  flipped: array,
  metrics: array,
  personaDiff: nullable(array),
});

/** Guard for what the webview receives from the extension. Dataset strings inside are rendered as text only. */
export const isExtensionToWebview = messages(
  message('dashboard', { model: dashboardModel }),
  message('compare', { model: compareModel }),
  message('steps', { title: str, note: str, filter: isStepFilter, rows: claim<StepRow[]>()(arrayOf(isRef)) }),
  message('empty', { message: str }),
  whyRunsFailMessage,
  message('pair', { pair: runPairStep, pi: claim<Record<string, PiMark[]>>()(recordOf(array)) }),
  message('pairMissing', { ref: isRef, message: str }),
);
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

// ---- webview -> extension

/** Guard for what the extension receives from the webview. */
export const isWebviewToExtension = messages(
  message('ready'),
  message('setRuns', { runs: arrayOf(str) }),
  message('setFocus', { run: str }),
  /** the sample the dashboard is computed on; absent: the whole benchmark */
  message('setSample', { name: optional(str) }),
  message('listSteps', { filter: isStepFilter }),
  message('openStep', { ref: isRef, run: str }),
  /** show the step of both runs side by side in the compare view */
  message('openPair', { ref: isRef }),
  message('closePair'),
  message('copyTable', { table: tableId, format: copyFormat }),
  message('saveChart', saveChartShape),
  message('compareOptions', { scope: isScope, sortMetric: isMetricKey, order: sortOrder }),
  message('pickRuns'),
  message('swapRuns'),
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;

/** NaN / ±Infinity → null, for the JSON trip. */
export function num(x: number): Num {
  return Number.isFinite(x) ? x : null;
}

export const SCOPE_LABELS: Record<Scope, string> = {
  all: 'All platforms (Avg.)',
  weibo: 'Weibo',
  xiaohongshu: 'Xiaohongshu',
  toutiao: 'Toutiao',
  zhihu: 'Zhihu',
  douban: 'Douban',
};
export const ALL_SCOPES: readonly Scope[] = ['all', ...PLATFORMS];

/** The metrics' short names (src/core/spb/names.ts). */
export const METRIC_LABELS = Object.fromEntries(Object.entries(METRIC_NAMES).map(([k, n]) => [k, n.short])) as Record<
  MetricKey | 'F1NS',
  string
>;
