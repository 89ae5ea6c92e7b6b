// Scoring the selected run's predicted utterance on the judge's four dimensions, beside the judge's own scores.
// S starts scoring with the keys: 1–9 and 0 (= 10) score the dimension outlined and move to the next, ← → (or Tab)
// move, Backspace clears, Esc stops; a click on a number does the same for its row, a click on the pressed one clears
// it. The extension stores each score (one undoable action, like a label) and sends the state back.
import { DIMENSION_NAMES } from '../../../src/core/omni/judgeAgreementText';
import type { TraceLabelAction, TraceRef, TraceScoreState } from '../../../src/shared/omni/traceProtocol';
import { el } from '../../shared/dom';
import { isPlainKey } from '../../shared/keys';
import { keyHelp } from '../../shared/labelChips';

export const SCORE_KEY = 's';

/** Who scored the Judge column: the model the run recorded, or why there is none. */
function judgeText(s: TraceScoreState): string {
  if (s.judgeModel) return `judge: ${s.judgeModel}`;
  return s.dimensions.some((d) => d.judge !== null)
    ? 'judge: the run does not name the judge model'
    : 'not judged yet (Persona Lab: Judge Run…)';
}

export class ScoresUi {
  readonly element = el('div', { className: 'scores' });
  private state: TraceScoreState | null = null;
  private ref: TraceRef | undefined;
  /** The dimension the number keys score (its position), or null outside scoring. */
  private active: number | null = null;

  constructor(private readonly post: (action: TraceLabelAction) => void) {
    // Capture: while scoring, the number keys are scores, not the labels bar's keys.
    window.addEventListener('keydown', (e) => this.onKeydown(e), { capture: true });
  }

  update(ref: TraceRef, state: TraceScoreState | null): void {
    const same = this.ref?.userId === ref.userId && this.ref.index === ref.index && this.state?.run === state?.run;
    if (!same || !state) this.active = null;
    this.ref = ref;
    this.state = state;
    this.render();
  }

  private set(position: number, score: number | null): void {
    const d = this.state?.dimensions[position];
    if (!d || !this.ref) return;
    this.post({ kind: 'score', ref: this.ref, dimension: d.dimension, score });
  }

  private render(): void {
    const s = this.state;
    this.element.dataset.scoring = this.active === null ? 'false' : 'true';
    if (!s) {
      this.element.replaceChildren(
        el('p', {
          className: 'note',
          text: 'No utterance to score: the selected run has no predicted next_user_message here.',
        }),
      );
      return;
    }
    const rows = s.dimensions.map((d, i) => {
      const buttons = Array.from({ length: 10 }, (_, k) => {
        const n = k + 1;
        const b = el('button', {
          className: 'score',
          text: String(n),
          title: d.mine === n ? `Clear your ${DIMENSION_NAMES[d.dimension]} score` : `Score ${n} of 10`,
          attrs: { type: 'button', 'aria-pressed': String(d.mine === n), 'data-score': String(n) },
        });
        b.addEventListener('click', () => this.set(i, d.mine === n ? null : n));
        return b;
      });
      return el(
        'tr',
        {
          attrs: { 'data-dimension': d.dimension, 'data-mine': d.mine === null ? '' : String(d.mine) },
          className: this.active === i ? 'active' : '',
        },
        [
          el('th', { text: DIMENSION_NAMES[d.dimension], attrs: { scope: 'row' } }),
          el('td', { className: 'judge', text: d.judge === null ? '—' : String(d.judge) }),
          el('td', { className: 'buttons' }, buttons),
          el('td', {
            className: 'stale',
            text: d.stale ? '⚠ you scored an earlier answer' : '',
            title: d.stale ? 'The run was made again since: score this answer again to count it' : '',
          }),
        ],
      );
    });
    this.element.replaceChildren(
      el('p', { className: 'scored-utterance' }, [
        el('span', { className: 'caption', text: `Run ${s.run} said: ` }),
        el('span', { className: 'scored-text', text: s.utterance }),
      ]),
      el('table', { className: 'score-table' }, [
        el('thead', {}, [
          el('tr', {}, [
            el('th', { text: 'Dimension', attrs: { scope: 'col' } }),
            el('th', {
              text: 'Judge',
              attrs: { scope: 'col' },
              title: judgeText(s),
            }),
            el('th', { text: 'You (1–10)', attrs: { scope: 'col' } }),
            el('th', { text: '', attrs: { scope: 'col' } }),
          ]),
        ]),
        el('tbody', {}, rows),
      ]),
      el('p', { className: 'keys' }, [
        this.active === null
          ? keyHelp(SCORE_KEY.toUpperCase(), 'scores with the keys')
          : el('span', {}, [
              keyHelp('1–9 0', 'score (0 = 10)'),
              ' · ',
              keyHelp('← →', 'move'),
              ' · ',
              keyHelp('⌫', 'clear'),
              ' · ',
              keyHelp('Esc', 'stop'),
            ]),
        el('span', { className: 'note', text: ` · ${judgeText(s)}` }),
      ]),
    );
  }

  private onKeydown(e: KeyboardEvent): void {
    if (!isPlainKey(e) || !this.state) return;
    const n = this.state.dimensions.length;
    const stop = () => {
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    if (this.active === null) {
      if (e.key.toLowerCase() !== SCORE_KEY || e.repeat) return;
      stop();
      const first = this.state.dimensions.findIndex((d) => d.mine === null);
      this.active = first < 0 ? 0 : first;
      this.render();
      this.element.scrollIntoView({ block: 'nearest' });
      return;
    }
    if (/^[0-9]$/.test(e.key)) {
      stop();
      this.set(this.active, e.key === '0' ? 10 : Number(e.key));
      this.active = this.active + 1 < n ? this.active + 1 : null;
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowDown' || (e.key === 'Tab' && !e.shiftKey)) {
      stop();
      this.active = (this.active + 1) % n;
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp' || (e.key === 'Tab' && e.shiftKey)) {
      stop();
      this.active = (this.active + n - 1) % n;
    } else if (e.key === 'Backspace' || e.key === 'Delete') {
      stop();
      this.set(this.active, null);
    } else if (e.key === 'Escape' || e.key.toLowerCase() === SCORE_KEY) {
      stop();
      this.active = null;
    } else return;
    this.render();
  }
}
