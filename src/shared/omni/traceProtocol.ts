// The trace view's webview protocol (extension: src/extension/benchmarks/omni/traceView, webview: webview/omni/trace). Messages are
// discriminated on `type`; each message's type and its guard come from one definition (src/core/guards.ts), and
// each side checks what it receives with the guard. Only types are imported from the core, so the webview bundle
// pulls in no Node code.
// Sequence: the webview posts `ready`; the extension answers `show` (or `empty`). The webview then posts `filter`
// with a generation number of its own; the extension answers `timeline` (count and histogram of the matching
// history records) for that generation, and `rows` for each `rows` request of it. The history itself stays on the
// extension host: only the windows the list shows travel, so a history of 100,000 records never enters the page.
import { attemptsMessage, editPromptMessage, openAttemptMessage, rerunActionMessage } from './traceAttempts';
import type { Verdict } from '../../core/omni/score';
import { PI_AREAS, type PiArea } from '../../core/pi/spans';
import { JUDGE_DIMENSIONS, type FieldKind, type JudgeDimension, type Scene } from '../../core/omni/types';
import {
  array,
  arrayOf,
  bool,
  claim,
  count,
  type Infer,
  isRecord,
  literal,
  message,
  messages,
  nullable,
  object,
  oneOf,
  optional,
  record,
  shapeOf,
  str,
  tagged,
  variants,
} from '../../core/guards';
import {
  type LabelBarState,
  labelBarShape,
  labelMessage,
  labelNextUnlabelled,
  labelSetNote,
  labelsMessage,
  labelToggle,
  labelUndo,
  labelAdjudicate,
} from '../labelProtocol';

export type { Verdict };

export const TRACE_VIEW_TYPE = 'personaLab.trace';

/** A test action: the user and its position in the user's action_history. */
const traceRef = object({ userId: str, index: count });
export type TraceRef = Infer<typeof traceRef>;

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
  /** the run's headline with its coverage or why it is missing ("overall — (not judged yet: …)"); null without a run */
  runFigures: string | null;
  /** "made here by Run Test Actions…" when the run shown is the one last made in this window */
  runMade: string | null;
  scene: Scene;
  timestamp: string;
  fields: string[];
  profile: string;
  /** records in the user's whole action_history */
  historyLength: number;
  /** the test action's context (flattened key → text) and the normaliser of its continuous fields */
  context: ContextEntry[];
  /** 'none': the record carries no context; 'unreadable': the test action's record could not be read */
  contextState: 'read' | 'none' | 'unreadable';
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

/** A PI Audit finding in the trace shown: where the view shows it (`area`), and its key in the audit. */
export interface AuditPiFinding extends PiFinding {
  key: string;
  area: PiArea;
}

/** What a trace label sits on: the test action itself, or one history record before it. */
export const isTraceLabelTarget = variants(
  'kind',
  tagged('kind', 'action'),
  tagged('kind', 'history', { historyIndex: count }),
);
export type TraceLabelTarget = Infer<typeof isTraceLabelTarget>;

/** A history record that carries labels of this author. */
export interface LabelledHistoryItem {
  index: number;
  names: string[];
  stale: boolean;
}

/** One dimension of the judge next to this author's score of the same utterance. */
export interface TraceScoreDimension {
  dimension: JudgeDimension;
  judge: number | null;
  mine: number | null;
  /** this author scored an earlier text of the answer (the run was made again since) */
  stale: boolean;
}

/** The selected run's predicted utterance at the test action, to score on the judge's dimensions. */
export interface TraceScoreState {
  run: string;
  utterance: string;
  judgeModel: string | null;
  dimensions: TraceScoreDimension[];
}

/** The labels bar of the trace view: this author's labels on the test action and its history, in the selected run. */
export interface TraceLabelState extends LabelBarState<TraceRef> {
  history: LabelledHistoryItem[];
  /** null: the selected run holds no predicted utterance here (no run, or no next_user_message answer) */
  scores: TraceScoreState | null;
}

/** The scores people give, 1–10 (the judge's scale). */
const scoreValue = (v: unknown): v is number => count(v) && v >= 1 && v <= 10;

/** Labelling actions of the trace view (see labelProtocol.ts): toggle, note, undo and next unlabelled. */
const traceLabelAction = variants(
  'kind',
  labelToggle(traceRef, isTraceLabelTarget),
  labelSetNote(traceRef, isTraceLabelTarget),
  labelUndo,
  labelAdjudicate,
  labelNextUnlabelled(traceRef),
  /** Set (null: clear) this author's score of the run's utterance at `ref` on one of the judge's dimensions. */
  tagged('kind', 'score', { ref: traceRef, dimension: literal(...JUDGE_DIMENSIONS), score: nullable(scoreValue) }),
);
export type TraceLabelAction = Infer<typeof traceLabelAction>;

/**
 * What the trace page keeps under its saved state's `restore` key, read by the serializer after a reload of the
 * window (traceView/restore.ts) and by the page itself whenever it loads again (the panel shown after it was hidden,
 * or restored): the test action, and the history record whose text it showed, with whether the labels bar targeted
 * that record (Esc gives the target back to the test action but leaves the record shown).
 */
export interface TraceRestore {
  ref: TraceRef;
  record: { index: number; target: boolean } | null;
}

/** The state's `restore` value for `r`: `{ userId, index, record?, recordTarget? }`. */
export function restoreValue(r: TraceRestore): Record<string, unknown> {
  const { userId, index } = r.ref;
  return r.record ? { userId, index, record: r.record.index, recordTarget: r.record.target } : { userId, index };
}

/** The test action (and record) a saved page state holds, or undefined when it holds none. */
export function savedRestore(state: unknown): TraceRestore | undefined {
  const r = isRecord(state) ? state.restore : undefined;
  if (!isRecord(r) || typeof r.userId !== 'string' || !count(r.index)) return undefined;
  const ref = { userId: r.userId, index: r.index };
  const record = count(r.record) && r.record < r.index ? { index: r.record, target: r.recordTarget !== false } : null;
  return { ref, record };
}

/** Rows per `rows` request; the list asks again as it scrolls. */
export const ROWS_WINDOW = 200;

// ---- extension -> webview

const traceModel = shapeOf<TraceModel>()({
  ref: traceRef,
  scene: str,
  timestamp: str,
  fields: arrayOf(str),
  profile: str,
  historyLength: count,
  context: array,
  contextState: literal('read', 'none', 'unreadable'),
  questions: array,
  counts: record,
  scenes: array,
  behaviours: array,
  noPrediction: bool,
  runFigures: nullable(str),
  runMade: nullable(str),
  position: count,
  actions: count,
});
const showMessage = message('show', { model: traceModel });
const emptyMessage = message('empty', { message: str });
const timelineMessage = message('timeline', {
  generation: count,
  count,
  histogram: shapeOf<Histogram>()({ edges: array, series: array, undated: count }),
});
const rowsMessage = message('rows', { generation: count, rows: claim<TimelineRow[]>()(array) });
const rawMessage = message('raw', { field: str, text: str });
/** `text`: the whole record as pretty JSON text; `behaviours`: its action types, as in its timeline row. */
const recordMessage = message('record', { index: count, text: str, behaviours: arrayOf(str) });
/** The PI scan of the trace shown: the profile and the records before the test action (and its own). */
const piMessage = message('pi', {
  /** records scanned so far, of `total` */
  scanned: count,
  total: count,
  /** the first findings (at most a few hundred) */
  findings: claim<PiFinding[]>()(array),
  /** findings in all, including those not sent */
  found: count,
  done: bool,
});
export type PiMessage = Infer<typeof piMessage>;
const auditPiFinding = shapeOf<AuditPiFinding>()({
  key: str,
  area: oneOf(PI_AREAS),
  index: nullable(count),
  field: str,
  category: str,
  value: str,
});
/**
 * The PI Audit's findings in the trace shown (the profile, the records up to the test action's own, its prediction),
 * after each `show` and after each audit. `audited`: false when the loaded benchmark has not been audited (the page
 * offers its own scan). `target`: the key of the finding the audit opened the trace for, to outline and scroll to
 * (in its record's text once the `record` message shows it).
 */
const auditPiMessage = message('auditPi', {
  audited: bool,
  findings: arrayOf(auditPiFinding),
  /** findings in all, including those not sent */
  found: count,
  target: nullable(str),
});
export type AuditPiMessage = Infer<typeof auditPiMessage>;
const traceLabelState = shapeOf<TraceLabelState>()({
  ...labelBarShape(traceRef),
  history: array,
  scores: nullable(object({ run: str, utterance: str, dimensions: array })),
});
const labelsStateMessage = labelsMessage(traceLabelState);
/** Show history record `index` (its row and its full text) and make it the labels bar's target. */
const revealMessage = message('reveal', { index: count });

/** Guard for what the webview receives from the extension. */
export const isExtensionToWebview = messages(
  attemptsMessage,
  showMessage,
  emptyMessage,
  timelineMessage,
  rowsMessage,
  rawMessage,
  recordMessage,
  piMessage,
  labelsStateMessage,
  revealMessage,
  auditPiMessage,
);
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

// ---- webview -> extension

/** Empty lists mean "all". A record matches when its scene is chosen and one of its actions is a chosen behaviour. */
export const isTimelineFilter = shapeOf<TimelineFilter>()({ scenes: arrayOf(str), behaviours: arrayOf(str) });

const readyMessage = message('ready');
const filterMessage = message('filter', { generation: count, filter: isTimelineFilter });
const rowsRequest = message(
  'rows',
  { generation: count, from: count, to: count },
  (m) => m.to >= m.from && m.to - m.from <= ROWS_WINDOW,
);
const rawRequest = message('raw', { field: str });
const recordRequest = message('record', { index: count });
/** Open the raw user file at a record (the test action when index is omitted) or the prediction's line. */
const openSourceMessage = message('openSource', { which: literal('raw', 'prediction'), index: optional(count) });
/** Move to the user's previous or next test action. */
const navigateMessage = message('navigate', { delta: literal(1, -1) });
/** Scan the trace for residual personal information. */
const scanPiMessage = message('scanPi');
/** A labelling action (see TraceLabelAction). */
const labelActionMessage = labelMessage(traceLabelAction);

/** Guard for what the extension receives from the webview. */
export const isWebviewToExtension = messages(
  rerunActionMessage,
  editPromptMessage,
  openAttemptMessage,
  readyMessage,
  filterMessage,
  rowsRequest,
  rawRequest,
  recordRequest,
  openSourceMessage,
  navigateMessage,
  scanPiMessage,
  labelActionMessage,
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
