// The run dashboard's and the compare view's webview protocol: the one module both sides import (extension:
// src/extension/dashboard and src/extension/compare, webview: webview/dashboard). Messages are discriminated on
// `type`; each side checks what it receives with a guard. The webview posts `ready` first; only then does the
// extension post. Numbers that may be undefined travel as null (messages are JSON: NaN would not survive).
import type { FlippedTag } from '../core/spb/runCompare';
import type { ErrorKey, Pt } from '../core/spb/figures';
import { METRIC_KEYS, PLATFORMS, isPlatform, type MetricKey, type Platform } from '../core/spb/types';

export const DASHBOARD_VIEW_TYPE = 'personaLab.dashboard';
export const COMPARE_VIEW_TYPE = 'personaLab.compare';

export type Num = number | null;
export type Scope = 'all' | Platform;
export type TableId = 't4' | 't5' | 't6';
export type CopyFormat = 'markdown' | 'csv';
export type SortOrder = 'regression' | 'gain';
export const ERROR_KEYS: readonly ErrorKey[] = ['Error_Decay', 'Error_Peer', 'Error_Viral', 'Error_Random'];

export interface Ref {
  platform: Platform;
  userId: string;
  stepId: number;
}

// ---- dashboard model
export interface TableColumn {
  /** platform label or "Avg." */
  group: string;
  head: string;
  lowerIsBetter: boolean;
}
export interface TableCell {
  /** percentage with two decimals, or "—" */
  text: string;
  value: Num;
  /** 1 best, 2 second best, 0 neither (ranked on the shown figures) */
  rank: 0 | 1 | 2;
}
export interface TableModel {
  id: TableId;
  title: string;
  columns: TableColumn[];
  rows: { run: string; cells: TableCell[] }[];
}

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
}

// ---- filtered step list
export type StepSort = 'budget' | 'ratio' | 'alpha' | 'recall' | ErrorKey;
export interface StepFilter {
  run: string;
  scope: Scope;
  stepId?: number;
  /** only steps with a positive rate of this error class */
  errorKey?: ErrorKey;
  sort?: StepSort;
}
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
export type ExtensionToWebview =
  | { type: 'dashboard'; model: DashboardModel }
  | { type: 'compare'; model: CompareModel }
  | { type: 'steps'; title: string; note: string; filter: StepFilter; rows: StepRow[] }
  | { type: 'empty'; message: string };

// ---- webview -> extension
export type WebviewToExtension =
  | { type: 'ready' }
  | { type: 'setRuns'; runs: string[] }
  | { type: 'setFocus'; run: string }
  | { type: 'listSteps'; filter: StepFilter }
  | { type: 'openStep'; ref: Ref; run: string }
  | { type: 'openPair'; ref: Ref }
  | { type: 'copyTable'; table: TableId; format: CopyFormat }
  | { type: 'compareOptions'; scope: Scope; sortMetric: MetricKey; order: SortOrder }
  | { type: 'pickRuns' }
  | { type: 'swapRuns' };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
export const isScope = (v: unknown): v is Scope => v === 'all' || isPlatform(v);
export const isMetricKey = (v: unknown): v is MetricKey => typeof v === 'string' && (METRIC_KEYS as readonly string[]).includes(v);
export const isErrorKey = (v: unknown): v is ErrorKey => typeof v === 'string' && (ERROR_KEYS as readonly string[]).includes(v);
const SORTS: readonly string[] = ['budget', 'ratio', 'alpha', 'recall', ...ERROR_KEYS];

export function isRef(v: unknown): v is Ref {
  return isRecord(v) && isPlatform(v.platform) && typeof v.userId === 'string' && Number.isInteger(v.stepId);
}

export function isStepFilter(v: unknown): v is StepFilter {
  return (
    isRecord(v) && typeof v.run === 'string' && isScope(v.scope) &&
    (v.stepId === undefined || Number.isInteger(v.stepId)) &&
    (v.errorKey === undefined || isErrorKey(v.errorKey)) &&
    (v.sort === undefined || (typeof v.sort === 'string' && SORTS.includes(v.sort)))
  );
}

/** Guard for what the extension receives from the webview. */
export function isWebviewToExtension(v: unknown): v is WebviewToExtension {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'ready':
    case 'pickRuns':
    case 'swapRuns':
      return true;
    case 'setRuns':
      return isStringArray(v.runs);
    case 'setFocus':
      return typeof v.run === 'string';
    case 'listSteps':
      return isStepFilter(v.filter);
    case 'openStep':
      return isRef(v.ref) && typeof v.run === 'string';
    case 'openPair':
      return isRef(v.ref);
    case 'copyTable':
      return (v.table === 't4' || v.table === 't5' || v.table === 't6') && (v.format === 'markdown' || v.format === 'csv');
    case 'compareOptions':
      return isScope(v.scope) && isMetricKey(v.sortMetric) && (v.order === 'regression' || v.order === 'gain');
    default:
      return false;
  }
}

function isDashboardModel(v: unknown): v is DashboardModel {
  return (
    isRecord(v) && typeof v.benchmark === 'string' && isStringArray(v.runs) && isStringArray(v.selected) &&
    typeof v.focus === 'string' && Array.isArray(v.scopes) && v.scopes.every(isScope) &&
    Array.isArray(v.tables) && Array.isArray(v.figures) && Array.isArray(v.isoLevels)
  );
}

function isCompareModel(v: unknown): v is CompareModel {
  return (
    isRecord(v) && typeof v.runA === 'string' && typeof v.runB === 'string' && isStringArray(v.runs) &&
    isScope(v.scope) && Array.isArray(v.scopes) && isMetricKey(v.sortMetric) &&
    (v.order === 'regression' || v.order === 'gain') && Array.isArray(v.summary) && Array.isArray(v.rows)
  );
}

/** Guard for what the webview receives from the extension. Dataset strings inside are rendered as text only. */
export function isExtensionToWebview(v: unknown): v is ExtensionToWebview {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'dashboard':
      return isDashboardModel(v.model);
    case 'compare':
      return isCompareModel(v.model);
    case 'steps':
      return typeof v.title === 'string' && typeof v.note === 'string' && isStepFilter(v.filter) && Array.isArray(v.rows) && v.rows.every(isRef);
    case 'empty':
      return typeof v.message === 'string';
    default:
      return false;
  }
}

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

export const METRIC_LABELS: Record<MetricKey | 'F1NS', string> = {
  Recall: 'Recall',
  Recall_Novelty: 'R_nov',
  Recall_Stability: 'R_stab',
  Error_Decay: 'Err decay',
  Error_Peer: 'Err peer',
  Error_Viral: 'Err viral',
  Error_Random: 'Err random',
  F1NS: 'F1^NS',
};
