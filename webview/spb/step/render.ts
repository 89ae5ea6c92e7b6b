// Renders a StepModel into DOM nodes. Every dataset string is set as text (see dom.ts).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { EMPTY_PI, fieldKey, type StepPiMarks } from '../../../src/core/pi/spans';
import { glossaryTerm, NO_PERSONA, noPersona } from '../../../src/core/glossary';
import type { MetricCell, StepModel } from '../../../src/core/spb/view/stepModel';
import {
  NAV_DIRECTIONS,
  NAV_LABELS,
  type NavDirection,
  type NavState,
  type StepCommand,
} from '../../../src/shared/spb/stepViewProtocol';
import { el, icon, type Child } from '../../shared/dom';
import { section, type SectionState } from '../../shared/sections';
import { piNodes, piText } from '../../shared/piText';
import { renderPiLegend } from './pi';
import { poolSummary, renderPool } from './pool';
import type { RerunHandlers } from './rerun';

export interface Handlers extends RerunHandlers, SectionState {
  navigate(direction: NavDirection): void;
  openSource(which: 'tasks' | 'result'): void;
  /** Show another step of this user. */
  goToStep(stepId: number): void;
}

/** `pinnedRun`: the run a pinned panel shows (no re-run part there), null in the main step view. */
export function renderStep(
  model: StepModel,
  nav: NavState,
  h: Handlers,
  pi: StepPiMarks = EMPTY_PI,
  pinnedRun: string | null = null,
): HTMLElement[] {
  // The re-run part first, in one place (collapsed until it has something to show: its attempts, the selected one
  // compared with the original, the running one with its Cancel); then the posts beside the pool and the persona
  // (one column when the view is narrow), then the reasoning.
  const rerunSlot =
    pinnedRun === null
      ? // Filled by the `rerun` message that follows each `show` (main.ts).
        el('div', { className: 'rerun-slot' })
      : el('p', {
          className: 'note pinned-note',
          text: `This view always shows run ${pinnedRun}. Re-runs and “next unlabelled” are in the main step view (a click in the Benchmarks tree), which follows the selected run.`,
        });
  const content = el('div', { className: 'content-grid' }, [
    rerunSlot,
    section(
      'batch',
      'Batch',
      `${model.posts.length} post${model.posts.length === 1 ? '' : 's'} · ${model.header.dateInput}`,
      renderPosts(model, pi),
      h,
    ),
    section(
      'pool',
      'Candidate pool',
      poolSummary(model),
      renderPool(model, pi, (stepId) => h.goToStep(stepId)),
      h,
    ),
    section('persona', 'Persona', personaSummary(model), renderPersona(model, pi), h),
    section('reasoning', 'Reasoning', model.hasResult ? '' : 'no result', [renderReasoning(model, pi)], h),
  ]);
  return [renderHeader(model, nav, h, pi, pinnedRun), renderMetrics(model, h), renderPiLegend(pi), content].filter(
    (e): e is HTMLElement => e !== null,
  );
}

function renderHeader(
  model: StepModel,
  nav: NavState,
  h: Handlers,
  pi: StepPiMarks,
  pinnedRun: string | null,
): HTMLElement {
  const hd = model.header;
  const buttons = NAV_DIRECTIONS.map((d) => {
    const info = NAV_LABELS[d];
    // Icon buttons: their names are in the tooltip and the accessible name, so the header stays on one line.
    const b = el('vscode-button', {
      title: `${info.label} (${info.keys})`,
      attrs: { 'data-nav': d, 'aria-label': info.label },
    });
    b.icon = info.icon;
    b.secondary = true;
    b.disabled = !nav[d];
    b.addEventListener('click', () => h.navigate(d));
    return b;
  });
  const source = (which: 'tasks' | 'result', label: string, title: string) => {
    // An icon: the words are its tooltip and its accessible name.
    const b = el('vscode-button', {
      title: `${label}: ${title}`,
      attrs: { 'data-source': which, 'aria-label': label },
    });
    b.icon = which === 'tasks' ? 'go-to-file' : 'output';
    b.secondary = true;
    b.addEventListener('click', () => h.openSource(which));
    return b;
  };
  const navigation = navRow(model, buttons, h, pinnedRun, source);
  return el('header', { className: 'page-header step-header' }, [
    el('div', { className: 'title-row' }, [
      el('span', { className: 'platform', text: hd.platform, title: 'Platform' }),
      el('h1', { className: 'user-id', text: hd.userId, title: 'User id' }),
      el('span', { className: 'username', text: hd.username, title: 'Username (pseudonym)' }),
      el('span', {
        className: 'step-of',
        text: `step ${hd.stepId} / ${hd.totalSteps}`,
        title: 'Streaming step n / total steps',
      }),
      el('span', {
        className: 'user-of',
        text: `user ${hd.userIndex} / ${hd.userCount}`,
        title: `Position of this user among the ${hd.platform} users, in file order`,
      }),
      navigation,
    ]),
    el('div', { className: 'meta-row' }, [
      el('span', { title: 'date_input: date of the input batch B_n' }, [icon('calendar'), ` input ${hd.dateInput}`]),
      el('span', { title: 'date_target: date of the future window whose tags are the ground truth' }, [
        icon('target'),
        ` target ${hd.dateTarget}`,
      ]),
      pinnedRun === null
        ? el('span', { className: 'run', title: 'The run whose prediction is shown (Persona Lab: Choose Run…)' }, [
            icon('beaker'),
            ` run ${model.run ?? 'none'}`,
          ])
        : el(
            'span',
            {
              className: 'run pinned',
              title: 'This view is pinned to this run (opened for it, e.g. side by side from Compare)',
            },
            [icon('pinned'), ` run ${pinnedRun}`],
          ),
      !model.hasResult && model.run
        ? el('span', { className: 'warn', text: 'no result for this step in this run' })
        : null,
      hd.bio
        ? piText('span', 'bio', hd.bio, pi.fields[fieldKey.bio], `Bio (PI-masked): ${hd.bio}`)
        : el('span', { className: 'bio empty', text: 'No bio.', title: 'Bio (PI-masked)' }),
    ]),
  ]);
}

function navRow(
  model: StepModel,
  buttons: HTMLElement[],
  h: Handlers,
  pinnedRun: string | null,
  source: (which: 'tasks' | 'result', label: string, title: string) => HTMLElement,
): HTMLElement {
  return el('nav', { className: 'nav-row', attrs: { 'aria-label': 'Step navigation' } }, [
    ...buttons,
    el('span', { className: 'spacer' }),
    pinnedRun === null
      ? commandButton(
          h,
          'editPrompt',
          'Edit Prompt',
          'edit',
          "Open this step's request as a draft beside the view; Ctrl+Enter in it re-runs the step (key e)",
        )
      : null,
    pinnedRun === null
      ? commandButton(
          h,
          'rerunStep',
          'Re-run…',
          'debug-rerun',
          'Re-run this step with a template and persona of your choice (Persona Lab: Re-run Step…)',
        )
      : null,
    source('tasks', 'Tasks line', glossaryTerm('Tasks line')?.definition ?? ''),
    model.hasResult ? source('result', 'Result line', glossaryTerm('Result line')?.definition ?? '') : null,
  ]);
}

function commandButton(h: Handlers, command: StepCommand, text: string, iconName: string, title: string): HTMLElement {
  const b = el('vscode-button', { text, title, attrs: { 'data-command': command } });
  b.icon = iconName;
  b.addEventListener('click', () => h.command(command));
  return b;
}

/** The figures a person reads first; the error rates and the diagnostics under Details. */
const HEADLINE: readonly string[] = ['Recall', 'Recall_Stability', 'Recall_Novelty'];

function metricCell(m: MetricCell): HTMLElement {
  return el(
    'div',
    {
      className: `metric metric-${m.group}`,
      title: m.tooltip,
      attrs: {
        'data-metric': m.key,
        tabindex: '0',
        role: 'group',
        'aria-label': `${m.label} ${m.text}. ${m.tooltip}`,
      },
    },
    [el('span', { className: 'metric-label', text: m.label }), el('span', { className: 'metric-value', text: m.text })],
  );
}

function renderMetrics(model: StepModel, h: SectionState): HTMLElement {
  const groups: [string, MetricCell['group']][] = [
    ['Errors', 'error'],
    ['Diagnostics', 'diagnostic'],
  ];
  const note = !model.hasResult
    ? 'Not scored: the run has no result for this step.'
    : !model.scored
      ? 'Not scored: T_keep and T_new are both empty (metrics null).'
      : '';
  const details = el('details', { className: 'metric-details' }, [
    el('summary', { text: 'Details', title: 'The four error rates and the step’s diagnostics (K, δ, B, α, ρ)' }),
    ...groups.map(([name, g]) =>
      el('div', { className: 'metric-group' }, [
        el('span', { className: 'metric-group-name', text: name }),
        ...model.metrics.filter((m) => m.group === g).map(metricCell),
      ]),
    ),
  ]);
  details.open = h.isOpen('metricDetails', false);
  details.addEventListener('toggle', () => h.setOpen('metricDetails', details.open));
  return el('section', { className: 'metrics', attrs: { 'aria-label': 'Metrics' } }, [
    el(
      'div',
      { className: 'metric-group metric-headline' },
      HEADLINE.flatMap((key) => model.metrics.filter((m) => m.key === key)).map(metricCell),
    ),
    details,
    note ? el('p', { className: 'note', text: note }) : null,
    model.storedMismatch.length
      ? el('p', {
          className: 'warn',
          text: `Stored metrics differ from the recomputed ones: ${model.storedMismatch.join('; ')}`,
        })
      : null,
  ]);
}

function personaSummary(model: StepModel): string {
  const p = model.persona;
  if (!model.hasResult) return 'no result';
  if (p.diff === null) return NO_PERSONA;
  return `+${p.added} / −${p.removed} words`;
}

function renderPersona(model: StepModel, pi: StepPiMarks): Child[] {
  const p = model.persona;
  const receivedTitle = p.receivedFrom !== null ? `Received (written at step ${p.receivedFrom})` : 'Received';
  const textBox = (cls: string, title: string, text: string, empty: string, key: string) =>
    el('div', { className: `persona-box ${cls}` }, [
      el('h3', { text: title }),
      text ? piText('p', 'prose', text, pi.fields[key]) : el('p', { className: 'prose empty', text: empty }),
    ]);
  const diff = p.diff
    ? el(
        'p',
        { className: 'prose diff', attrs: { 'aria-label': 'Word diff, received to written' } },
        p.diff.map((d, i) => {
          const nodes = piNodes(d.text, pi.fields[fieldKey.diff(i)]);
          return d.kind === 'same'
            ? el('span', {}, nodes)
            : el(
                d.kind === 'added' ? 'ins' : 'del',
                { className: `diff-${d.kind}`, title: d.kind === 'added' ? 'added' : 'removed' },
                nodes,
              );
        }),
      )
    : el('p', {
        className: 'prose empty',
        text: model.hasResult
          ? noPersona('none written at this step: the next step receives the one this step received')
          : 'The run has no result for this step.',
      });
  return [
    el('div', { className: 'persona-diff' }, [
      el('h3', {}, [
        'Diff, received → written ',
        el('span', { className: 'diff-legend' }, [
          el('ins', { className: 'diff-added', text: 'added' }),
          ' ',
          el('del', { className: 'diff-removed', text: 'removed' }),
        ]),
      ]),
      diff,
    ]),
    el('div', { className: 'persona-cols' }, [
      textBox(
        'received',
        receivedTitle,
        p.received,
        noPersona(model.header.stepId === 1 ? 'cold start, step 1' : 'no earlier step wrote one'),
        fieldKey.personaReceived,
      ),
      textBox('written', 'Written', p.written, noPersona('none written at this step'), fieldKey.personaWritten),
    ]),
  ];
}

function renderReasoning(model: StepModel, pi: StepPiMarks): HTMLElement {
  const text = model.reasoning;
  const error = text.startsWith('Error:');
  if (text) return piText('p', `prose reasoning${error ? ' warn' : ''}`, text, pi.fields[fieldKey.reasoning]);
  return el('p', {
    className: 'prose reasoning empty',
    text: model.hasResult ? 'No reasoning.' : 'The run has no result for this step.',
  });
}

function renderPosts(model: StepModel, pi: StepPiMarks): Child[] {
  if (!model.postsOk && model.postsRaw.trim() === '')
    return [el('p', { className: 'note posts-empty', text: 'No posts: posts_text is empty in the tasks file.' })];
  if (!model.postsOk) {
    return [
      el('p', { className: 'note', text: 'posts_text did not split into [n] posts; shown as is.' }),
      piText('pre', 'raw', model.postsRaw, pi.fields[fieldKey.postsRaw]),
    ];
  }
  return [
    el(
      'div',
      { className: 'posts' },
      model.posts.map((p, i) =>
        el('article', { className: 'post', attrs: { 'data-post': String(p.index) } }, [
          el('span', { className: 'post-index', text: `[${p.index}]` }),
          ...p.fields.map((f, j) =>
            el('p', { className: 'post-field' }, [
              el('span', { className: 'field-label', text: `${f.label}: ` }),
              piText('span', '', f.value, pi.fields[fieldKey.postField(i, j)]),
            ]),
          ),
          p.content ? piText('p', 'post-content prose', p.content, pi.fields[fieldKey.postContent(i)]) : null,
          p.tags.length
            ? el(
                'ul',
                { className: 'post-tags' },
                p.tags.map((t) =>
                  el(
                    'li',
                    {
                      className: t.inPool ? 'post-tag in-pool' : 'post-tag',
                      title: t.inPool ? `also in the pool as ${t.inPool}` : 'not in the pool',
                    },
                    [
                      el('span', { className: 'tag-text', text: t.tag }),
                      t.inPool ? el('span', { className: 'in-pool-label', text: t.inPool }) : null,
                    ],
                  ),
                ),
              )
            : null,
        ]),
      ),
    ),
  ];
}
