// The step view's webview protocol: the one module both sides import (extension: src/extension/stepView,
// webview: webview/step). Messages are discriminated on `type`; each side checks what it receives with a guard.
// Sequence: the webview posts `ready` once its script runs; only then does the extension post `show`/`empty`.
// After a reload of the webview (hidden and shown again) it posts `ready` again and gets the current step.
// Each `show` is followed by a `rerun` message with the step's re-run state (attempts, the comparison shown,
// a persona ablation of the user); `rerun` alone updates that part while a re-run is in progress or done.
import type { LabelTarget } from '../core/labels/model';
import type { LabelViewState } from '../core/labels/view';
import type { PiMark, StepPiMarks } from '../core/pi/spans';
import type { AblationTable } from '../core/rerun/ablation';
import type { AttemptSummary, RerunComparison } from '../core/rerun/attemptCompare';
import type { StepLocation, StepModel } from '../core/spb/stepModel';

export const STEP_VIEW_TYPE = 'personaLab.step';

export const NAV_DIRECTIONS = ['previousStep', 'nextStep', 'previousUser', 'nextUser'] as const;
export type NavDirection = (typeof NAV_DIRECTIONS)[number];

/** Which navigation targets exist from the step shown. */
export type NavState = Record<NavDirection, boolean>;

/**
 * Keys handled inside the webview (no modifier except Shift). The workbench keybindings are Alt+] / Alt+[ and
 * Shift+Alt+] / Shift+Alt+[ (package.json); plain keys here cannot collide with them. j/k stay free for labelling.
 */
export const WEBVIEW_KEYS: Readonly<Record<string, NavDirection>> = {
  ']': 'nextStep',
  '[': 'previousStep',
  '}': 'nextUser',
  '{': 'previousUser',
};

export const NAV_LABELS: Record<NavDirection, { label: string; keys: string; icon: string }> = {
  previousUser: { label: 'Previous user', keys: '{  or  Shift+Alt+[', icon: 'arrow-up' },
  previousStep: { label: 'Previous step', keys: '[  or  Alt+[', icon: 'arrow-left' },
  nextStep: { label: 'Next step', keys: ']  or  Alt+]', icon: 'arrow-right' },
  nextUser: { label: 'Next user', keys: '}  or  Shift+Alt+]', icon: 'arrow-down' },
};

// ---- extension -> webview
export interface ShowMessage {
  type: 'show';
  model: StepModel;
  nav: NavState;
  /**
   * The run a pinned panel always shows (opened for that run, e.g. side by side from Compare); null in the main
   * step view, which follows the selected run. A pinned panel has no re-run part.
   */
  pinnedRun: string | null;
  /** placeholders and residual PI findings of the texts shown (computed by the extension's scanner) */
  pi: StepPiMarks;
}
export interface EmptyMessage {
  type: 'empty';
  message: string;
}
/** The labels bar of the step `state.ref` (sent after each `show`, and after every label change). */
export interface LabelsMessage {
  type: 'labels';
  state: LabelViewState;
}
/** The re-run part of the step view for one step. */
export interface RerunState {
  ref: StepLocation;
  /** what is running for this step right now (a re-run, an ablation), or null */
  running: string | null;
  /** earlier attempts of the step, newest first */
  attempts: AttemptSummary[];
  /** the attempt shown beside the original, or null */
  selected: RerunComparison | null;
  /** the last persona ablation of this step's user, if one ran in this session */
  ablation: AblationTable | null;
  /** why the history database cannot be used ('' when it can) */
  historyProblem: string;
  /** "model at host" of the configured endpoint, or '' when none is configured */
  endpoint: string;
  /** PI marks of the comparison's texts (fieldKey.cmp), computed by the extension's scanner */
  pi: Record<string, PiMark[]>;
}
export interface RerunStateMessage {
  type: 'rerun';
  state: RerunState;
}
export type ExtensionToWebview = ShowMessage | EmptyMessage | LabelsMessage | RerunStateMessage;

// ---- webview -> extension
export interface ReadyMessage {
  type: 'ready';
}
export interface NavigateMessage {
  type: 'navigate';
  direction: NavDirection;
}
/** Open the source line of the step: the user's line in the tasks file, or the result line of the run. */
export interface OpenSourceMessage {
  type: 'openSource';
  which: 'tasks' | 'result';
}
/** A labelling action (see LabelUiAction). */
export interface LabelMessage {
  type: 'label';
  action: LabelUiAction;
}
/** Commands the step view's buttons run for the step shown. */
export const STEP_COMMANDS = ['rerunStep', 'rerunChain', 'runAblation', 'previewPrompt'] as const;
export type StepCommand = (typeof STEP_COMMANDS)[number];
export interface CommandMessage {
  type: 'command';
  command: StepCommand;
}
/** Show an earlier attempt beside the original. */
export interface SelectAttemptMessage {
  type: 'selectAttempt';
  id: number;
}
/** Open the attempt's full request or raw reply as a read-only document. */
export interface OpenAttemptMessage {
  type: 'openAttempt';
  id: number;
  which: 'request' | 'raw';
}
export type RerunRequest = CommandMessage | SelectAttemptMessage | OpenAttemptMessage;
export type WebviewToExtension = ReadyMessage | NavigateMessage | OpenSourceMessage | LabelMessage | RerunRequest;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isNavDirection(v: unknown): v is NavDirection {
  return typeof v === 'string' && (NAV_DIRECTIONS as readonly string[]).includes(v);
}

/** Guard for what the extension receives from the webview. */
export function isWebviewToExtension(v: unknown): v is WebviewToExtension {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'ready':
      return true;
    case 'navigate':
      return isNavDirection(v.direction);
    case 'openSource':
      return v.which === 'tasks' || v.which === 'result';
    case 'label':
      return isLabelUiAction(v.action);
    case 'command':
      return typeof v.command === 'string' && (STEP_COMMANDS as readonly string[]).includes(v.command);
    case 'selectAttempt':
      return Number.isInteger(v.id);
    case 'openAttempt':
      return Number.isInteger(v.id) && (v.which === 'request' || v.which === 'raw');
    default:
      return false;
  }
}

export function isRerunRequest(v: WebviewToExtension): v is RerunRequest {
  return v.type === 'command' || v.type === 'selectAttempt' || v.type === 'openAttempt';
}

function isNavState(v: unknown): v is NavState {
  return isRecord(v) && NAV_DIRECTIONS.every((d) => typeof v[d] === 'boolean');
}

/** Checks the parts the webview relies on to render; all text in a model is rendered as text, never markup. */
function isStepModel(v: unknown): v is StepModel {
  if (!isRecord(v)) return false;
  const { header, pool, persona, metrics, posts } = v;
  return (
    isRecord(header) && typeof header.userId === 'string' && typeof header.stepId === 'number' &&
    isRecord(pool) && Array.isArray(pool.groups) && Array.isArray(pool.outOfPool) && Array.isArray(pool.duplicates) &&
    isRecord(persona) && typeof persona.received === 'string' && typeof persona.written === 'string' &&
    Array.isArray(metrics) && Array.isArray(posts) && typeof v.reasoning === 'string'
  );
}

/** The marks' offsets are checked where the text is cut (segmentText); here the shape. */
function isStepPiMarks(v: unknown): v is StepPiMarks {
  return (
    isRecord(v) && isRecord(v.fields) && Object.values(v.fields).every(Array.isArray) && Array.isArray(v.legend) &&
    typeof v.placeholders === 'number' && typeof v.findings === 'number'
  );
}

function isLocation(v: unknown): v is StepLocation {
  return isRecord(v) && typeof v.platform === 'string' && typeof v.userId === 'string' && typeof v.stepId === 'number';
}

function isComparison(v: unknown): v is RerunComparison {
  if (!isRecord(v)) return false;
  const { attempt, original, rerun } = v;
  return (
    isRecord(attempt) && typeof attempt.id === 'number' &&
    isRecord(original) && Array.isArray(original.picks) && isRecord(rerun) && Array.isArray(rerun.picks) &&
    Array.isArray(v.flipped) && Array.isArray(v.metrics) && Array.isArray(v.flags) && typeof v.hasReply === 'boolean'
  );
}

function isRerunState(v: unknown): v is RerunState {
  if (!isRecord(v)) return false;
  return (
    isLocation(v.ref) && (v.running === null || typeof v.running === 'string') && Array.isArray(v.attempts) &&
    (v.selected === null || isComparison(v.selected)) &&
    (v.ablation === null || (isRecord(v.ablation) && Array.isArray(v.ablation.rows))) &&
    typeof v.historyProblem === 'string' && typeof v.endpoint === 'string' &&
    isRecord(v.pi) && Object.values(v.pi).every(Array.isArray)
  );
}

/** Guard for what the webview receives from the extension. */
export function isExtensionToWebview(v: unknown): v is ExtensionToWebview {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'show':
      return isStepModel(v.model) && isNavState(v.nav) && isStepPiMarks(v.pi) && (v.pinnedRun === null || typeof v.pinnedRun === 'string');
    case 'empty':
      return typeof v.message === 'string';
    case 'labels':
      return isLabelViewState(v.state);
    case 'rerun':
      return isRerunState(v.state);
    default:
      return false;
  }
}

// ---- labels ------------------------------------------------------------------------------------------------

/**
 * Labelling actions of the step view. Each names the step it was made on (`ref`), so a key pressed just before the
 * next step arrives still labels the step the user saw.
 */
export type LabelUiAction =
  | { kind: 'toggle'; ref: StepLocation; labelId: string; target: LabelTarget }
  | { kind: 'acceptSuggestions'; ref: StepLocation }
  | { kind: 'setNote'; ref: StepLocation; labelId: string; target: LabelTarget; note: string }
  | { kind: 'undo' }
  | { kind: 'move'; ref: StepLocation; delta: 1 | -1 }
  | { kind: 'nextUnlabelled'; ref: StepLocation };

/** Keys of the labels bar (no modifier). j/k and the arrows move through the (filtered) steps, across users. */
export const LABEL_KEYS = {
  next: ['j', 'ArrowDown'],
  previous: ['k', 'ArrowUp'],
  acceptSuggestions: 'a',
  note: 'n',
  undo: 'u',
  nextUnlabelled: '.',
  clearSelection: 'Escape',
} as const;

/** Keys a label set may not bind (loadLabelSet's reservedKeys): the labels bar's and the navigation keys. */
export const RESERVED_LABEL_KEYS: readonly string[] = ['j', 'k', 'a', 'n', 'u', '.', ...Object.keys(WEBVIEW_KEYS)];

function isStepLocation(v: unknown): v is StepLocation {
  return isRecord(v) && typeof v.platform === 'string' && typeof v.userId === 'string' && typeof v.stepId === 'number';
}

function isLabelTarget(v: unknown): v is LabelTarget {
  if (!isRecord(v)) return false;
  switch (v.kind) {
    case 'step':
      return true;
    case 'tag':
      return typeof v.tag === 'string';
    case 'span':
      return typeof v.field === 'string' && Number.isSafeInteger(v.start) && Number.isSafeInteger(v.end);
    default:
      return false;
  }
}

export function isLabelUiAction(v: unknown): v is LabelUiAction {
  if (!isRecord(v)) return false;
  switch (v.kind) {
    case 'toggle':
      return isStepLocation(v.ref) && typeof v.labelId === 'string' && isLabelTarget(v.target);
    case 'acceptSuggestions':
    case 'nextUnlabelled':
      return isStepLocation(v.ref);
    case 'setNote':
      return isStepLocation(v.ref) && typeof v.labelId === 'string' && isLabelTarget(v.target) && typeof v.note === 'string';
    case 'undo':
      return true;
    case 'move':
      return isStepLocation(v.ref) && (v.delta === 1 || v.delta === -1);
    default:
      return false;
  }
}

function isLabelViewState(v: unknown): v is LabelViewState {
  return (
    isRecord(v) && isStepLocation(v.ref) && typeof v.run === 'string' && typeof v.author === 'string' &&
    Array.isArray(v.labels) && Array.isArray(v.applied) && Array.isArray(v.suggestions) && Array.isArray(v.others) &&
    typeof v.canUndo === 'boolean'
  );
}
