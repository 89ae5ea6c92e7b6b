// The step view's webview protocol: the one module both sides import (extension: src/extension/benchmarks/spb/stepView,
// webview: webview/spb/step). Messages are discriminated on `type`; each message's type and its guard come from one
// definition (src/core/guards.ts), and each side checks what it receives with the guard.
// Sequence: the webview posts `ready` once its script runs; only then does the extension post `show`/`empty`.
// After a reload of the webview (hidden and shown again) it posts `ready` again and gets the current step.
// Each `show` is followed by a `rerun` message with the step's re-run state (attempts, the comparison shown,
// a persona ablation of the user); `rerun` alone updates that part while a re-run is in progress or done.
import type { LabelTarget } from '../../core/labels/model';
import type { LabelViewState } from '../../core/labels/view';
import { isPiHighlight, type PiMark, type StepPiMarks } from '../../core/pi/spans';
import type { AblationTable } from '../../core/spb/rerun/ablation';
import type { AttemptSummary, RerunComparison } from '../../core/spb/rerun/attemptCompare';
import type { PromptDiff } from '../../core/rerun/promptDiff';
import type { StepLocation, StepModel } from '../../core/spb/view/stepModel';
import {
  array,
  bool,
  type Guard,
  type Infer,
  int,
  literal,
  message,
  messages,
  nullable,
  num,
  object,
  oneOf,
  recordOf,
  safeInt,
  shapeOf,
  str,
  tagged,
  variants,
} from '../../core/guards';
import {
  LABEL_BAR_KEYS,
  labelBarShape,
  labelMessage,
  labelNextUnlabelled,
  labelSetNote,
  labelsMessage,
  labelToggle,
  labelUndo,
  labelAdjudicate,
} from '../labelProtocol';

export const STEP_VIEW_TYPE = 'personaLab.step';

export const NAV_DIRECTIONS = ['previousStep', 'nextStep', 'previousUser', 'nextUser'] as const;
export type NavDirection = (typeof NAV_DIRECTIONS)[number];

/** Which navigation targets exist from the step shown. */
const navState = object({ previousStep: bool, nextStep: bool, previousUser: bool, nextUser: bool } satisfies Record<
  NavDirection,
  Guard<boolean>
>);
export type NavState = Infer<typeof navState>;

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

// ---- labels ------------------------------------------------------------------------------------------------

const stepLocation = shapeOf<StepLocation>()({ platform: str, userId: str, stepId: num });

/** The targets of the step view's labels; the type is the core's, of which the step view makes these three. */
const stepLabelTarget: Guard<LabelTarget> = variants(
  'kind',
  tagged('kind', 'step'),
  tagged('kind', 'tag', { tag: str }),
  tagged('kind', 'span', { field: str, start: safeInt, end: safeInt }),
);

/**
 * Labelling actions of the step view (see labelProtocol.ts): toggle and undo as in every view, plus accepting the
 * suggestions, a note, j/k moves and the next unlabelled step.
 */
export const isLabelUiAction = variants(
  'kind',
  labelToggle(stepLocation, stepLabelTarget),
  tagged('kind', 'acceptSuggestions', { ref: stepLocation }),
  labelSetNote(stepLocation, stepLabelTarget),
  labelUndo,
  tagged('kind', 'move', { ref: stepLocation, delta: literal(1, -1) }),
  labelAdjudicate,
  labelNextUnlabelled(stepLocation),
);
export type LabelUiAction = Infer<typeof isLabelUiAction>;

/** Keys of the labels bar (no modifier). j/k and the arrows move through the (filtered) steps, across users. */
export const LABEL_KEYS = {
  next: ['j', 'ArrowDown'],
  previous: ['k', 'ArrowUp'],
  acceptSuggestions: 'a',
  ...LABEL_BAR_KEYS,
  clearSelection: 'Escape',
} as const;

const labelViewState = shapeOf<LabelViewState<StepLocation>>()({
  ...labelBarShape(stepLocation),
  suggestions: array,
  others: array,
});

// ---- extension -> webview

/** Checks the parts the webview relies on to render; all text in a model is rendered as text, never markup. */
const stepModel = shapeOf<StepModel>()({
  header: object({ userId: str, stepId: num }),
  pool: object({ groups: array, outOfPool: array, duplicates: array }),
  persona: object({ received: str, written: str }),
  metrics: array,
  posts: array,
  reasoning: str,
});

/** The marks' offsets are checked where the text is cut (segmentText); here the shape. */
const stepPiMarks = shapeOf<StepPiMarks>()({
  fields: recordOf(array),
  legend: array,
  placeholders: num,
  findings: num,
});

const showMessage = message('show', {
  model: stepModel,
  nav: navState,
  /**
   * The run a pinned panel always shows (opened for that run, e.g. side by side from Compare); null in the main
   * step view, which follows the selected run. A pinned panel has no re-run part.
   */
  pinnedRun: nullable(str),
  /** placeholders and residual PI findings of the texts shown (computed by the extension's scanner) */
  pi: stepPiMarks,
});
export type ShowMessage = Infer<typeof showMessage>;

const emptyMessage = message('empty', { message: str });
export type EmptyMessage = Infer<typeof emptyMessage>;

/** The labels bar of the step `state.ref` (sent after each `show`, and after every label change). */
const labelsStateMessage = labelsMessage(labelViewState);
export type LabelsMessage = Infer<typeof labelsStateMessage>;

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
  /** what the selected attempt sent differently from the attempt before it; null for the first */
  promptDiff: PromptDiff | null;
}

const comparison = shapeOf<RerunComparison>()({
  attempt: object({ id: num }),
  original: object({ picks: array }),
  rerun: object({ picks: array }),
  flipped: array,
  metrics: array,
  flags: array,
  hasReply: bool,
});

const rerunState = shapeOf<RerunState>()({
  ref: stepLocation,
  running: nullable(str),
  attempts: array,
  selected: nullable(comparison),
  ablation: nullable(object({ rows: array })),
  historyProblem: str,
  endpoint: str,
  pi: recordOf(array),
  promptDiff: nullable(object({ against: num, system: array, prompt: array, added: num, removed: num })),
});

const rerunStateMessage = message('rerun', { state: rerunState });
export type RerunStateMessage = Infer<typeof rerunStateMessage>;

/**
 * A PI Audit finding on the step shown (after its `show`, and again after each re-render of the same step): its mark
 * is outlined; `reveal`: scroll it into view (the first time only, so that a re-render keeps the scroll position).
 */
const highlightPiMessage = message('highlightPi', { highlight: isPiHighlight, reveal: bool });
export type HighlightPiMessage = Infer<typeof highlightPiMessage>;

/** Guard for what the webview receives from the extension. */
export const isExtensionToWebview = messages(
  showMessage,
  emptyMessage,
  labelsStateMessage,
  rerunStateMessage,
  highlightPiMessage,
);
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

// ---- webview -> extension

/** Commands the step view's buttons run for the step shown. */
export const STEP_COMMANDS = [
  'editPrompt',
  'rerunStep',
  'rerunChain',
  'runAblation',
  'previewPrompt',
  'configureEndpoint',
] as const;
/** The step view's key for Edit Prompt (no modifier). */
export const EDIT_PROMPT_KEY = 'e';
export type StepCommand = (typeof STEP_COMMANDS)[number];

const readyMessage = message('ready');
const navigateMessage = message('navigate', { direction: oneOf(NAV_DIRECTIONS) });
/** Show another step of the same user (a forgotten tag's "dropped at step N"). */
const goToStepMessage = message('goToStep', { stepId: int });
/** Open the source line of the step: the user's line in the tasks file, or the result line of the run. */
const openSourceMessage = message('openSource', { which: literal('tasks', 'result') });
/** A labelling action (see LabelUiAction). */
const labelActionMessage = labelMessage(isLabelUiAction);
export type LabelMessage = Infer<typeof labelActionMessage>;
const commandMessage = message('command', { command: oneOf(STEP_COMMANDS) });
/** Show an earlier attempt beside the original. */
const selectAttemptMessage = message('selectAttempt', { id: int });
/** Open the attempt's full request or raw reply as a read-only document. */
const openAttemptMessage = message('openAttempt', { id: int, which: literal('request', 'raw') });
/** Send a failed attempt's request again (its system message and prompt as sent) to the configured endpoint. */
const retryAttemptMessage = message('retryAttempt', { id: int });
/** Cancel the re-run in progress for the step shown (the Cancel of the inline progress line). */
const cancelRerunMessage = message('cancelRerun');

export type RerunRequest =
  | Infer<typeof commandMessage>
  | Infer<typeof selectAttemptMessage>
  | Infer<typeof openAttemptMessage>
  | Infer<typeof retryAttemptMessage>
  | Infer<typeof cancelRerunMessage>;

/** Guard for what the extension receives from the webview. */
export const isWebviewToExtension = messages(
  readyMessage,
  navigateMessage,
  goToStepMessage,
  openSourceMessage,
  labelActionMessage,
  commandMessage,
  selectAttemptMessage,
  openAttemptMessage,
  retryAttemptMessage,
  cancelRerunMessage,
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;

export function isRerunRequest(v: WebviewToExtension): v is RerunRequest {
  return (
    v.type === 'command' ||
    v.type === 'selectAttempt' ||
    v.type === 'openAttempt' ||
    v.type === 'retryAttempt' ||
    v.type === 'cancelRerun'
  );
}
