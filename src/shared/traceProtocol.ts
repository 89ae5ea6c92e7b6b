// The trace view's webview protocol (extension: src/extension/traces, webview: webview/trace). Messages are
// discriminated on `type`; each side checks what it receives with a guard. Only types are imported from the core,
// so the webview bundle pulls in no Node code.
// Sequence: the webview posts `ready`; the extension answers `show` (or `empty`). The webview then posts `filter`
// with a generation number of its own; the extension answers `timeline` (count and histogram of the matching
// history records) for that generation, and `rows` for each `rows` request of it. The history itself stays on the
// extension host: only the windows the list shows travel, so a history of 100,000 records never enters the page.
import type { AppliedLabel, LabelChip, LabelFlash } from '../core/labels/view';
import type { Verdict } from '../core/omni/score';
import type { FieldKind, Scene } from '../core/omni/types';

export type { Verdict };

export const TRACE_VIEW_TYPE = 'personaLab.trace';

/** A test action: the user and its position in the user's action_history. */
export interface TraceRef {
  userId: string;
  index: number;
}

/** One question of the prediction, as shown: values as read, the verdict of the core's scoring. */
export interface QuestionRow {
  field: string;
  type: FieldKind;
  trueValue: string | number | null;
  predictedValue: string | number | null;
  predictedLabel: number | null;
  verdict: Verdict;
  /** continuous fields: |true − predicted| (null when either value is missing) */
  absError: number | null;
  /** continuous fields: the error term of the score, min(|err|, normaliser) / normaliser × 100 (null: skipped) */
  normalisedError: number | null;
  /** why the question is unscored, or a problem with its values ('' when none) */
  note: string;
  judgeScore: number | null;
  /** the raw output is non-empty (it is sent on request) */
  hasRaw: boolean;
}

export interface ContextEntry {
  key: string;
  value: string;
}

export interface TraceModel {
  ref: TraceRef;
  /** the run whose predictions are shown, or null when none is selected */
  run: string | null;
  scene: Scene;
  timestamp: string;
  fields: string[];
  profile: string;
  /** records in the user's whole action_history */
  historyLength: number;
  /** the test action's context (flattened key → text) and the normaliser of its continuous fields */
  context: ContextEntry[];
  normaliser: number | null;
  questions: QuestionRow[];
  counts: Record<Verdict, number>;
  /** the run has no prediction for this test action */
  noPrediction: boolean;
  /** the filter choices: scenes and behaviours in the order of the core's lists, with their counts before the action */
  scenes: { scene: Scene; n: number }[];
  behaviours: { behaviour: string; n: number }[];
  /** this test action's place among the user's (1-based), and their count */
  position: number;
  actions: number;
}

/** Empty lists mean "all". A record matches when its scene is chosen and one of its actions is a chosen behaviour. */
export interface TimelineFilter {
  scenes: Scene[];
  behaviours: string[];
}

export interface Histogram {
  /** bin edges as epoch ms: bin i is [edges[i], edges[i+1]) */
  edges: number[];
  series: { scene: Scene; counts: number[] }[];
  /** matching records whose time is not a date (not in any bin) */
  undated: number;
}

export interface TimelineRow {
  /** position in the filtered list */
  pos: number;
  /** position in action_history */
  index: number;
  /** the scene, or 'unreadable' for a record that cannot be decoded */
  scene: Scene | 'unreadable';
  timestamp: string;
  behaviours: string[];
  /** a short text of the record: caption, title, item, keyword or first utterance */
  summary: string;
}

/** A residual personal-information value found in the trace (the PI audit's scanner). */
export interface PiFinding {
  /** the record's position in action_history, or null for the profile */
  index: number | null;
  field: string;
  category: string;
  confidence: string;
  value: string;
  reason: string;
}

/** What a trace label sits on: the test action itself, or one history record before it. */
export type TraceLabelTarget = { kind: 'action' } | { kind: 'history'; historyIndex: number };

/** A history record that carries labels of this author. */
export interface LabelledHistoryItem {
  index: number;
  names: string[];
  stale: boolean;
}

/** The labels bar of the trace view: this author's labels on the test action and its history, in the selected run. */
export interface TraceLabelState {
  ref: TraceRef;
  /** the run the labels belong to ('' when none is selected: labels about the data) */
  run: string;
  author: string;
  labels: LabelChip[];
  applied: AppliedLabel[];
  history: LabelledHistoryItem[];
  canUndo: boolean;
  /** why labelling is unavailable, or null */
  error: string | null;
  labelSetNote: string | null;
  flash: LabelFlash | null;
}

// ---- extension -> webview
export interface ShowMessage {
  type: 'show';
  model: TraceModel;
}
export interface EmptyMessage {
  type: 'empty';
  message: string;
}
export interface TimelineMessage {
  type: 'timeline';
  generation: number;
  count: number;
  histogram: Histogram;
}
export interface RowsMessage {
  type: 'rows';
  generation: number;
  rows: TimelineRow[];
}
export interface RawMessage {
  type: 'raw';
  field: string;
  text: string;
}
export interface RecordMessage {
  type: 'record';
  index: number;
  /** the whole record as pretty JSON text */
  text: string;
}
/** The PI scan of the trace shown: the profile and the records before the test action (and its own). */
export interface PiMessage {
  type: 'pi';
  /** records scanned so far, of `total` */
  scanned: number;
  total: number;
  /** the first findings (at most a few hundred) */
  findings: PiFinding[];
  /** findings in all, including those not sent */
  found: number;
  done: boolean;
}
export interface LabelsMessage {
  type: 'labels';
  state: TraceLabelState;
}
/** Show history record `index` (its row and its full text) and make it the labels bar's target. */
export interface RevealMessage {
  type: 'reveal';
  index: number;
}
export type ExtensionToWebview = ShowMessage | EmptyMessage | TimelineMessage | RowsMessage | RawMessage | RecordMessage | PiMessage | LabelsMessage | RevealMessage;

// ---- webview -> extension
export interface ReadyMessage {
  type: 'ready';
}
export interface FilterMessage {
  type: 'filter';
  generation: number;
  filter: TimelineFilter;
}
export interface RowsRequest {
  type: 'rows';
  generation: number;
  from: number;
  to: number;
}
export interface RawRequest {
  type: 'raw';
  field: string;
}
export interface RecordRequest {
  type: 'record';
  index: number;
}
/** Open the raw user file at a record (the test action when index is omitted) or the prediction's line. */
export interface OpenSourceMessage {
  type: 'openSource';
  which: 'raw' | 'prediction';
  index?: number;
}
/** Move to the user's previous or next test action. */
export interface NavigateMessage {
  type: 'navigate';
  delta: 1 | -1;
}
/** Scan the trace for residual personal information. */
export interface ScanPiMessage {
  type: 'scanPi';
}
/** Toggle this author's label on the test action or one of its history records. */
export interface LabelToggleMessage {
  type: 'labelToggle';
  ref: TraceRef;
  labelId: string;
  target: TraceLabelTarget;
}
/** Undo the last labelling action of the trace view. */
export interface LabelUndoMessage {
  type: 'labelUndo';
}
export type WebviewToExtension =
  | ReadyMessage | FilterMessage | RowsRequest | RawRequest | RecordRequest | OpenSourceMessage | NavigateMessage | ScanPiMessage
  | LabelToggleMessage | LabelUndoMessage;

/** Rows per `rows` request; the list asks again as it scrolls. */
export const ROWS_WINDOW = 200;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function isTraceRef(v: unknown): v is TraceRef {
  return isRecord(v) && typeof v.userId === 'string' && isCount(v.index);
}

export function isTraceLabelTarget(v: unknown): v is TraceLabelTarget {
  return isRecord(v) && (v.kind === 'action' || (v.kind === 'history' && isCount(v.historyIndex)));
}

function isTraceLabelState(v: unknown): v is TraceLabelState {
  return (
    isRecord(v) && isTraceRef(v.ref) && typeof v.run === 'string' && typeof v.author === 'string' && Array.isArray(v.labels) &&
    Array.isArray(v.applied) && Array.isArray(v.history) && typeof v.canUndo === 'boolean' &&
    (v.error === null || typeof v.error === 'string') && (v.labelSetNote === null || typeof v.labelSetNote === 'string')
  );
}

export function isTimelineFilter(v: unknown): v is TimelineFilter {
  return isRecord(v) && isStringArray(v.scenes) && isStringArray(v.behaviours);
}

/** Guard for what the extension receives from the webview. */
export function isWebviewToExtension(v: unknown): v is WebviewToExtension {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'ready':
      return true;
    case 'filter':
      return isCount(v.generation) && isTimelineFilter(v.filter);
    case 'rows':
      return isCount(v.generation) && isCount(v.from) && isCount(v.to) && v.to >= v.from && v.to - v.from <= ROWS_WINDOW;
    case 'raw':
      return typeof v.field === 'string';
    case 'record':
      return isCount(v.index);
    case 'openSource':
      return (v.which === 'raw' || v.which === 'prediction') && (v.index === undefined || isCount(v.index));
    case 'navigate':
      return v.delta === 1 || v.delta === -1;
    case 'scanPi':
    case 'labelUndo':
      return true;
    case 'labelToggle':
      return isTraceRef(v.ref) && typeof v.labelId === 'string' && isTraceLabelTarget(v.target);
    default:
      return false;
  }
}

function isTraceModel(v: unknown): v is TraceModel {
  return (
    isRecord(v) && isRecord(v.ref) && typeof v.ref.userId === 'string' && isCount(v.ref.index) &&
    typeof v.scene === 'string' && typeof v.timestamp === 'string' && isStringArray(v.fields) &&
    typeof v.profile === 'string' && isCount(v.historyLength) && Array.isArray(v.context) && Array.isArray(v.questions) &&
    isRecord(v.counts) && Array.isArray(v.scenes) && Array.isArray(v.behaviours) && typeof v.noPrediction === 'boolean' &&
    isCount(v.position) && isCount(v.actions)
  );
}

function isHistogram(v: unknown): v is Histogram {
  return isRecord(v) && Array.isArray(v.edges) && Array.isArray(v.series) && isCount(v.undated);
}

/** Guard for what the webview receives from the extension. */
export function isExtensionToWebview(v: unknown): v is ExtensionToWebview {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'show':
      return isTraceModel(v.model);
    case 'empty':
      return typeof v.message === 'string';
    case 'timeline':
      return isCount(v.generation) && isCount(v.count) && isHistogram(v.histogram);
    case 'rows':
      return isCount(v.generation) && Array.isArray(v.rows);
    case 'raw':
      return typeof v.field === 'string' && typeof v.text === 'string';
    case 'record':
      return isCount(v.index) && typeof v.text === 'string';
    case 'pi':
      return isCount(v.scanned) && isCount(v.total) && Array.isArray(v.findings) && isCount(v.found) && typeof v.done === 'boolean';
    case 'labels':
      return isTraceLabelState(v.state);
    case 'reveal':
      return isCount(v.index);
    default:
      return false;
  }
}
