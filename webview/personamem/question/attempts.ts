// The question view's re-runs: Re-run (r) and Edit Prompt (e), and each attempt made in the workbench with exactly
// what was sent after the history, what came back, the letter read from it and whether that is the right option.
// Words carry every meaning; icons only repeat them. Dataset and reply text is set as text.
import type { AttemptsMessage, PmAttemptView } from '../../../src/shared/personamem/questionProtocol';
import { actionButton, el, icon, type Child } from '../../shared/dom';

export interface AttemptHandlers {
  rerun(): void;
  editPrompt(): void;
  open(id: number, which: 'request' | 'reply'): void;
}

const VERDICT: Record<PmAttemptView['verdict'], { word: string; icon: string }> = {
  right: { word: 'right', icon: 'pass-filled' },
  wrong: { word: 'wrong', icon: 'error' },
  invalid: { word: 'no single letter read (scored wrong)', icon: 'warning' },
  failed: { word: 'no reply', icon: 'circle-slash' },
};

function verdictLine(a: PmAttemptView): HTMLElement {
  const v = VERDICT[a.verdict];
  const pick = a.pick ? `picked (${a.pick})` : 'picked nothing';
  return el('p', { className: 'attempt-verdict', attrs: { 'data-verdict': a.verdict, 'data-pick': a.pick ?? '' } }, [
    icon(v.icon),
    ` ${v.word}: ${a.verdict === 'failed' ? (a.error ?? 'the request failed') : pick}; the answer is (${a.correctLetter})`,
  ]);
}

function attempt(a: PmAttemptView, h: AttemptHandlers): HTMLElement {
  const when = a.at.replace('T', ' ').slice(0, 19);
  const link = (which: 'request' | 'reply', text: string) => {
    const x = el('a', { text, attrs: { href: '#', 'data-open': which } });
    x.addEventListener('click', (e) => {
      e.preventDefault();
      h.open(a.id, which);
    });
    return x;
  };
  return el('div', { className: 'attempt', attrs: { 'data-attempt': String(a.id), 'data-verdict': a.verdict } }, [
    el('div', { className: 'attempt-head' }, [
      el('strong', { text: `#${a.id}` }),
      ` ${when} · ${a.label}${a.edited ? ' · edited prompt' : ''} · `,
      link('request', 'request'),
      ' · ',
      link('reply', 'reply'),
    ]),
    verdictLine(a),
    el('p', {
      className: 'note',
      text: `Sent: the history's first ${a.history.toLocaleString('en-US')} messages as stored, then:`,
    }),
    ...a.sent.map((m) =>
      el('div', { className: 'sent-message', attrs: { 'data-role': m.role } }, [
        el('span', { className: 'sent-role', text: m.role }),
        el('pre', { className: 'prose attempt-sent', text: m.content }),
      ]),
    ),
    el('p', { className: 'note', text: 'Came back:' }),
    el('pre', { className: 'prose attempt-reply', text: a.reply ?? '(nothing)' }),
  ]);
}

/** The section's body for an `attempts` message. */
export function renderAttempts(msg: AttemptsMessage, h: AttemptHandlers): Node[] {
  const parts: Child[] = [
    el('div', { className: 'attempt-bar' }, [
      actionButton('Re-run (R)', 'Ask the question again as the request source renders it', h.rerun, 'debug-rerun'),
      actionButton('Edit Prompt (E)', 'Edit the request in a draft; Ctrl+Enter there sends it', h.editPrompt, 'edit'),
      el('span', { className: 'attempt-source', text: `request: ${msg.source}` }),
    ]),
    msg.running
      ? el('p', { className: 'attempt-running' }, [icon('loading', 'codicon-modifier-spin'), ` ${msg.running}`])
      : null,
    msg.attempts.length === 0
      ? el('p', { className: 'note', text: 'No attempts yet: re-run the question or edit its prompt.' })
      : null,
    ...msg.attempts.map((a) => attempt(a, h)),
  ];
  return parts.filter((c): c is Node => c instanceof Node);
}
