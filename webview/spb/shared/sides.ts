// Two answers to one step side by side, drawn from the core's SidesCompared pieces (src/core/spb/view/sides.ts): pick
// chips with their flips, the flipped tags, the metric deltas, the two columns row by row, the persona diff. The step
// view's re-run comparison and the compare view's pair both use these. Styles: sides.css. Text only.
import { fieldKey, type PiMark } from '../../../src/core/pi/spans';
import type { FlipKind, FlippedTag, MetricDelta, PickChip, SideModel } from '../../../src/core/spb/view/sides';
import type { DiffPart } from '../../../src/core/spb/view/stepModel';
import { el, icon, type Child } from '../../shared/dom';
import { piNodes, piText } from '../../shared/piText';
import { noPersona } from '../../../src/core/glossary';

export const FLIP_TEXT: Record<FlipKind, string> = {
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

/** One side's picks; `other` names the side the "new" / "dropped" badges compare with. */
export function picks(s: SideModel, other: string, noResult: string): Child {
  if (!s.hasResult) return el('p', { className: 'empty', text: noResult });
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

export function prose(text: string, empty: string, cls = '', marks?: readonly PiMark[]): HTMLElement {
  if (text) return piText('p', `prose ${cls}`.trim(), text, marks);
  return el('p', { className: `prose ${cls} empty`.replace(/\s+/g, ' ').trim(), text: empty });
}

/** The flipped tags; `none` says why the list is empty. */
export function flippedBox(flipped: readonly FlippedTag[], none: string): HTMLElement {
  const body = flipped.length
    ? el(
        'ul',
        { className: 'flips' },
        flipped.map((f) =>
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
    : el('p', { className: 'empty', text: none });
  return el('section', { className: 'cmp-box cmp-flipped', attrs: { 'aria-label': 'Flipped tags' } }, [
    el('h3', { text: `Flipped tags (${flipped.length})` }),
    body,
  ]);
}

/** The metric deltas, `heads` naming the two sides' columns. */
export function deltasBox(metrics: readonly MetricDelta[], heads: [string, string], scored: boolean): HTMLElement {
  const head = el(
    'tr',
    {},
    ['Metric', ...heads, 'Δ'].map((t) => el('th', { text: t, attrs: { scope: 'col' } })),
  );
  const rows = metrics.map((m) =>
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
    scored ? null : el('p', { className: 'note', text: 'Not scored: T_keep and T_new are both empty.' }),
  ]);
}

export interface SideColumn {
  /** the data-side value of its cells */
  key: string;
  head: Child[];
  model: SideModel;
  /** names the other side, for the "new" / "dropped" note */
  other: string;
}

export type SideRow = [label: string, render: (col: SideColumn) => Child];

/** The two sides, row by row so that their cells line up; the second side is the one compared. */
export function sideGrid(cols: [SideColumn, SideColumn], rows: readonly SideRow[]): HTMLElement {
  const cls = (i: number) => (i === 1 ? ' side-after' : '');
  return el('div', { className: 'cmp-grid' }, [
    ...cols.map((c, i) => el('div', { className: `cmp-col-head${cls(i)}`, attrs: { 'data-side': c.key } }, c.head)),
    ...rows.flatMap(([label, render]) =>
      cols.map((c, i) =>
        el('div', { className: `cmp-cell${cls(i)}`, attrs: { 'data-side': c.key, 'data-row': label } }, [
          el('h4', { text: label }),
          render(c),
        ]),
      ),
    ),
  ]);
}

/**
 * The rows both comparisons show, with each side's PI marks under its `key`: picks, the persona received, the persona
 * written and the reasoning.
 */
export function sideRows(pi: Readonly<Record<string, PiMark[]>>): SideRow[] {
  const marks = (c: SideColumn, field: 'personaIn' | 'personaWritten' | 'reasoning') => pi[fieldKey.cmp(c.key, field)];
  return [
    ['Picks', (c) => picks(c.model, c.other, 'The run has no result for this step.')],
    [
      'Persona received',
      (c) => prose(c.model.personaIn ?? '', noPersona('the prompt had the cold-start text'), '', marks(c, 'personaIn')),
    ],
    ['Persona written', (c) => prose(c.model.personaWritten, 'None written.', '', marks(c, 'personaWritten'))],
    [
      'Reasoning',
      (c) =>
        prose(
          c.model.reasoning,
          'No reasoning.',
          c.model.reasoning.startsWith('Error:') ? 'warn' : '',
          marks(c, 'reasoning'),
        ),
    ],
  ];
}

/** The word diff of the written personas, or why there is none. */
export function personaDiffBox(
  diff: readonly DiffPart[] | null,
  title: string,
  marks: (part: number) => readonly PiMark[] | undefined,
): HTMLElement {
  const body = diff
    ? el(
        'p',
        { className: 'prose diff' },
        diff.map((d, i) => {
          const nodes = piNodes(d.text, marks(i));
          return d.kind === 'same'
            ? el('span', {}, nodes)
            : el(d.kind === 'added' ? 'ins' : 'del', { className: `diff-${d.kind}` }, nodes);
        }),
      )
    : el('p', { className: 'empty', text: 'Nothing to compare: one of the two wrote no persona.' });
  return el('section', { className: 'cmp-box cmp-persona-diff' }, [
    el('h3', {}, [
      `${title} `,
      el('span', { className: 'diff-legend' }, [
        el('ins', { className: 'diff-added', text: 'added' }),
        ' ',
        el('del', { className: 'diff-removed', text: 'removed' }),
      ]),
    ]),
    body,
  ]);
}
