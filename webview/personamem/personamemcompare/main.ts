// The PersonaMem compare page: run B against run A on the questions both answered. A table of each run's accuracy,
// B − A and its paired 95 % interval over personas, overall and per question type; then the questions whose answer
// changed, each opening the question view. Text only, from `show`; the figures' strings are the core's.
import {
  PM_CHANGE_TEXT,
  pmChangeCountsText,
  pmCompareScopeText,
  pmCompareTexts,
  type PmCompareRow,
  type PmComparison,
  type PmDiffering,
} from '../../../src/core/personamem/compare';
import { SKILL_HEADS } from '../../../src/core/personamem/types';
import { isExtensionToWebview, type WebviewToExtension } from '../../../src/shared/personamem/compareProtocol';
import { compareActions, compareCell, differenceCells, startComparePage, tableHead } from '../../shared/compare';
import { el, type Child } from '../../shared/dom';
import css from './personamemcompare.css';

type Post = (msg: WebviewToExtension) => void;

/** Differing questions listed at most (the rest are counted). */
const LISTED = 1000;

function summaryRow(r: PmCompareRow): HTMLElement {
  const t = pmCompareTexts(r);
  return el('tr', { attrs: { 'data-slice': r.slice } }, [
    el('th', { text: r.head, attrs: { scope: 'row' } }),
    compareCell('a', t.a),
    compareCell('b', t.b),
    ...differenceCells(t, r.diff),
    compareCell('personas', `${r.units} (${r.win} / ${r.tie} / ${r.loss})`),
    compareCell('questions', String(r.items)),
  ]);
}

function summaryTable(m: PmComparison): HTMLElement {
  const heads: [string, string][] = [
    ['', ''],
    [`A: ${m.runA}`, 'accuracy of run A on the paired questions, %'],
    [`B: ${m.runB}`, 'accuracy of run B on the paired questions, %'],
    ['Δ (pp)', 'B − A in percentage points'],
    ['95 % CI', 'paired percentile bootstrap interval of Δ, resampling personas'],
    ['Personas (W / T / L)', 'personas with a paired question; B right on more / as many / fewer of their questions'],
    ['Questions', 'questions both runs answered'],
  ];
  return el('table', { className: 'cmp summary', attrs: { 'data-table': 'summary' } }, [
    tableHead(heads),
    el('tbody', {}, [summaryRow(m.overall), ...m.byType.map(summaryRow)]),
  ]);
}

function differingRow(d: PmDiffering, post: Post): HTMLElement {
  const open = el('button', { className: 'question link', text: d.questionId, title: 'Open in the question view' });
  open.addEventListener('click', () => post({ type: 'openQuestion', questionId: d.questionId }));
  const letter = (x: string | null) => (x === null ? 'none read' : `(${x})`);
  return el('tr', { attrs: { 'data-question': d.questionId, 'data-change': d.change } }, [
    el('td', { className: 'text' }, [open]),
    el('td', { className: 'text', text: d.personaId }),
    el('td', { className: 'text', text: SKILL_HEADS[d.skill] ?? d.skill }),
    el('td', { className: 'text', text: d.topic }),
    el('td', { text: letter(d.pickA), attrs: { 'data-col': 'pickA' } }),
    el('td', { text: letter(d.pickB), attrs: { 'data-col': 'pickB' } }),
    el('td', { text: d.correctAnswer }),
    el('td', { className: 'text change', text: PM_CHANGE_TEXT[d.change] }),
  ]);
}

function differingSection(m: PmComparison, post: Post): HTMLElement {
  const listed = m.differing.slice(0, LISTED);
  return el('section', { className: 'differing', attrs: { 'data-count': String(m.differing.length) } }, [
    el('h2', { text: `Questions where the runs differ (${m.differing.length})` }),
    el('p', { className: 'note', text: `${pmChangeCountsText(m)}. A question opens in the question view.` }),
    m.differing.length === 0
      ? el('p', { className: 'note', text: 'The runs give the same answer to every paired question.' })
      : el('table', { className: 'cmp differing-table' }, [
          el('thead', {}, [
            el(
              'tr',
              {},
              ['Question', 'Persona', 'Type', 'Topic', 'A picked', 'B picked', 'Answer', 'Change'].map((h, i) =>
                el('th', { text: h, className: i < 4 || i === 7 ? 'text' : '' }),
              ),
            ),
          ]),
          el(
            'tbody',
            {},
            listed.map((d) => differingRow(d, post)),
          ),
        ]),
    m.differing.length > LISTED
      ? el('p', { className: 'note', text: `The first ${LISTED} are listed; losses come first.` })
      : '',
  ]);
}

function render(m: PmComparison, post: Post): Child[] {
  return [
    el('h1', { text: `Compare: ${m.runB} against ${m.runA}` }),
    el('p', {
      className: 'note scope',
      text: pmCompareScopeText(m),
    }),
    compareActions(post),
    summaryTable(m),
    el('p', {
      className: 'note method',
      text:
        `Accuracy: right answers over the paired questions, by the authors' answer reading. Δ: B − A. ` +
        `95 % CI: percentile bootstrap, ${m.overall.resamples} resamples of personas (a persona's questions share ` +
        `one history), seed ${m.overall.seed}; coloured when it leaves 0 out.`,
    }),
    differingSection(m, post),
  ];
}

startComparePage({ rootId: 'pmcompare-root', css, accepts: isExtensionToWebview, render });
