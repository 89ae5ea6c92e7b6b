// Renders a TraceModel's header, profile, scene context and questions. Every dataset string is set as text.
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { QuestionRow, TraceModel, Verdict } from '../../../src/shared/omni/traceProtocol';
import { el, icon, type Child } from '../../shared/dom';
import type { SectionState } from '../../shared/sections';
import { hoverText, MISSING } from '../../../src/core/glossary';

export interface Handlers extends SectionState {
  navigate(delta: 1 | -1): void;
  openSource(which: 'raw' | 'prediction', index?: number): void;
  /** Ask for a question's raw output (shown when the `raw` message arrives). */
  requestRaw(field: string): void;
}

export const VERDICTS: Record<Verdict, { icon: string; text: string; help: string }> = {
  correct: { icon: 'pass-filled', text: 'right', help: 'the prediction matches the true value' },
  incorrect: { icon: 'error', text: 'wrong', help: 'the prediction differs from the true value' },
  graded: {
    icon: 'symbol-ruler',
    text: 'graded',
    help: 'scored on a scale (error against the normaliser, or a judge score)',
  },
  'left-out': {
    icon: 'debug-disconnect',
    text: 'left out',
    help: 'no usable predicted value: left out of every metric, as the reference leaves it out',
  },
  unscored: {
    icon: 'circle-slash',
    text: 'unscored',
    help: 'no usable truth, normaliser or judge score: not in the score',
  },
};

function button(
  text: string,
  iconName: string,
  title: string,
  onClick: () => void,
  attrs: Record<string, string> = {},
): HTMLElement {
  const b = el('vscode-button', { text, title, attrs });
  b.icon = iconName;
  b.secondary = true;
  b.addEventListener('click', onClick);
  return b;
}

function navButton(text: string, iconName: string, delta: 1 | -1, enabled: boolean, h: Handlers): HTMLElement {
  const b = button(
    text,
    iconName,
    `${text} test action of this user (${delta > 0 ? ']' : '['})`,
    () => h.navigate(delta),
    { 'data-nav': String(delta) },
  );
  (b as HTMLElement & { disabled: boolean }).disabled = !enabled;
  return b;
}

export function valueText(v: string | number | null): string {
  return v === null ? '—' : String(v);
}

export function renderHeader(m: TraceModel, h: Handlers): HTMLElement {
  const c = m.counts;
  return el('header', { className: 'page-header trace-header' }, [
    el('div', { className: 'title-row' }, [
      el('h1', { className: 'user-id', text: m.ref.userId, title: 'User id' }),
      el('span', {
        className: 'action-index',
        text: `test action #${m.ref.index}`,
        title: 'Position of the test action in the action_history',
      }),
      el('span', { className: 'scene', text: m.scene, title: 'Scene' }),
      el('span', { className: 'time', text: m.timestamp, title: 'Timestamp' }),
    ]),
    el('div', { className: 'meta-row' }, [
      navButton('Previous', 'arrow-left', -1, m.position > 1, h),
      el('span', { className: 'position', text: `${m.position} / ${m.actions}`, title: 'Test action of this user' }),
      navButton('Next', 'arrow-right', 1, m.position < m.actions, h),
      el('span', {
        className: 'run',
        text: m.run ? `run ${m.run}${m.runMade ? ` (${m.runMade})` : ''}` : 'no run selected',
        title: 'The run whose predictions and figures this view shows (Choose OmniBehavior Run… changes it)',
      }),
      m.runFigures ? el('span', { className: 'run-figures', text: m.runFigures }) : null,
      el('span', {
        className: 'counts',
        text: m.noPrediction
          ? 'the run has no prediction for this test action'
          : `${c.correct} right · ${c.incorrect} wrong · ${c.graded} graded · ${c['left-out']} left out · ${c.unscored} unscored`,
      }),
      button('Open Raw Record', 'go-to-file', 'Open the user file at the test action', () => h.openSource('raw'), {
        'data-source': 'raw',
      }),
      button(
        'Open Prediction',
        'go-to-file',
        'Open the predictions file at this test action',
        () => h.openSource('prediction'),
        { 'data-source': 'prediction' },
      ),
    ]),
  ]);
}

export function renderProfile(m: TraceModel): HTMLElement {
  return el('section', { className: 'profile' }, [
    icon('person'),
    el('span', { className: 'profile-label', text: 'Profile' }),
    el('p', { className: 'profile-text prose', text: m.profile || '(no profile)' }),
    el('span', { className: 'note', text: `${m.historyLength.toLocaleString('en-US')} actions in the whole history` }),
  ]);
}

export function renderContext(m: TraceModel): Child[] {
  if (m.contextState === 'unreadable')
    return [
      el('p', {
        className: 'context-unreadable',
        text: 'The test action’s record could not be read (its problem is in the Problems panel): its context is unknown.',
      }),
    ];
  if (!m.context.length)
    return [el('p', { className: 'empty context-none', text: `This ${m.scene} record carries no context.` })];
  const rows = m.context.map((e) =>
    el('tr', { attrs: { 'data-key': e.key } }, [
      el('th', { text: e.key, attrs: { scope: 'row' } }),
      el('td', { className: 'prose', text: e.value }),
    ]),
  );
  const note =
    m.normaliser !== null
      ? el('p', { className: 'note', text: `Normaliser of the continuous fields (video duration): ${m.normaliser}` })
      : null;
  return [el('table', { className: 'context-table' }, [el('tbody', {}, rows)]), note];
}

function verdictMark(q: QuestionRow): HTMLElement {
  const v = VERDICTS[q.verdict];
  return el('span', { className: `verdict verdict-${q.verdict}`, title: v.help }, [
    icon(v.icon),
    el('span', { text: v.text }),
  ]);
}

function errorCell(q: QuestionRow, m: TraceModel): Child {
  if (q.type === 'continuous') {
    const parts = [
      q.absError === null ? `|error| ${MISSING}` : `|error| ${q.absError}`,
      m.normaliser === null ? `normaliser ${MISSING}` : `normaliser ${m.normaliser}`,
      q.normalisedError === null ? `NMAE term ${MISSING}` : `NMAE term ${q.normalisedError.toFixed(1)} % of duration`,
    ];
    const title = `|error|: |true − predicted| in seconds. Normaliser: the video’s duration in seconds. ${hoverText('NMAE term')}`;
    return el('span', { className: 'error-text', text: parts.join(' · '), title });
  }
  if (q.judgeScore !== null)
    return el('span', { className: 'error-text', text: `judge ${q.judgeScore} / 10`, title: hoverText('judge') });
  return null;
}

function renderQuestion(q: QuestionRow, m: TraceModel, h: Handlers): HTMLElement {
  const rawSlot = el('pre', { className: 'raw-output prose', attrs: { hidden: '' } });
  const rawButton = q.hasRaw
    ? button(
        'Show Raw Output',
        'output',
        'Show the model’s raw output for this question',
        () => {
          if (rawSlot.hasAttribute('hidden')) h.requestRaw(q.field);
          else rawSlot.setAttribute('hidden', '');
        },
        { 'data-raw': q.field },
      )
    : el('span', { className: 'note', text: 'no raw output' });
  const values: HTMLElement =
    q.field === 'next_user_message' || q.type === 'text'
      ? el('div', { className: 'side-by-side' }, [
          el('div', { className: 'utterance true-value' }, [
            el('div', { className: 'caption', text: 'True' }),
            el('p', { className: 'prose', text: valueText(q.trueValue) }),
          ]),
          el('div', { className: 'utterance predicted-value' }, [
            el('div', { className: 'caption', text: 'Predicted' }),
            el('p', { className: 'prose', text: valueText(q.predictedValue) }),
          ]),
        ])
      : el('div', { className: 'values' }, [
          el('span', { className: 'caption', text: 'true' }),
          el('span', { className: 'true-value', text: valueText(q.trueValue) }),
          el('span', { className: 'caption', text: 'predicted' }),
          el('span', { className: 'predicted-value', text: valueText(q.predictedValue) }),
        ]);
  return el(
    'div',
    {
      className: `question verdict-row-${q.verdict}`,
      attrs: { 'data-field': q.field, 'data-verdict': q.verdict, role: 'listitem' },
    },
    [
      el('div', { className: 'q-head' }, [
        verdictMark(q),
        el('span', { className: 'field', text: q.field }),
        el('span', { className: 'kind', text: q.type }),
        errorCell(q, m),
        rawButton,
      ]),
      values,
      q.note ? el('p', { className: 'note', text: q.note }) : null,
      rawSlot,
    ],
  );
}

export function renderQuestions(m: TraceModel, h: Handlers): Child[] {
  if (m.run === null)
    return [
      el('p', { className: 'empty', text: 'No run is selected: choose one on the OmniBehavior node of the tree.' }),
    ];
  if (m.noPrediction)
    return [
      el('p', {
        className: 'empty',
        text: `The run ${m.run} has no prediction for this test action (fields asked: ${m.fields.join(', ')}).`,
      }),
    ];
  return [
    el(
      'div',
      { className: 'questions', attrs: { role: 'list' } },
      m.questions.map((q) => renderQuestion(q, m, h)),
    ),
  ];
}

/** Shows a raw output that arrived in its question's slot. */
export function showRaw(root: HTMLElement, field: string, text: string): void {
  const q = [...root.querySelectorAll<HTMLElement>('.question')].find((x) => x.dataset.field === field);
  const slot = q?.querySelector<HTMLElement>('.raw-output');
  if (!slot) return;
  slot.textContent = text || '(empty)';
  slot.removeAttribute('hidden');
}
