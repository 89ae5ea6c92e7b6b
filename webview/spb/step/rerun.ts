// The step view's Re-run section: buttons, the attempt shown beside the original (flipped tags, metric deltas,
// picks, personas, reasoning, flags, latency, usage), earlier attempts, and a persona ablation table (the last two
// in rerunTables.ts). Text only.
import { fieldKey, type PiMark } from '../../../src/core/pi/spans';
import type { RerunComparison } from '../../../src/core/spb/rerun/attemptCompare';
import type { PromptDiff } from '../../../src/core/rerun/promptDiff';
import type { SideModel } from '../../../src/core/spb/view/sides';
import type { StepModel } from '../../../src/core/spb/view/stepModel';
import type { RerunState } from '../../../src/shared/spb/stepViewProtocol';
import { el, icon, type Child } from '../../shared/dom';
import { deltasBox, flippedBox, personaDiffBox, sideGrid, sideRows, type SideColumn } from '../shared/sides';
import { MODE_TEXT, renderAblation, renderAttempts, templateLabel, when, type RerunHandlers } from './rerunTables';
export type { RerunHandlers } from './rerunTables';

function button(
  text: string,
  iconName: string,
  onClick: () => void,
  attrs: Record<string, string>,
  secondary = true,
): HTMLElement {
  const b = el('vscode-button', { text, attrs });
  b.icon = iconName;
  b.secondary = secondary;
  b.addEventListener('click', onClick);
  return b;
}

function renderFlags(c: RerunComparison): HTMLElement {
  return c.flags.length
    ? el(
        'ul',
        { className: 'flags' },
        c.flags.map((f) =>
          el('li', { className: `flag sev-${f.severity}`, attrs: { 'data-flag': f.code } }, [
            icon(f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'info'),
            el('span', { text: ` ${f.message}` }),
          ]),
        ),
      )
    : el('p', {
        className: 'flags-none',
        text: c.hasReply
          ? 'No parse flags: the reply is a well-formed JSON object with the asked number of pool tags.'
          : 'No reply text came back, so there is nothing to parse.',
      });
}

/** A failed attempt is not a result: its error, tries and Retry, and nothing compared. */
function renderFailure(c: RerunComparison, h: RerunHandlers): HTMLElement {
  const a = c.attempt;
  return el('div', { className: 'cmp cmp-failed', attrs: { 'data-attempt': String(a.id) } }, [
    el('section', { className: 'failure-banner', attrs: { role: 'alert' } }, [
      icon('error', 'failure-icon'),
      el('div', { className: 'failure-text' }, [
        el('h3', {
          text: `Attempt ${a.n} failed: no usable reply after ${c.tries} of 3 tries`,
          attrs: { 'data-fact': 'failure' },
        }),
        el('p', { className: 'failure-error', text: a.error ?? '', attrs: { 'data-fact': 'error' } }),
        el('p', {
          className: 'note',
          text: `Nothing is compared with the original. The attempt is kept in the history as the reference keeps a failed step in a run (no tags, reasoning “Error: …”). ${a.model} at ${a.baseURL}, ${a.latencyMs.toLocaleString('en-US')} ms.`,
        }),
        c.hasReply ? renderFlags(c) : null,
      ]),
      el('div', { className: 'failure-actions' }, [
        button('Retry', 'refresh', () => h.retryAttempt(a.id), { 'data-action': 'retry' }, false),
        button('Open request', 'go-to-file', () => h.openAttempt(a.id, 'request'), { 'data-open': 'request' }),
        c.hasReply ? button('Open raw reply', 'json', () => h.openAttempt(a.id, 'raw'), { 'data-open': 'raw' }) : null,
      ]),
    ]),
  ]);
}

function renderComparison(c: RerunComparison, h: RerunHandlers, pi: Readonly<Record<string, PiMark[]>>): HTMLElement {
  const a = c.attempt;
  if (a.error !== null) return renderFailure(c, h);
  const col = (key: 'original' | 'rerun', head: Child[], model: SideModel, other: string): SideColumn => ({
    key,
    head,
    model,
    other,
  });
  const cols: [SideColumn, SideColumn] = [
    col(
      'original',
      [el('h3', {}, [icon('file'), ` Original · ${c.originalRun ?? 'no run selected'}`])],
      c.original,
      'the re-run',
    ),
    col(
      'rerun',
      [
        el('h3', {}, [icon('debug-rerun'), ` Attempt ${a.n}`]),
        el('p', {
          className: 'cmp-meta',
          text: `${templateLabel(a)} · persona ${MODE_TEXT[a.personaMode]} · ${a.model} · ${when(a.createdAt)}`,
        }),
      ],
      c.rerun,
      'the original',
    ),
  ];
  const grid = sideGrid(cols, sideRows(pi));
  const usage = c.usage
    ? `${c.usage.promptTokens} prompt + ${c.usage.completionTokens} completion = ${c.usage.totalTokens} tokens`
    : 'not reported';
  const details = el('section', { className: 'cmp-box cmp-details', attrs: { 'aria-label': 'Re-run details' } }, [
    el('h3', { text: 'Reply' }),
    renderFlags(c),
    el('dl', { className: 'facts' }, [
      el('dt', { text: 'Tries' }),
      el('dd', { text: `${c.tries} of 3`, attrs: { 'data-fact': 'tries' } }),
      el('dt', { text: 'Latency' }),
      el('dd', { text: `${c.latencyMs.toLocaleString('en-US')} ms`, attrs: { 'data-fact': 'latency' } }),
      el('dt', { text: 'Usage' }),
      el('dd', { text: usage, attrs: { 'data-fact': 'usage' } }),
    ]),
    el('div', { className: 'cmp-actions' }, [
      button('Open request', 'go-to-file', () => h.openAttempt(a.id, 'request'), { 'data-open': 'request' }),
      button('Open raw reply', 'json', () => h.openAttempt(a.id, 'raw'), { 'data-open': 'raw' }),
    ]),
  ]);
  const none = c.original.hasResult
    ? 'No tag flipped: both picked the same pool tags.'
    : 'The run has no result to compare with.';
  return el('div', { className: 'cmp', attrs: { 'data-attempt': String(a.id) } }, [
    el('div', { className: 'cmp-summary' }, [
      flippedBox(c.flipped, none),
      deltasBox(c.metrics, ['Original', 'Re-run'], c.scored),
      details,
    ]),
    grid,
    personaDiffBox(c.personaDiff, 'Persona written: original → re-run', (i) => pi[fieldKey.cmpDiff(i)]),
  ]);
}

/** The selected attempt's request against the one before it: the changed lines, the rest counted. */
function renderPromptDiff(d: PromptDiff, n: number): HTMLElement {
  const block = (title: string, parts: PromptDiff['prompt']) => {
    if (!parts.some((p) => p.kind !== 'same')) return null;
    return el('div', { className: 'prompt-diff-part' }, [
      el('h4', { text: title }),
      el(
        'pre',
        { className: 'prompt-diff-text' },
        parts.flatMap((p, i) => {
          if (p.kind !== 'same') return [el(p.kind === 'added' ? 'ins' : 'del', { text: p.text })];
          // The rest of a line changed inside stays in sight (words are marked, not lines); whole lines are counted.
          let text = p.text;
          let lead = '';
          let tail = '';
          if (i > 0 && !parts[i - 1].text.endsWith('\n')) {
            const nl = text.indexOf('\n');
            lead = nl < 0 ? text : text.slice(0, nl + 1);
            text = text.slice(lead.length);
          }
          if (i < parts.length - 1) {
            tail = text.slice(text.lastIndexOf('\n') + 1);
            text = text.slice(0, text.length - tail.length);
          }
          const lines = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
          return [
            lead && el('span', { className: 'same-text', text: lead }),
            lines > 0 &&
              el('span', { className: 'same', text: `… ${lines} line${lines === 1 ? '' : 's'} the same …\n` }),
            tail && el('span', { className: 'same-text', text: tail }),
          ];
        }),
      ),
    ]);
  };
  const changed = d.added + d.removed > 0;
  return el('section', { className: 'cmp-box prompt-diff', attrs: { 'aria-label': 'Prompt changes' } }, [
    el('h3', {
      text: changed
        ? `Prompt of attempt ${n} against attempt ${d.against}: −${d.removed} line${d.removed === 1 ? '' : 's'}, +${d.added}`
        : `Attempt ${n} sent the same request as attempt ${d.against}`,
    }),
    block('System message', d.system),
    block('User message', d.prompt),
  ]);
}

export function rerunDescription(state: RerunState): string {
  if (state.running) return 'running…';
  const c = state.selected;
  if (!c) {
    if (state.attempts.length) return `${state.attempts.length} attempts`;
    return state.endpoint ? `no re-runs yet · ${state.endpoint}` : 'no re-runs yet · no endpoint set';
  }
  if (c.attempt.error !== null)
    return `attempt ${c.attempt.n} failed · ${c.attempt.templateName || c.attempt.templateId}`;
  const r = c.metrics.find((m) => m.key === 'Recall');
  return `attempt ${c.attempt.n} of ${state.attempts.length} · ${c.attempt.templateName || c.attempt.templateId} · persona ${c.attempt.personaMode}${c.attempt.masked ? ` · ${c.attempt.masked}` : ''}${r ? ` · R ${r.beforeText} → ${r.afterText}` : ''}`;
}

export function renderRerunBody(state: RerunState, model: StepModel, h: RerunHandlers): Child[] {
  const recall = model.metrics.find((m) => m.key === 'Recall')?.value ?? null;
  const busy = state.running !== null;
  const toolbar = el('div', { className: 'rerun-toolbar' }, [
    button('Edit Prompt (e)', 'edit', () => h.command('editPrompt'), { 'data-command': 'editPrompt' }, false),
    button('Re-run Step…', 'debug-rerun', () => h.command('rerunStep'), { 'data-command': 'rerunStep' }),
    button('Re-run Chain from Here…', 'run-all', () => h.command('rerunChain'), { 'data-command': 'rerunChain' }),
    button('Persona Ablation…', 'beaker', () => h.command('runAblation'), { 'data-command': 'runAblation' }),
    button('Preview Prompt…', 'open-preview', () => h.command('previewPrompt'), { 'data-command': 'previewPrompt' }),
    state.endpoint
      ? el('span', { className: 'endpoint', text: `Endpoint: ${state.endpoint}` })
      : el('span', { className: 'endpoint missing' }, [
          'No endpoint yet. ',
          button(
            'Configure Endpoint…',
            'plug',
            () => h.command('configureEndpoint'),
            { 'data-command': 'configureEndpoint' },
            false,
          ),
        ]),
  ]);
  for (const b of toolbar.querySelectorAll('vscode-button'))
    if (!['editPrompt', 'previewPrompt', 'configureEndpoint'].includes(b.getAttribute('data-command') ?? ''))
      (b as HTMLElement & { disabled: boolean }).disabled = busy;
  return [
    toolbar,
    busy
      ? el('p', { className: 'rerun-running', attrs: { role: 'status' } }, [
          icon('loading', 'codicon-modifier-spin'),
          ` ${state.running} `,
          button('Cancel', 'close', () => h.cancelRerun(), { 'data-action': 'cancel' }),
        ])
      : null,
    state.historyProblem ? el('p', { className: 'note warn', text: `History: ${state.historyProblem}` }) : null,
    state.attempts.length ? renderAttempts(state, recall, h) : null,
    state.selected && state.promptDiff ? renderPromptDiff(state.promptDiff, state.selected.attempt.n) : null,
    state.selected ? renderComparison(state.selected, h, state.pi) : null,
    state.ablation ? renderAblation(state.ablation, model.ref.stepId) : null,
    !state.selected && !state.attempts.length && !state.ablation && !busy
      ? el('p', {
          className: 'note',
          text: 'Re-run this step with another template or persona: the result appears here beside the original, and every attempt is kept.',
        })
      : null,
  ];
}
