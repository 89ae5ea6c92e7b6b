// The trace view's attempts: Re-run Test Action (r) and Edit Prompt (e), and each attempt made in the workbench with
// its answers against the selected run's: fixed (wrong → right), broken (right → wrong), lost (nothing read), the
// graded error's move. Words carry every meaning; icons only repeat them. Dataset text is set as text.
import type { AttemptRowView, AttemptView, AttemptsMessage } from '../../../src/shared/omni/traceAttempts';
import { actionButton as button, el, icon, type Child } from '../../shared/dom';

export interface AttemptHandlers {
  rerun(): void;
  editPrompt(field?: string): void;
  open(id: number, field: string, which: 'prompt' | 'raw'): void;
}

const CHANGE: Record<AttemptRowView['change'], { word: string; icon: string }> = {
  fixed: { word: 'fixed', icon: 'pass' },
  broken: { word: 'broken', icon: 'error' },
  same: { word: 'same', icon: 'dash' },
  new: { word: 'new', icon: 'add' },
  lost: { word: 'nothing read', icon: 'warning' },
};

function row(a: AttemptView, r: AttemptRowView, h: AttemptHandlers): HTMLElement {
  const c = CHANGE[r.change];
  const delta = r.delta === null ? '' : `${r.delta > 0 ? '+' : ''}${r.delta.toFixed(1)} pts error`;
  const link = (which: 'prompt' | 'raw', text: string) => {
    const x = el('a', { text, attrs: { href: '#', 'data-open': which } });
    x.addEventListener('click', (e) => {
      e.preventDefault();
      h.open(a.id, r.field, which);
    });
    return x;
  };
  // The figures (change, Δ, judge) come right after the field, so that they stay in sight in a narrow editor.
  return el('tr', { attrs: { 'data-field': r.field, 'data-change': r.change } }, [
    el('th', { text: r.field, attrs: { scope: 'row' } }),
    el('td', { className: `change change-${r.change}`, attrs: { 'data-col': 'change' } }, [icon(c.icon), ` ${c.word}`]),
    el('td', { text: delta, attrs: { 'data-col': 'delta' } }),
    el('td', { text: r.judge === null ? '' : r.judge.toFixed(2), attrs: { 'data-col': 'judge' } }),
    el('td', { text: r.truth, attrs: { 'data-col': 'truth' } }),
    el('td', { text: r.before ?? '—', attrs: { 'data-col': 'before' } }),
    el('td', { text: r.after, title: r.error ?? '', attrs: { 'data-col': 'after' } }),
    el('td', {}, [link('prompt', 'prompt'), ' · ', link('raw', 'reply')]),
  ]);
}

function attempt(a: AttemptView, h: AttemptHandlers): HTMLElement {
  const when = a.at.replace('T', ' ').slice(0, 19);
  const summary = `${a.fixed} fixed · ${a.broken} broken`;
  return el('div', { className: 'attempt', attrs: { 'data-attempt': String(a.id) } }, [
    el('div', { className: 'attempt-head' }, [
      el('strong', { text: `#${a.id}` }),
      ` ${when} · ${a.label}${a.edited ? ` · edited prompt of ${a.edited}` : ''} · `,
      el('span', { className: 'attempt-summary', text: summary }),
    ]),
    el('table', { className: 'attempt-table' }, [
      el('thead', {}, [
        el(
          'tr',
          {},
          ['field', 'change', 'Δ', 'judge', 'truth', 'run', 'this attempt', ''].map((t) =>
            el('th', { text: t, attrs: { scope: 'col' } }),
          ),
        ),
      ]),
      el(
        'tbody',
        {},
        a.rows.map((r) => row(a, r, h)),
      ),
    ]),
  ]);
}

/** The section's body for an `attempts` message. */
export function renderAttempts(msg: AttemptsMessage, h: AttemptHandlers): Child[] {
  return [
    el('div', { className: 'attempt-bar' }, [
      button(
        'Re-run Test Action (R)',
        'Ask every question again as the prompt source renders it',
        h.rerun,
        'debug-rerun',
      ),
      button(
        'Edit Prompt (E)',
        "Edit one question's prompt in a draft; Ctrl+Enter there sends it",
        () => h.editPrompt(),
        'edit',
      ),
      el('span', { className: 'attempt-source', text: `prompts: ${msg.source}` }),
    ]),
    msg.running
      ? el('p', { className: 'attempt-running' }, [icon('loading', 'codicon-modifier-spin'), ` ${msg.running}`])
      : null,
    msg.attempts.length === 0
      ? el('p', { className: 'muted', text: 'No attempts yet: re-run the test action or edit a prompt.' })
      : null,
    ...msg.attempts.map((a) => attempt(a, h)),
  ];
}
