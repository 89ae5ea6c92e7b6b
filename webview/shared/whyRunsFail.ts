// "Why runs fail": each run's gold labels counted per label, a column per run (a label's count and its share of the
// run's settled units with a failure label), with the settled units each share is of. The Label Agreement's gold part
// shows the table per benchmark; every run dashboard mounts the section (mountWhyRunsFail), which keeps its place
// when the page is drawn again and says what it covers, or why it has no table. Every text is set as text only.
import type { WhyRunsFailSection, WhyRunsFailTable } from '../../src/shared/whyRunsFailProtocol';
import { append, el } from './dom';

const th = (text: string, className = '') => el('th', { className, text, attrs: { scope: 'col' } });

export function whyRunsFailTable(t: WhyRunsFailTable): HTMLElement {
  if (t.runs.every((r) => r.settled === 0))
    return el('p', { className: 'empty', text: 'No unit of a run is settled yet: no run has gold labels to count.' });
  return el('table', { className: 'why-runs-fail' }, [
    el('thead', {}, [
      el('tr', {}, [th('Label'), ...t.runs.map((r) => th(r.run, 'num'))]),
      el('tr', { className: 'settled' }, [
        el('th', { text: 'failing of settled', attrs: { scope: 'row' } }),
        ...t.runs.map((r) => {
          const cell = el('td', { className: 'num', text: `${r.failing} of ${r.settled}` });
          if (r.leftOut > 0)
            cell.title = `${r.leftOut} of the run's ${r.units} labelled units are not settled: left out`;
          cell.dataset.run = r.run;
          return cell;
        }),
      ]),
    ]),
    el(
      'tbody',
      {},
      t.labels.map((l, i) =>
        el('tr', { attrs: { 'data-label': l.label } }, [
          el('th', { text: l.name, attrs: { scope: 'row' } }),
          ...t.runs.map((r) => {
            const c = r.cells[i];
            return el('td', { className: 'num', text: c.count > 0 ? `${c.count} (${c.share})` : '0' });
          }),
        ]),
      ),
    ),
  ]);
}

/** The dashboards' section: one element that a page puts back in place each time it draws, and fills on `update`. */
export function mountWhyRunsFail(): { element: HTMLElement; update(s: WhyRunsFailSection): void } {
  const element = el('section', { className: 'why-runs-fail-section', attrs: { 'aria-label': 'Why runs fail' } });
  const update = (s: WhyRunsFailSection) => {
    element.dataset.state = s.state;
    element.replaceChildren();
    append(element, [
      el('h2', { text: 'Why runs fail (gold labels)' }),
      el('p', { className: 'covers note', text: s.covers }),
      s.settled && el('p', { className: 'settled-note note', text: s.settled }),
      s.message && el('p', { className: 'empty note', text: s.message }),
      s.table && whyRunsFailTable(s.table),
    ]);
  };
  element.dataset.state = 'waiting';
  return { element, update };
}
