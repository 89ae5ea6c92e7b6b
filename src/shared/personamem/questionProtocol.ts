// The PersonaMem question view's webview protocol (extension: src/extension/benchmarks/personamem/questionView.ts,
// webview: webview/personamem/question). Each message's type and guard come from one definition (src/core/guards.ts); each
// side checks what it receives. Only types are imported from the core, so the page's bundle pulls in no Node code.
// Sequence: the page posts `ready`; the extension answers `show` (or `empty`) with a generation number. The page
// asks for windows of the history (`rows`, at most ROWS_WINDOW messages) as its list scrolls, and for a message's
// whole text (`message`) when a row is opened. The history stays on the extension host: a 1M-token context never
// enters the page, only the windows the list shows.
import type { PmHistoryRow, PmQuestionModel } from '../../core/personamem/view';
import type { PmAttemptView } from '../../core/personamem/run/attempts';
import {
  arrayOf,
  isRecord,
  bool,
  claim,
  count,
  literal,
  message,
  messages,
  nullable,
  object,
  shapeOf,
  str,
  type Infer,
} from '../../core/guards';
import { questionLabelActionMessage, questionLabelsMessage } from './labelProtocol';

export type { PmAttemptView, PmHistoryRow, PmQuestionModel };

export const QUESTION_VIEW_TYPE = 'personaLab.personamem.question';

/** Messages per `rows` request; the list asks again as it scrolls. */
export const ROWS_WINDOW = 200;

const questionRef = object({ split: str, questionId: str });

const questionModel = shapeOf<PmQuestionModel>()({
  ref: questionRef,
  personaId: str,
  questionType: str,
  skill: str,
  skillHead: str,
  topic: str,
  question: str,
  options: arrayOf(object({ letter: str, text: str, correct: bool, picked: bool })),
  optionsText: str,
  correctLetter: nullable(str),
  pick: nullable(str),
  verdict: literal('right', 'wrong', 'invalid', 'unanswered'),
  run: nullable(str),
  response: nullable(str),
  seen: count,
  total: count,
  sessions: count,
  position: count,
  count,
  historyProblem: str,
});

const historyRow = shapeOf<PmHistoryRow>()({
  index: count,
  role: str,
  session: count,
  opens: bool,
  summary: str,
});

// ---- extension -> webview

const showMessage = message('show', { generation: count, model: questionModel });
const emptyMessage = message('empty', { message: str });
const rowsMessage = message('rows', {
  generation: count,
  from: count,
  rows: claim<PmHistoryRow[]>()(arrayOf(historyRow)),
});
/** A history message's whole text. */
const textMessage = message('message', { generation: count, index: count, role: str, text: str });
/**
 * A PI Audit finding in the question shown: in history message `index`, the question, its options or a response.
 * `value` is the text found, marked where the page shows it.
 */
const pmPiFinding = object({
  key: str,
  part: literal('history', 'question', 'options', 'response'),
  index: nullable(count),
  run: nullable(str),
  category: str,
  confidence: str,
  value: str,
  reason: str,
});
export type PmPiFinding = Infer<typeof pmPiFinding>;
/**
 * The PI Audit's findings in the question shown (after each `show` and each audit; `audited` false before one).
 * `target`: the finding the audit opened the question for, outlined and scrolled to.
 */
const auditPiMessage = message('auditPi', {
  generation: count,
  audited: bool,
  findings: arrayOf(pmPiFinding),
  /** findings in all, including those not sent */
  found: count,
  target: nullable(str),
});
export type PmAuditPiMessage = Infer<typeof auditPiMessage>;

/** The re-runs of the shown question (rerun/ in the format's folder): each with what was sent and came back. */
const attemptView = shapeOf<PmAttemptView>()({
  id: count,
  at: str,
  label: str,
  edited: bool,
  history: count,
  sent: arrayOf(object({ role: str, content: str })),
  reply: nullable(str),
  error: nullable(str),
  pick: nullable(str),
  correctLetter: str,
  verdict: literal('right', 'wrong', 'invalid', 'failed'),
});
const attemptsMessage = message('attempts', {
  questionId: str,
  source: str,
  running: nullable(str),
  attempts: arrayOf(attemptView),
});

export const isExtensionToWebview = messages(
  showMessage,
  emptyMessage,
  rowsMessage,
  textMessage,
  attemptsMessage,
  auditPiMessage,
  questionLabelsMessage,
);
export type ExtensionToWebview = Infer<typeof isExtensionToWebview>;

// ---- webview -> extension

const readyMessage = message('ready');
const rowsRequest = message(
  'rows',
  { generation: count, from: count, to: count },
  (m) => m.to >= m.from && m.to - m.from <= ROWS_WINDOW,
);
const textRequest = message('message', { generation: count, index: count });
/** Move to the persona's previous or next question. */
const navigateMessage = message('navigate', { delta: literal(1, -1) });

/** `e`: the question's request as an editable draft; `r`: sent again as the source renders it. */
const editPromptMessage = message('editPrompt');
const rerunMessage = message('rerunQuestion');
const openAttemptMessage = message('openAttempt', { id: count, which: literal('request', 'reply') });
export const isRerunAsk = messages(editPromptMessage, rerunMessage, openAttemptMessage);
export type RerunAsk = Infer<typeof isRerunAsk>;

export const isWebviewToExtension = messages(
  readyMessage,
  rowsRequest,
  textRequest,
  navigateMessage,
  editPromptMessage,
  rerunMessage,
  openAttemptMessage,
  questionLabelActionMessage,
);
export type WebviewToExtension = Infer<typeof isWebviewToExtension>;
export type AttemptsMessage = Infer<typeof attemptsMessage>;

export type QuestionRef = Infer<typeof questionRef>;

/** The question a saved page state holds under its `restore` key (the view's serializer reopens it), if any. */
export function savedQuestion(state: unknown): QuestionRef | undefined {
  const r = isRecord(state) ? state.restore : undefined;
  return questionRef(r) ? { split: r.split, questionId: r.questionId } : undefined;
}
