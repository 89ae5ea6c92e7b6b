// The step view's Re-run tables: the attempts of this step and the persona ablation, with the attempt labels
// (persona mode, time, template) the side-by-side comparison shares.
import type { AblationTable } from '../../../src/core/spb/rerun/ablation';
import type { AttemptSummary } from '../../../src/core/spb/rerun/attemptCompare';
import type { RerunState, StepCommand } from '../../../src/shared/spb/stepViewProtocol';
import { elideMiddle } from '../../../src/core/elide';
import { el } from '../../shared/dom';

/** What the Re-run section's buttons call (the step page's handlers). */
export interface RerunHandlers {
  command(command: StepCommand): void;
  selectAttempt(id: number): void;
  openAttempt(id: number, which: 'request' | 'raw'): void;
  retryAttempt(id: number): void;
  cancelRerun(): void;
}

export const MODE_TEXT: Record<AttemptSummary['personaMode'], string> = {
  carried: 'carried',
  none: 'none (cold start)',
  edited: 'edited',
  chain: 'chain run',
};

export function when(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function pp(d: number | null): string {
  if (d === null) return '—';
  if (Math.abs(d) < 1e-12) return '±0.0 pp';
  return `${d > 0 ? '+' : '−'}${Math.abs(d * 100).toFixed(1)} pp`;
}

function trendOf(d: number | null): string {
  return d === null ? 'na' : Math.abs(d) < 1e-12 ? 'same' : d > 0 ? 'better' : 'worse';
}

/** The attempts table's columns: the attempt's number, its figures, then what made it. */
export const ATTEMPT_COLUMNS = ['#', 'R', 'ΔR', 'Persona', 'Template', 'Model', 'When', 'Latency', 'Tokens'];
/** A template or model name longer than this is cut in its middle (whole in the tooltip). */
const TEMPLATE_CELL_CHARS = 28;

export function templateLabel(a: AttemptSummary): string {
  return a.templateName ? `${a.templateName} (${a.templateId})` : a.templateId;
}

export function renderAttempts(state: RerunState, original: number | null, h: RerunHandlers): HTMLElement {
  const selected = state.selected?.attempt.id;
  const head = el(
    'tr',
    {},
    // The figures first: at the width the draft leaves the view, R and ΔR must be in sight without scrolling.
    ATTEMPT_COLUMNS.map((t) => el('th', { text: t, attrs: { scope: 'col' } })),
  );
  // Oldest first, numbered 1, 2, 3 in the order they were made (the history id is in the tooltip).
  const rows = [...state.attempts].reverse().map((a) => {
    const d = a.recall !== null && original !== null ? a.recall - original : null;
    const tr = el(
      'tr',
      {
        className: a.id === selected ? 'selected' : '',
        attrs: { 'data-attempt': String(a.id), tabindex: '0', 'aria-selected': String(a.id === selected) },
        title: a.error
          ? `Error: ${a.error} (history #${a.id})`
          : `Show attempt ${a.n} beside the original (history #${a.id})`,
      },
      [
        el('td', { className: 'num', text: String(a.n) }),
        el('td', {
          className: `num${a.error ? ' warn' : ''}`,
          text: a.error ? 'error' : a.recallText,
          attrs: { 'data-col': 'R' },
        }),
        el('td', { className: `num delta trend-${trendOf(d)}`, text: pp(d), attrs: { 'data-col': 'ΔR' } }),
        el('td', { text: a.personaMode === 'chain' ? `run ${a.run}` : MODE_TEXT[a.personaMode] }),
        el('td', { className: 'name', title: templateLabel(a) }, [
          elideMiddle(templateLabel(a), TEMPLATE_CELL_CHARS),
          a.masked && el('span', { className: 'masked-mark', text: a.masked, attrs: { 'data-fact': 'masked' } }),
        ]),
        el('td', { className: 'name', text: elideMiddle(a.model, TEMPLATE_CELL_CHARS), title: a.model }),
        el('td', { text: when(a.createdAt) }),
        el('td', { className: 'num', text: `${a.latencyMs.toLocaleString('en-US')} ms` }),
        el('td', { className: 'num', text: a.totalTokens === null ? '—' : String(a.totalTokens) }),
      ],
    );
    tr.addEventListener('click', () => h.selectAttempt(a.id));
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        h.selectAttempt(a.id);
      }
    });
    return tr;
  });
  return el('section', { className: 'attempts' }, [
    el('h3', { text: `Attempts of this step (${state.attempts.length}), oldest first` }),
    el('table', { className: 'attempt-table' }, [el('thead', {}, [head]), el('tbody', {}, rows)]),
  ]);
}

export function renderAblation(t: AblationTable, stepId: number): HTMLElement {
  const head = el(
    'tr',
    {},
    ['Step', 'R, no persona', 'R, full persona', 'Δ'].map((x) => el('th', { text: x, attrs: { scope: 'col' } })),
  );
  const row = (r: AblationTable['rows'][number], label: string, cls: string) =>
    el('tr', { className: cls, attrs: { 'data-step': String(r.stepId) } }, [
      el('th', { text: label, attrs: { scope: 'row' } }),
      el('td', { className: 'num none', text: r.noneText }),
      el('td', { className: 'num full', text: r.fullText }),
      el('td', { className: `num delta trend-${trendOf(r.delta)}`, text: r.deltaText }),
    ]);
  return el('section', { className: 'ablation', attrs: { 'aria-label': 'Persona ablation' } }, [
    el('h3', { text: `Persona ablation of ${t.userId}` }),
    el('p', {
      className: 'note',
      text: `Template ${t.templateId} · ${t.model} · runs ${t.runs.none} and ${t.runs.full}`,
    }),
    el('table', { className: 'ablation-table' }, [
      el('thead', {}, [head]),
      el(
        'tbody',
        {},
        t.rows.map((r) => row(r, `step ${r.stepId}`, r.stepId === stepId ? 'current' : '')),
      ),
      el('tfoot', {}, [row(t.mean, 'user mean', 'mean')]),
    ]),
  ]);
}
