// The step view's Re-run section: buttons, the attempt shown beside the original (flipped tags, metric deltas,
// picks, personas, reasoning, flags, latency, usage), earlier attempts, and a persona ablation table (the last two
// in rerunTables.ts). Text only.
import { fieldKey, type PiMark } from '../../src/core/pi/spans';
import type { FlipKind, PickChip, RerunComparison, SideModel } from '../../src/core/rerun/attemptCompare';
import type { StepModel } from '../../src/core/spb/stepModel';
import type { RerunState, StepCommand } from '../../src/shared/stepViewProtocol';
import { el, icon, type Child } from '../shared/dom';
import { piNodes, piText } from './pi';
import { MODE_TEXT, renderAblation, renderAttempts, templateLabel, when } from './rerunTables';

export interface RerunHandlers {
  command(command: StepCommand): void;
  selectAttempt(id: number): void;
  openAttempt(id: number, which: 'request' | 'raw'): void;
  retryAttempt(id: number): void;
}

const FLIP_TEXT: Record<FlipKind, string> = {
  gained: 'miss → hit',
  lost: 'hit → miss',
  newWrong: 'new wrong pick',
  fixedWrong: 'wrong pick dropped',
};
const FLIP_ICON: Record<FlipKind, string> = {
  gained: 'arrow-up',
  lost: 'arrow-down',
  newWrong: 'error',
  fixedWrong: 'check',
};

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

function chip(p: PickChip): HTMLElement {
  const mark =
    p.mark === 'hit'
      ? ['pass-filled', 'hit']
      : p.mark === 'wrongPick'
        ? ['error', 'wrong pick']
        : ['question', 'outside the pool'];
  const title = `${p.tag}\n${p.group ?? 'not in the pool'}: ${mark[1]}${p.flip ? `\nflipped: ${FLIP_TEXT[p.flip]}` : '\nboth picked it'}`;
  return el(
    'li',
    {
      className: `tag pick mark-${p.mark === 'outside' ? 'outside' : p.mark}${p.flip ? ' flipped' : ''}`,
      title,
      attrs: { 'data-mark': p.mark, 'data-flip': p.flip ?? '' },
    },
    [
      icon(mark[0], 'mark-icon'),
      el('span', { className: 'tag-text', text: p.tag }),
      el('span', { className: 'mark-text', text: p.group ?? 'outside' }),
      p.flip
        ? el('span', {
            className: `flip-badge flip-${p.flip}`,
            text: p.flip === 'gained' || p.flip === 'newWrong' ? 'new' : 'dropped',
          })
        : null,
    ],
  );
}

function picks(s: SideModel, other: string): Child {
  if (!s.hasResult) return el('p', { className: 'empty', text: 'The run has no result for this step.' });
  if (s.picks.length === 0) return el('p', { className: 'empty', text: 'No tags picked.' });
  const extra = s.predicted !== s.picks.length ? ` (${s.predicted} as returned)` : '';
  return el('div', {}, [
    el('ul', { className: 'tags picks' }, s.picks.map(chip)),
    el('p', {
      className: 'note',
      text: `${s.picks.length} distinct pick${s.picks.length === 1 ? '' : 's'}${extra}; “new” / “dropped”: compared with ${other}.`,
    }),
  ]);
}

function prose(text: string, empty: string, cls = '', marks?: readonly PiMark[]): HTMLElement {
  if (text) return piText('p', `prose ${cls}`.trim(), text, marks);
  return el('p', { className: `prose ${cls} empty`.replace(/\s+/g, ' ').trim(), text: empty });
}

function renderFlipped(c: RerunComparison): HTMLElement {
  const body = c.flipped.length
    ? el(
        'ul',
        { className: 'flips' },
        c.flipped.map((f) =>
          el(
            'li',
            {
              className: `flip flip-${f.kind}`,
              attrs: { 'data-flip': f.kind },
              title: `${f.tag} (${f.group}, ${f.positive ? 'positive' : 'distractor'}): ${FLIP_TEXT[f.kind]}`,
            },
            [
              icon(FLIP_ICON[f.kind], 'flip-icon'),
              el('span', { className: 'tag-text', text: f.tag }),
              el('span', { className: 'flip-group', text: f.group }),
              el('span', { className: 'flip-text', text: FLIP_TEXT[f.kind] }),
            ],
          ),
        ),
      )
    : el('p', {
        className: 'empty',
        text: c.original.hasResult
          ? 'No tag flipped: both picked the same pool tags.'
          : 'The run has no result to compare with.',
      });
  return el('section', { className: 'cmp-box cmp-flipped', attrs: { 'aria-label': 'Flipped tags' } }, [
    el('h3', { text: `Flipped tags (${c.flipped.length})` }),
    body,
  ]);
}

function renderDeltas(c: RerunComparison): HTMLElement {
  const head = el(
    'tr',
    {},
    ['Metric', 'Original', 'Re-run', 'Δ'].map((t) => el('th', { text: t, attrs: { scope: 'col' } })),
  );
  const rows = c.metrics.map((m) =>
    el('tr', { attrs: { 'data-metric': m.key }, title: m.tooltip }, [
      el('th', { text: m.label, attrs: { scope: 'row' } }),
      el('td', { className: 'num before', text: m.beforeText }),
      el('td', { className: 'num after', text: m.afterText }),
      el('td', {
        className: `num delta trend-${m.trend}`,
        text: m.deltaText,
        title: m.trend === 'na' ? 'undefined on one side' : m.trend,
      }),
    ]),
  );
  return el('section', { className: 'cmp-box cmp-metrics', attrs: { 'aria-label': 'Metric deltas' } }, [
    el('h3', { text: 'Metrics' }),
    el('table', { className: 'deltas' }, [el('thead', {}, [head]), el('tbody', {}, rows)]),
    c.scored ? null : el('p', { className: 'note', text: 'Not scored: T_keep and T_new are both empty.' }),
  ]);
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
          text: `Re-run #${a.id} failed: no usable reply after ${c.tries} of 3 tries`,
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
  const orig = c.original;
  const re = c.rerun;
  const side = (s: SideModel): 'original' | 'rerun' => (s === orig ? 'original' : 'rerun');
  const received = (s: SideModel) =>
    prose(s.personaIn ?? '', 'None: the prompt had the cold-start text.', '', pi[fieldKey.cmp(side(s), 'personaIn')]);
  const grid = el('div', { className: 'cmp-grid' }, [
    el('div', { className: 'cmp-col-head', attrs: { 'data-side': 'original' } }, [
      el('h3', {}, [icon('file'), ` Original · ${c.originalRun ?? 'no run selected'}`]),
    ]),
    el('div', { className: 'cmp-col-head', attrs: { 'data-side': 'rerun' } }, [
      el('h3', {}, [icon('debug-rerun'), ` Re-run #${a.id}`]),
      el('p', {
        className: 'cmp-meta',
        text: `${templateLabel(a)} · persona ${MODE_TEXT[a.personaMode]} · ${a.model} · ${when(a.createdAt)}`,
      }),
    ]),
    ...(
      [
        ['Picks', (s: SideModel, o: string) => picks(s, o)],
        ['Persona received', (s: SideModel) => received(s)],
        [
          'Persona written',
          (s: SideModel) => prose(s.personaWritten, 'None written.', '', pi[fieldKey.cmp(side(s), 'personaWritten')]),
        ],
        [
          'Reasoning',
          (s: SideModel) =>
            prose(
              s.reasoning,
              'No reasoning.',
              s.reasoning.startsWith('Error:') ? 'warn' : '',
              pi[fieldKey.cmp(side(s), 'reasoning')],
            ),
        ],
      ] as [string, (s: SideModel, other: string) => Child][]
    ).flatMap(([label, render]) => [
      el('div', { className: 'cmp-cell', attrs: { 'data-side': 'original', 'data-row': label } }, [
        el('h4', { text: label }),
        render(orig, 'the re-run'),
      ]),
      el('div', { className: 'cmp-cell', attrs: { 'data-side': 'rerun', 'data-row': label } }, [
        el('h4', { text: label }),
        render(re, 'the original'),
      ]),
    ]),
  ]);
  const diff = c.personaDiff
    ? el(
        'p',
        { className: 'prose diff' },
        c.personaDiff.map((d, i) => {
          const nodes = piNodes(d.text, pi[fieldKey.cmpDiff(i)]);
          return d.kind === 'same'
            ? el('span', {}, nodes)
            : el(d.kind === 'added' ? 'ins' : 'del', { className: `diff-${d.kind}` }, nodes);
        }),
      )
    : el('p', { className: 'empty', text: 'Nothing to compare: one of the two wrote no persona.' });
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
  return el('div', { className: 'cmp', attrs: { 'data-attempt': String(a.id) } }, [
    el('div', { className: 'cmp-summary' }, [renderFlipped(c), renderDeltas(c), details]),
    grid,
    el('section', { className: 'cmp-box cmp-persona-diff' }, [
      el('h3', {}, [
        'Persona written: original → re-run ',
        el('span', { className: 'diff-legend' }, [
          el('ins', { className: 'diff-added', text: 'added' }),
          ' ',
          el('del', { className: 'diff-removed', text: 'removed' }),
        ]),
      ]),
      diff,
    ]),
  ]);
}

export function rerunDescription(state: RerunState): string {
  if (state.running) return 'running…';
  const c = state.selected;
  if (!c) {
    if (state.attempts.length) return `${state.attempts.length} attempts`;
    return state.endpoint ? `no re-runs yet · ${state.endpoint}` : 'no re-runs yet · no endpoint set';
  }
  if (c.attempt.error !== null) return `#${c.attempt.id} failed · ${c.attempt.templateName || c.attempt.templateId}`;
  const r = c.metrics.find((m) => m.key === 'Recall');
  return `#${c.attempt.id} · ${c.attempt.templateName || c.attempt.templateId} · persona ${c.attempt.personaMode}${r ? ` · R ${r.beforeText} → ${r.afterText}` : ''}`;
}

export function renderRerunBody(state: RerunState, model: StepModel, h: RerunHandlers): Child[] {
  const recall = model.metrics.find((m) => m.key === 'Recall')?.value ?? null;
  const busy = state.running !== null;
  const toolbar = el('div', { className: 'rerun-toolbar' }, [
    button('Re-run Step…', 'debug-rerun', () => h.command('rerunStep'), { 'data-command': 'rerunStep' }, false),
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
    if (!['previewPrompt', 'configureEndpoint'].includes(b.getAttribute('data-command') ?? ''))
      (b as HTMLElement & { disabled: boolean }).disabled = busy;
  return [
    toolbar,
    busy
      ? el('p', { className: 'rerun-running', attrs: { role: 'status' } }, [
          icon('loading', 'codicon-modifier-spin'),
          ` ${state.running}`,
        ])
      : null,
    state.historyProblem ? el('p', { className: 'note warn', text: `History: ${state.historyProblem}` }) : null,
    state.selected ? renderComparison(state.selected, h, state.pi) : null,
    state.attempts.length ? renderAttempts(state, recall, h) : null,
    state.ablation ? renderAblation(state.ablation, model.ref.stepId) : null,
    !state.selected && !state.attempts.length && !state.ablation && !busy
      ? el('p', {
          className: 'note',
          text: 'Re-run this step with another template or persona: the result appears here beside the original, and every attempt is kept.',
        })
      : null,
  ];
}
