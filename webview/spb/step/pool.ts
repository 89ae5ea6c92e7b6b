// The candidate pool section of the step view: tags grouped by meta list, marked hit / missed / wrong pick.
import type { TagMemory } from '../../../src/core/spb/score/tagMemory';
import type { PoolGroup, PoolTag, StepModel, TagMark } from '../../../src/core/spb/view/stepModel';
import { EMPTY_PI, fieldKey, type PiMark, type StepPiMarks } from '../../../src/core/pi/spans';
import { el, icon, type Child } from '../../shared/dom';
import { piNodes } from '../../shared/piText';

const MARKS: Record<TagMark, { icon: string; text: string; help: string }> = {
  hit: { icon: 'pass-filled', text: 'hit', help: 'positive, picked by the model' },
  missed: { icon: 'circle-slash', text: 'missed', help: 'positive, not picked' },
  wrongPick: { icon: 'error', text: 'wrong pick', help: 'distractor, picked by the model' },
  avoided: { icon: 'circle-small', text: 'not picked', help: 'distractor, not picked' },
  none: { icon: 'circle-small', text: 'no result', help: 'the run has no result for this step' },
};

/** Persona memory of a missed T_keep tag or a D_decay pick: our reading (docs/scoring.md), said so in every title. */
const MEMORY: Record<TagMemory['kind'], { text: string; help: string }> = {
  forgotten: { text: 'forgotten', help: 'in a persona the model wrote earlier, but not in the one it received' },
  ignored: { text: 'ignored', help: 'in the persona the model received, yet not picked' },
  neverCaptured: { text: 'never captured', help: 'in no persona the model wrote before this step' },
  carriedOver: { text: 'carried over', help: 'in the persona the model received: kept from the past' },
  reInferred: { text: 're-inferred', help: 'not in the persona the model received: inferred again from the posts' },
};
const MEMORY_NOTE = "persona memory, Persona Lab's reading of the written personas, not the paper's";

function memoryPart(m: TagMemory, goToStep: (stepId: number) => void): HTMLElement {
  const { text, help } = MEMORY[m.kind];
  const title = `${text}: ${help} (${MEMORY_NOTE})`;
  if (m.droppedAt === undefined) return el('span', { className: `memory memory-${m.kind}`, text, title });
  const stepId = m.droppedAt;
  const link = el('a', {
    className: `memory memory-${m.kind}`,
    text: `${text} at step ${stepId}`,
    title: `${title}. The persona written at step ${stepId} dropped it: click to open step ${stepId}.`,
    attrs: { href: '#', role: 'button', 'data-step': String(stepId) },
  });
  link.addEventListener('click', (e) => {
    e.preventDefault();
    goToStep(stepId);
  });
  return link;
}

/** A group's count as a counter badge: a plain span (step.css), not a custom element with a shadow root to build for
 *  each of the six groups in the frame that first paints a step. */
function badge(text: string, title?: string): HTMLElement {
  return el('span', { className: 'count-badge', text, title });
}

export function poolSummary(model: StepModel): string {
  const p = model.pool;
  return `|C| = ${p.size} · k = ${p.k} · ${p.picks} pick${p.picks === 1 ? '' : 's'} (${p.distinctPicks} distinct)`;
}

/** The chip's PI line: what a placeholder stands for or what the scanner found in the tag's text. */
function piLine(marks: readonly PiMark[]): string {
  const findings = marks.filter((m) => m.kind === 'finding');
  if (findings.length)
    return `\nresidual PI, not redacted: ${findings.map((m) => `${m.category} (${m.reason})`).join(', ')}`;
  return marks.length ? `\nPI placeholder: ${marks.map((m) => m.category).join(', ')}` : '';
}

function tagChip(t: PoolTag, pi: StepPiMarks, goToStep: (stepId: number) => void): HTMLElement {
  const mark = MARKS[t.mark];
  const marks = pi.fields[fieldKey.tag(t.tag)] ?? [];
  const finding = marks.some((m) => m.kind === 'finding');
  return el(
    'li',
    {
      className: `tag mark-${t.mark}${finding ? ' has-pi-finding' : ''}`,
      title: `${t.tag}\n${mark.text}: ${mark.help}${t.count > 1 ? `\npicked ${t.count} times` : ''}${piLine(marks)}`,
      attrs: {
        'data-mark': t.mark,
        ...(marks.length ? { 'data-pi': finding ? 'finding' : 'placeholder' } : {}),
        ...(t.memory ? { 'data-memory': t.memory.kind } : {}),
      },
    },
    [
      icon(mark.icon, 'mark-icon'),
      el('span', { className: 'tag-text' }, piNodes(t.tag, marks)),
      el('span', { className: 'mark-text', text: mark.text }),
      t.memory ? memoryPart(t.memory, goToStep) : null,
      t.count > 1 ? el('span', { className: 'dup', text: `×${t.count}` }) : null,
    ],
  );
}

function groupBox(g: PoolGroup, pi: StepPiMarks, goToStep: (stepId: number) => void): HTMLElement {
  return el(
    'section',
    {
      className: `group ${g.positive ? 'positive' : 'negative'}`,
      attrs: { 'data-group': g.cls, 'data-meta-key': g.metaKey },
    },
    [
      el('h3', { className: 'group-title', title: g.tooltip }, [
        icon(g.positive ? 'star-full' : 'circle-slash', 'group-icon'),
        el('span', { className: 'group-label', text: g.label }),
        el('span', { className: 'group-kind', text: g.positive ? 'positive' : 'distractor' }),
        badge(`${g.picked}/${g.tags.length}`, `${g.picked} of ${g.tags.length} picked`),
      ]),
      g.tags.length
        ? el(
            'ul',
            { className: 'tags' },
            g.tags.map((t) => tagChip(t, pi, goToStep)),
          )
        : el('p', { className: 'empty', text: 'empty' }),
    ],
  );
}

function listBox(
  kind: string,
  title: string,
  help: string,
  items: string[],
  pi: StepPiMarks = EMPTY_PI,
): HTMLElement | null {
  if (items.length === 0) return null;
  return el('section', { className: `extra extra-${kind}`, attrs: { 'data-extra': kind } }, [
    el('h3', { title: help }, [icon('warning'), ` ${title}`]),
    el(
      'ul',
      {},
      items.map((t) => el('li', {}, piNodes(t, pi.fields[fieldKey.tag(t)]))),
    ),
  ]);
}

export function renderPool(model: StepModel, pi: StepPiMarks, goToStep: (stepId: number) => void): Child[] {
  const p = model.pool;
  const legend = el(
    'p',
    { className: 'legend' },
    (['hit', 'missed', 'wrongPick', 'avoided'] as const).map((m) =>
      el('span', { className: `legend-item mark-${m}`, title: MARKS[m].help }, [
        icon(MARKS[m].icon, 'mark-icon'),
        ` ${MARKS[m].text}`,
      ]),
    ),
  );
  return [
    legend,
    el(
      'div',
      { className: 'groups' },
      p.groups.map((g) => groupBox(g, pi, goToStep)),
    ),
    listBox(
      'outOfPool',
      'Picks outside the pool',
      'Predicted tags that are not in the candidate pool: never matched by the scorer.',
      p.outOfPool,
      pi,
    ),
    listBox(
      'duplicates',
      'Duplicate picks',
      'Tags the prediction lists more than once: they count once.',
      p.duplicates.map((d) => `${d.tag} ×${d.count}`),
    ),
    listBox('nonStrings', 'Picks that are not strings', 'Never matched by the scorer.', p.nonStrings),
    listBox(
      'invariants',
      'Task file invariants',
      'The six meta lists should be disjoint, cover the pool, and |C+| / |C| should be 25 %.',
      p.invariants,
    ),
  ];
}
