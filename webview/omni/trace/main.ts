// Trace view webview: posts `ready`, renders each `show`, then asks for the timeline (filter → count, histogram)
// and for row windows as the list scrolls. Raw outputs and full records are asked for on demand. The page saves its
// test action and the history record it shows (its `restore` state), and shows that record again when it loads again
// on the same test action (after Reload Window, or when the panel is shown after being hidden).
import {
  isExtensionToWebview,
  restoreValue,
  savedRestore,
  type TraceModel,
  type TraceRef,
  type WebviewToExtension,
} from '../../../src/shared/omni/traceProtocol';
import type { AttemptsMessage } from '../../../src/shared/omni/traceAttempts';
import { el } from '../../shared/dom';
import { mergeState, onHostMessage, vscodeApi } from '../../shared/host';
import { isPlainKey } from '../../shared/keys';
import { injectStyle } from '../../shared/page';
import { openSections, section } from '../../shared/sections';
import baseCss from '../../shared/base.css';
import chipsCss from '../../shared/labelChips.css';
import piMarksCss from '../../shared/piMarks.css';
import vlistCss from '../../shared/vlist.css';
import { renderContext, renderHeader, renderProfile, renderQuestions, showRaw, type Handlers } from './render';
import { TraceLabelsUi } from './labels';
import { renderAttempts, type AttemptHandlers } from './attempts';
import { PiUi } from './pi';
import { ScoresUi } from './scores';
import { TimelineUi } from './timeline';
import css from './trace.css';

const vscode = vscodeApi<WebviewToExtension>();
const root = document.getElementById('trace-root') ?? document.body;

injectStyle(`${vlistCss}\n${chipsCss}\n${baseCss}\n${css}\n${piMarksCss}`);
const sections = openSections(vscode);
let timeline: TimelineUi | undefined;
let pi: PiUi | undefined;
const labels = new TraceLabelsUi(root, (action) => vscode.postMessage({ type: 'label', action }));
labels.onHistory = (s) => timeline?.setLabels(s.history);
const scores = new ScoresUi((action) => vscode.postMessage({ type: 'label', action }));

/** The test action shown, and the history record whose text the page shows or has asked for (null: none). */
let shownRef: TraceRef | undefined;
let revealed: { index: number; target: boolean } | null = null;

function saveRestore(): void {
  if (shownRef) mergeState(vscode, { restore: restoreValue({ ref: shownRef, record: revealed }) });
}

labels.onTarget = (record) => {
  if (revealed) revealed.target = record === revealed.index;
  saveRestore();
};

/** Asks for a history record's text (a row opened, a PI finding's record); `target`: the labels bar targets it. */
function openRecord(index: number, target: boolean): void {
  revealed = { index, target };
  saveRestore();
  vscode.postMessage({ type: 'record', index });
}

const handlers: Handlers = {
  navigate(delta) {
    vscode.postMessage({ type: 'navigate', delta });
  },
  openSource(which, index) {
    vscode.postMessage({ type: 'openSource', which, index });
  },
  requestRaw(field) {
    vscode.postMessage({ type: 'raw', field });
  },
  isOpen: sections.isOpen,
  setOpen: sections.setOpen,
};

const attemptHandlers: AttemptHandlers = {
  rerun: () => vscode.postMessage({ type: 'rerunAction' }),
  editPrompt: (field) => vscode.postMessage({ type: 'editPrompt', ...(field ? { field } : {}) }),
  open: (id, field, which) => vscode.postMessage({ type: 'openAttempt', id, field, which }),
};
let attemptsMsg: AttemptsMessage = { type: 'attempts', attempts: [], running: null, source: '' };
const attemptsBody = document.createElement('div');

function drawAttempts(): void {
  attemptsBody.replaceChildren(
    ...renderAttempts(attemptsMsg, attemptHandlers).filter((c): c is Node => c instanceof Node),
  );
}

function show(model: TraceModel): void {
  timeline?.destroy();
  const key = `${model.ref.userId}#${model.ref.index}`;
  const same = root.dataset.trace === key;
  timeline = new TimelineUi(model, (msg) =>
    msg.type === 'record' ? openRecord(msg.index, true) : vscode.postMessage(msg),
  );
  pi = new PiUi(
    () => vscode.postMessage({ type: 'scanPi' }),
    (index) => openRecord(index, true),
    root,
  );
  const c = model.counts;
  root.replaceChildren(
    renderHeader(model, handlers),
    renderProfile(model),
    section(
      'questions',
      'Questions',
      model.noPrediction
        ? 'no prediction'
        : `${c.correct} right · ${c.incorrect} wrong${c.graded ? ` · ${c.graded} graded` : ''}${c['left-out'] ? ` · ${c['left-out']} left out` : ''}`,
      renderQuestions(model, handlers),
      handlers,
    ),
    ...(model.fields.includes('next_user_message')
      ? [section('scores', 'Your scores of the utterance', 'beside the judge · S', [scores.element], handlers)]
      : []),
    section('attempts', 'Attempts', 'Re-run (R) · Edit Prompt (E)', [attemptsBody], handlers),
    section('context', 'Scene context', `${model.scene} · ${model.timestamp}`, renderContext(model), handlers),
    section(
      'timeline',
      'History before the test action',
      `${model.ref.index.toLocaleString('en-US')} records`,
      [timeline.element],
      handlers,
    ),
    section('pi', 'Personal information', 'residual PI in the profile and the history', [pi.element], handlers),
  );
  root.dataset.trace = key;
  document.title = `${model.ref.userId} · #${model.ref.index}`;
  if (!same) window.scrollTo(0, 0);
  // The record saved for this test action comes back (the page loaded again, or the same test action shown again);
  // another test action starts without one.
  const saved = savedRestore(vscode.getState());
  const again = saved && `${saved.ref.userId}#${saved.ref.index}` === key ? saved.record : null;
  shownRef = model.ref;
  revealed = null;
  labels.attach(model.ref);
  timeline.sendFilter();
  if (again) {
    timeline.reveal(again.index);
    openRecord(again.index, again.target);
    if (again.target) labels.select(again.index);
  }
  // What the trace view's serializer reopens after a reload of the window (src/extension/benchmarks/omni/traceView/restore.ts).
  saveRestore();
}

onHostMessage(isExtensionToWebview, (msg) => {
  switch (msg.type) {
    case 'attempts': {
      // An attempt just finished (the view said "Asking…" and no longer does): bring it into view.
      const grew = attemptsMsg.running !== null && msg.running === null && msg.attempts.length > 0;
      attemptsMsg = msg;
      drawAttempts();
      // A new attempt is what the person is waiting for: bring it into view (not on first show).
      if (grew) attemptsBody.querySelector('.attempt')?.scrollIntoView({ block: 'nearest' });
      break;
    }
    case 'show':
      show(msg.model);
      break;
    case 'empty':
      timeline?.destroy();
      timeline = undefined;
      shownRef = undefined;
      revealed = null;
      delete root.dataset.trace;
      root.replaceChildren(el('p', { className: 'placeholder', text: msg.message }));
      break;
    case 'timeline':
      timeline?.onTimeline(msg.generation, msg.count, msg.histogram);
      break;
    case 'rows':
      timeline?.onRows(msg.generation, msg.rows);
      break;
    case 'raw':
      showRaw(root, msg.field, msg.text);
      break;
    case 'record':
      // Only the record asked for last: an older answer that comes late must not replace it.
      if (revealed?.index !== msg.index) break;
      timeline?.onRecord(msg.index, msg.text);
      pi?.markRecord(msg.index);
      if (revealed.target) labels.select(msg.index, msg.behaviours);
      break;
    case 'reveal':
      revealed = { index: msg.index, target: true };
      timeline?.reveal(msg.index);
      labels.select(msg.index);
      saveRestore();
      break;
    case 'labels':
      labels.update(msg.state);
      scores.update(msg.state.ref, msg.state.scores);
      break;
    case 'pi':
      pi?.update(msg);
      break;
    case 'auditPi':
      pi?.showAudit(msg);
      break;
  }
});

// [ and ] move to the previous / next test action of the user (no modifiers, so nothing collides with the workbench).
window.addEventListener('keydown', (event: KeyboardEvent) => {
  if (!isPlainKey(event)) return;
  const k = event.key.toLowerCase();
  if ((k === 'r' || k === 'e') && shownRef && !event.repeat) {
    event.preventDefault();
    if (k === 'r') attemptHandlers.rerun();
    else attemptHandlers.editPrompt();
    return;
  }
  const delta = event.key === ']' ? 1 : event.key === '[' ? -1 : 0;
  if (!delta) return;
  event.preventDefault();
  const b = root.querySelector<HTMLElement & { disabled: boolean }>(`vscode-button[data-nav="${delta}"]`);
  if (b && !b.disabled) handlers.navigate(delta);
});

vscode.postMessage({ type: 'ready' });
