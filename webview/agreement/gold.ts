// The Label Agreement's gold part, per benchmark: how many units are settled (adjudicated, or unanimous between two
// or more annotators), still open or by one annotator; why each run fails, counted from gold only (a column per run:
// each label's count and share of the run's settled units with a failure label); and each annotator against gold.
// Every text (labels, authors, runs) is set as text only.
import { NO_GOLD_TEXT, type GoldTables } from '../../src/shared/agreementProtocol';
import { el } from '../shared/dom';
import { whyRunsFailTable } from '../shared/whyRunsFail';

const th = (text: string, className = '', title?: string) =>
  el('th', { className, text, title, attrs: { scope: 'col' } });

function annotatorsTable(g: GoldTables): HTMLElement {
  return el('table', { className: 'against-gold' }, [
    el('thead', {}, [
      el('tr', {}, [
        th('Annotator'),
        th('Label'),
        th('n', 'num', 'Settled units the annotator labelled'),
        th('adjud.', 'num', 'Of them, adjudicated (a unanimous unit agrees with each of its annotators)'),
        th('precision', 'num'),
        th('recall', 'num'),
        th('κ', 'num'),
        th('95 % interval', 'num', 'Bootstrap over the settled units'),
      ]),
    ]),
    el(
      'tbody',
      {},
      g.annotators.flatMap((a) =>
        a.rows.map((f, i) => {
          const tr = el('tr', { className: i === 0 ? 'overall' : '' }, [
            el('td', { text: i === 0 ? a.author : '' }),
            el('td', { text: f.name }),
            el('td', { className: 'num', text: i === 0 ? String(a.units) : '' }),
            el('td', { className: 'num', text: i === 0 ? String(a.adjudicated) : '' }),
            el('td', { className: 'num', text: f.precision }),
            el('td', { className: 'num', text: f.recall }),
            el('td', { className: 'num', text: f.kappa }),
            el('td', { className: 'num', text: f.interval }),
          ]);
          tr.dataset.author = a.author;
          tr.dataset.label = f.label;
          return tr;
        }),
      ),
    ),
  ]);
}

/**
 * The gold section of the page: one block per benchmark with gold, or why there is none (`reading`: the label
 * server's decisions have not answered yet, so no count would be true).
 */
export function goldSection(gold: readonly GoldTables[], error: string | null, reading: string | null): HTMLElement {
  const blocks = gold.map((g) => {
    const s = el('div', { className: 'gold-benchmark' }, [
      el('h3', { text: g.benchmark }),
      el('p', { className: 'gold-counts', text: g.countsText }),
      el('h4', { text: 'Why runs fail (gold labels, settled units only)' }),
      whyRunsFailTable(g.whyRunsFail),
      g.annotators.length > 0 && el('h4', { text: 'Each annotator against gold' }),
      g.annotators.length > 0 && annotatorsTable(g),
    ]);
    s.dataset.benchmark = g.benchmark;
    return s;
  });
  return el('section', { className: 'gold' }, [
    el('h2', { text: 'Gold' }),
    error && el('p', { className: 'error', attrs: { role: 'alert' }, text: `The decisions cannot be read: ${error}` }),
    ...(reading
      ? [el('p', { className: 'reading', attrs: { role: 'status' }, text: reading })]
      : blocks.length > 0
        ? blocks
        : [
            el('p', {
              className: 'empty',
              text: NO_GOLD_TEXT,
            }),
          ]),
  ]);
}
