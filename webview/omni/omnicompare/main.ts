// The OmniBehavior compare page: run B against run A on the answers both runs gave and can score. What is compared
// and what is left out; a table of each run's figures, B − A and its paired 95 % interval over users, for the overall
// and per question kind (its components, then its fields); then the answers whose outcome changed, each opening its
// test action in the trace view. Text only, from `show`; the figures' strings are the core's.
import {
  omniChangeCountsText,
  omniChangeText,
  OMNI_KIND_HEADS,
  omniCompareScopeText,
  omniFewerResamplesText,
  omniCompareTexts,
  type OmniChange,
  type OmniChanged,
  type OmniCompareRow,
  type OmniComparison,
} from '../../../src/core/omni/compare';
import { isExtensionToWebview, type WebviewToExtension } from '../../../src/shared/omni/compareProtocol';
import { compareActions, compareCell, differenceCells, startComparePage, tableHead } from '../../shared/compare';
import { el, type Child } from '../../shared/dom';
import css from './omnicompare.css';

type Post = (msg: WebviewToExtension) => void;

/** Changed answers listed at most (the rest are counted). */
const LISTED = 1000;

const BETTER: Record<OmniChange, boolean> = {
  lost: false,
  worse: false,
  outB: false,
  gained: true,
  better: true,
  outA: true,
};

function summaryRow(r: OmniCompareRow): HTMLElement {
  const t = omniCompareTexts(r);
  const users = `${r.units} (${r.win} / ${r.tie} / ${r.loss})${r.undecided ? ` · ${r.undecided} undecided` : ''}`;
  return el('tr', { attrs: { 'data-slice': r.slice, 'data-level': r.level } }, [
    el('th', { text: r.head, attrs: { scope: 'row' } }),
    el('td', { className: 'text', text: r.measure, attrs: { 'data-col': 'measure' } }),
    compareCell('a', t.a),
    compareCell('b', t.b),
    ...differenceCells(t, r.diff, r.lowerIsBetter),
    compareCell('users', users),
    compareCell('answers', String(r.answers)),
  ]);
}

function summaryTable(m: OmniComparison): HTMLElement {
  const heads: [string, string][] = [
    ['', ''],
    ['Figure', 'what the row measures'],
    [`A: ${m.runA}`, 'run A on the paired answers'],
    [`B: ${m.runB}`, 'run B on the paired answers'],
    ['Δ', 'B − A, in the figure’s own unit'],
    ['95 % CI', 'paired percentile bootstrap interval of Δ, resampling users'],
    [
      'Users (W / T / L)',
      'users with a paired answer in the row; on each user’s own figure, B better / equal / worse (undecided: the figure is undefined for that user)',
    ],
    ['Answers', 'answers both runs gave that the row scores'],
  ];
  const body: HTMLElement[] = [];
  let kind = '';
  for (const r of m.rows) {
    if (r.kind !== 'mixed' && r.kind !== kind) {
      kind = r.kind;
      body.push(
        el('tr', { className: 'kind' }, [el('th', { text: OMNI_KIND_HEADS[r.kind], attrs: { colspan: '8' } })]),
      );
    }
    body.push(summaryRow(r));
  }
  return el('table', { className: 'cmp summary', attrs: { 'data-table': 'summary' } }, [
    tableHead(heads),
    el('tbody', {}, body),
  ]);
}

function valueCell(col: string, text: string): HTMLElement {
  return el('td', { className: 'value', text: text === '' ? '—' : text, title: text, attrs: { 'data-col': col } });
}

function changedRow(c: OmniChanged, post: Post): HTMLElement {
  const name = `${c.userId} #${c.index}`;
  const open = el('button', { className: 'action link', text: name, title: 'Open in the trace view' });
  open.addEventListener('click', () => post({ type: 'openAction', userId: c.userId, index: c.index }));
  return el(
    'tr',
    {
      attrs: {
        'data-action': name,
        'data-field': c.field,
        'data-change': c.change,
        'data-better': String(BETTER[c.change]),
      },
    },
    [
      el('td', { className: 'text' }, [open]),
      el('td', { className: 'text', text: c.scene }),
      el('td', { className: 'text', text: c.field }),
      valueCell('truth', c.truth),
      valueCell('a', c.a),
      valueCell('b', c.b),
      el('td', { className: 'text change', text: omniChangeText(c) }),
    ],
  );
}

function changedSection(m: OmniComparison, post: Post): HTMLElement {
  return el('section', { className: 'changed', attrs: { 'data-count': String(m.changed.length) } }, [
    el('h2', { text: `Answers whose outcome changed (${m.changed.length})` }),
    el('p', {
      className: 'note',
      text: `${omniChangeCountsText(m)}. A test action opens in the trace view, with the selected run's answers.`,
    }),
    m.changed.length === 0
      ? el('p', { className: 'note', text: 'The runs score the same on every paired answer.' })
      : el('table', { className: 'cmp changed-table' }, [
          tableHead(['Test action', 'Scene', 'Field', 'Truth', 'A', 'B', 'Change'].map((h) => [h, ''] as const)),
          el(
            'tbody',
            {},
            m.changed.slice(0, LISTED).map((c) => changedRow(c, post)),
          ),
        ]),
    m.changed.length > LISTED
      ? el('p', { className: 'note', text: `The first ${LISTED} are listed; losses come first.` })
      : '',
  ]);
}

function render(m: OmniComparison, post: Post): Child[] {
  return [
    el('h1', { text: `Compare: ${m.runB} against ${m.runA}` }),
    el('p', { className: 'note scope', text: omniCompareScopeText(m) }),
    compareActions(post),
    summaryTable(m),
    el('p', {
      className: 'note method',
      text:
        `Each figure is the run's score (F1 per binary field and its scene's mean, NMAE, the judge's mean, exact ` +
        `match), over the answers both runs gave and can score only. Δ: B − A; a lower NMAE is better. 95 % CI: ` +
        `percentile bootstrap, ${m.rows[0]?.resamples ?? 0} resamples of users (a user's test actions share one ` +
        `history), seed ${m.rows[0]?.seed ?? 0}; coloured when it leaves 0 out; none over one user.` +
        omniFewerResamplesText(m),
    }),
    changedSection(m, post),
  ];
}

startComparePage({ rootId: 'omnicompare-root', css, accepts: isExtensionToWebview, render });
