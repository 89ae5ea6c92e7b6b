// Persona memory beside Table 5 (our reading of the written personas, not the paper's figure): per shown run, the
// shares of its missed T_keep tags that were forgotten, ignored or never captured, and of its D_decay picks that were
// carried over or re-inferred, each with its count.
import type { DashboardMemory, DashboardModel } from '../../../src/shared/spb/dashboardProtocol';
import { el, help, pct } from './dom';

const COLUMNS: { key: keyof DashboardMemory; head: string; of?: 'missedTKeep' | 'dDecayPicks'; help: string }[] = [
  { key: 'missedTKeep', head: 'missed T_keep', help: 'T_keep tags not picked, at steps n ≥ 2' },
  {
    key: 'forgotten',
    head: 'forgotten',
    of: 'missedTKeep',
    help: 'in an earlier written persona, not the received one',
  },
  { key: 'ignored', head: 'ignored', of: 'missedTKeep', help: 'in the persona the model received' },
  { key: 'neverCaptured', head: 'never captured', of: 'missedTKeep', help: 'in no persona written before' },
  { key: 'dDecayPicks', head: 'D_decay picks', help: 'D_decay tags picked, at steps n ≥ 2' },
  { key: 'carriedOver', head: 'carried over', of: 'dDecayPicks', help: 'in the persona the model received' },
  { key: 'reInferred', head: 're-inferred', of: 'dDecayPicks', help: 'not in the persona the model received' },
];

function cell(m: DashboardMemory, c: (typeof COLUMNS)[number]): string {
  const n = m[c.key];
  if (!c.of) return String(n);
  const whole = m[c.of];
  return whole > 0 ? `${pct(n / whole, 1)} % (${n})` : '—';
}

export function memoryTable(m: DashboardModel): HTMLElement | null {
  const runs = m.selected.filter((run) => m.memory[run] && m.memory[run].steps > 0);
  if (runs.length === 0) return null;
  const head = el('tr', {}, [
    el('th', { text: 'Run', attrs: { scope: 'col', class: 'run-col' } }),
    ...COLUMNS.map((c) => el('th', { text: c.head, title: c.help, attrs: { scope: 'col' } })),
    el('th', { text: 'steps', title: 'steps n ≥ 2 classified', attrs: { scope: 'col' } }),
  ]);
  const rows = runs.map((run) => {
    const mem = m.memory[run];
    return el('tr', { attrs: { 'data-run': run } }, [
      el('th', { text: run, attrs: { scope: 'row', class: 'run-col' } }),
      ...COLUMNS.map((c) =>
        el('td', { attrs: { 'data-col': c.key } }, [el('span', { className: 'num', text: cell(mem, c) })]),
      ),
      el('td', { attrs: { 'data-col': 'steps' } }, [el('span', { className: 'num', text: String(mem.steps) })]),
    ]);
  });
  return el('section', { className: 'card table-card memory-card', attrs: { 'data-table': 'memory' } }, [
    el('div', { className: 'card-head' }, [
      el('h3', { text: "Persona memory (Persona Lab's reading of the written personas, not the paper's figure)" }),
      help(
        'Why a step missed a T_keep tag or picked a D_decay one: was the tag in the persona the model received (the last one written before the step), or in an earlier one? Pooled over the platforms; failed requests and step 1 are left out. Shares: of the missed T_keep tags, and of the D_decay picks; the count in brackets. The definitions: docs/scoring.md.',
      ),
    ]),
    el('div', { className: 'table-scroll' }, [
      el('table', { className: 'paper' }, [el('thead', {}, [head]), el('tbody', {}, rows)]),
    ]),
  ]);
}
