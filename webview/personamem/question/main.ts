// PersonaMem question view: posts `ready`, renders each `show` (the question, its options with the model's pick and
// the right one, the response), and lists the history the model saw, whose rows it asks for in windows as the list
// scrolls. [ and ] move to the persona's previous / next question. Dataset text is always set as text.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import {
  isExtensionToWebview,
  type AttemptsMessage,
  type PmQuestionModel,
  type WebviewToExtension,
} from '../../../src/shared/personamem/questionProtocol';
import { el, icon } from '../../shared/dom';
import { mergeState, onHostMessage, vscodeApi } from '../../shared/host';
import { isPlainKey } from '../../shared/keys';
import { injectStyle } from '../../shared/page';
import { openSections, section } from '../../shared/sections';
import baseCss from '../../shared/base.css';
import chipsCss from '../../shared/labelChips.css';
import vlistCss from '../../shared/vlist.css';
import { renderAttempts } from './attempts';
import piMarksCss from '../../shared/piMarks.css';
import { HistoryUi } from './history';
import { PmPiUi } from './pi';
import { QuestionLabelsUi } from './labels';
import css from './question.css';

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('question-root') ?? document.body;
injectStyle(`${vlistCss}\n${chipsCss}\n${baseCss}\n${css}\n${piMarksCss}`);
const sections = openSections(vscode);
let history: HistoryUi | undefined;
let shown: PmQuestionModel | undefined;
/** The re-runs of the shown question; redrawn in place when they change. */
const attemptsBody = el('div', { className: 'attempts' });
let attempts: AttemptsMessage | undefined;
const attemptHandlers = {
  rerun: () => vscode.postMessage({ type: 'rerunQuestion' }),
  editPrompt: () => vscode.postMessage({ type: 'editPrompt' }),
  open: (id: number, which: 'request' | 'reply') => vscode.postMessage({ type: 'openAttempt', id, which }),
};
function drawAttempts(): void {
  const mine = attempts && shown && attempts.questionId === shown.ref.questionId ? attempts : undefined;
  attemptsBody.replaceChildren(
    ...renderAttempts(
      mine ?? { type: 'attempts', questionId: '', source: '', running: null, attempts: [] },
      attemptHandlers,
    ),
  );
}
let pi: PmPiUi | undefined;
let shownGeneration = -1;
const labels = new QuestionLabelsUi(root, (action) => vscode.postMessage({ type: 'label', action }));

const VERDICT_TEXT: Record<PmQuestionModel['verdict'], { icon: string; text: string }> = {
  right: { icon: 'pass-filled', text: 'right' },
  wrong: { icon: 'error', text: 'wrong' },
  invalid: { icon: 'warning', text: 'no single letter read (scored wrong, as the authors do)' },
  unanswered: { icon: 'circle-outline', text: 'no answer in this run' },
};

function navButton(text: string, iconName: string, delta: 1 | -1, enabled: boolean): HTMLElement {
  const b = el('vscode-button', {
    text,
    title: `${text} question of this persona (${delta > 0 ? ']' : '['})`,
    attrs: { 'data-nav': String(delta) },
  });
  b.icon = iconName;
  b.secondary = true;
  (b as HTMLElement & { disabled: boolean }).disabled = !enabled;
  b.addEventListener('click', () => navigate(delta));
  return b;
}

function navigate(delta: 1 | -1): void {
  if (!shown) return;
  const target = shown.position + delta;
  if (target >= 1 && target <= shown.count) vscode.postMessage({ type: 'navigate', delta });
}

function header(m: PmQuestionModel): HTMLElement {
  const v = VERDICT_TEXT[m.verdict];
  return el('header', { className: 'page-header' }, [
    el('div', { className: 'title-row' }, [
      el('span', {
        className: 'question-title',
        text: `persona ${m.personaId} · question ${m.position} of ${m.count}`,
      }),
      el('span', { className: 'nav' }, [
        navButton('Previous', 'arrow-left', -1, m.position > 1),
        navButton('Next', 'arrow-right', 1, m.position < m.count),
      ]),
    ]),
    el('div', { className: 'meta-row' }, [
      el('vscode-badge', { className: 'skill', text: m.skillHead, title: `question_type: ${m.questionType}` }),
      el('span', { className: 'question-type', text: m.questionType }),
      el('span', { className: 'topic', text: `topic: ${m.topic}` }),
      el('span', { className: 'split', text: `split: ${m.ref.split}` }),
      el('span', { className: 'run', text: m.run ? `run: ${m.run}` : 'no run of this split selected' }),
      el('span', { className: 'verdict', attrs: { 'data-verdict': m.verdict } }, [icon(v.icon), ` ${v.text}`]),
    ]),
  ]);
}

function optionsList(m: PmQuestionModel): HTMLElement {
  if (m.options.length === 0)
    return el('div', {}, [
      el('p', { className: 'note', text: 'The options cell does not parse as a list; as written:' }),
      el('pre', { className: 'prose options-raw', text: m.optionsText }),
    ]);
  return el(
    'ol',
    { className: 'options', attrs: { 'aria-label': 'Options' } },
    m.options.map((o) =>
      el(
        'li',
        {
          className: [o.correct ? 'correct' : '', o.picked ? 'picked' : ''].filter(Boolean).join(' '),
          attrs: { 'data-letter': o.letter },
        },
        [
          el('span', { className: 'letter', text: `(${o.letter})` }),
          el('span', { className: 'option-text', text: o.text }),
          el('span', { className: 'marks' }, [
            o.correct && el('span', { className: 'mark-answer' }, [icon('check'), ' answer']),
            o.picked && el('span', { className: 'mark-pick' }, [icon('account'), " model's pick"]),
          ]),
        ],
      ),
    ),
  );
}

function historyNote(m: PmQuestionModel): string {
  const tokens =
    m.contextTokens !== null ? ` · ${m.contextTokens.toLocaleString('en-US')} tokens with the question` : '';
  const distance = m.distanceBlocks !== null ? ` · evidence ${m.distanceBlocks} session(s) back` : '';
  return `${m.seen.toLocaleString('en-US')} of the context's ${m.total.toLocaleString('en-US')} messages, in ${m.sessions} session(s)${tokens}${distance}. The question follows message #${Math.max(0, m.seen - 1)}.`;
}

function show(generation: number, m: PmQuestionModel): void {
  const same = root.dataset.question === m.ref.questionId;
  shown = m;
  history =
    m.historyProblem && m.seen === 0 ? undefined : new HistoryUi(generation, m.seen, (msg) => vscode.postMessage(msg));
  shownGeneration = generation;
  const piUi = new PmPiUi(root, history);
  pi = piUi;
  if (history) history.onShown = (index) => piUi.markMessage(index);
  const response = m.response
    ? el('pre', { className: 'prose response', text: m.response })
    : el('p', { className: 'note', text: m.run ? 'This run has no row for the question.' : 'No run of this split.' });
  root.replaceChildren(
    header(m),
    section(
      'question',
      'Question',
      `answer (${m.correctLetter ?? '?'}) · pick ${m.pick ? `(${m.pick})` : 'none'}`,
      [el('p', { className: 'question-text prose', text: m.question }), optionsList(m)],
      sections,
    ),
    section('response', "The model's response", m.run ?? '', [response], sections),
    section('attempts', 'Re-runs', 'r: re-run · e: edit the prompt', [attemptsBody], sections),
    section(
      'history',
      'History the model saw',
      `${m.seen.toLocaleString('en-US')} messages`,
      [
        el('p', { className: 'note history-note', text: historyNote(m) }),
        m.historyProblem && el('p', { className: 'note history-problem', text: m.historyProblem }),
        history?.element,
      ],
      sections,
    ),
    section('pi', 'Personal information', 'PI audit findings in what the model saw', [piUi.element], sections),
  );
  root.dataset.question = m.ref.questionId;
  drawAttempts();
  // What the view's serializer reopens after a reload of the window.
  mergeState(vscode, { restore: { split: m.ref.split, questionId: m.ref.questionId } });
  document.title = `persona ${m.personaId} · Q${m.position}`;
  labels.attach(m.ref);
  if (!same) window.scrollTo(0, 0);
}

onHostMessage(isExtensionToWebview, (msg) => {
  switch (msg.type) {
    case 'show':
      show(msg.generation, msg.model);
      break;
    case 'auditPi':
      if (msg.generation === shownGeneration) pi?.show(msg);
      break;
    case 'empty':
      pi = undefined;
      history = undefined;
      shown = undefined;
      delete root.dataset.question;
      root.replaceChildren(el('p', { className: 'placeholder', text: msg.message }));
      break;
    case 'rows':
      history?.onRows(msg.generation, msg.rows);
      break;
    case 'message':
      history?.onMessage(msg.generation, msg.index, msg.role, msg.text);
      break;
    case 'attempts':
      attempts = msg;
      drawAttempts();
      break;
    case 'labels':
      labels.update(msg.state);
      break;
  }
});

// [ and ] move to the previous / next question of the persona (no modifiers: nothing collides with the workbench).
window.addEventListener('keydown', (event: KeyboardEvent) => {
  if (!isPlainKey(event)) return;
  if (event.key === 'e' || event.key === 'r') {
    event.preventDefault();
    if (shown) vscode.postMessage({ type: event.key === 'e' ? 'editPrompt' : 'rerunQuestion' });
    return;
  }
  const delta = event.key === ']' ? 1 : event.key === '[' ? -1 : 0;
  if (!delta) return;
  event.preventDefault();
  navigate(delta);
});

vscode.postMessage({ type: 'ready' });
