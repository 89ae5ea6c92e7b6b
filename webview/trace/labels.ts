// Labelling in the trace view: a labels bar in the sticky header whose number keys toggle a label on the target: the
// whole test action, or the history record last opened (a click on its timeline row, or a PI finding's record).
// Esc goes back to the test action; u (or Ctrl+Z) undoes. The extension stores each action and sends the new state.
import type { LabelTarget } from '../../src/core/labels/model';
import { describeTarget, sameTarget, type AppliedLabel, type LabelChip } from '../../src/core/labels/view';
import type { TraceLabelAction, TraceLabelState, TraceLabelTarget, TraceRef } from '../../src/shared/traceProtocol';
import { el } from '../shared/dom';
import { isPageKey, isUndoChord } from '../shared/keys';
import { appliedItem, keyHelp, keyRange, labelChip } from '../shared/labelChips';

const STALE_HELP = 'stale: the record (or the test action, its profile or fields) changed since this label was made';
const refKey = (r: TraceRef) => `${r.userId}#${r.index}`;

export class TraceLabelsUi {
  private state: TraceLabelState | undefined;
  /** The history record the keys label; null: the test action. */
  private selected: number | null = null;
  private shown: TraceRef | undefined;
  /** Called with the labelled history records after each state (the timeline marks their rows). */
  onHistory: (state: TraceLabelState) => void = () => undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: (action: TraceLabelAction) => void,
  ) {
    window.addEventListener('keydown', (e) => this.onKeydown(e));
  }

  /** After each `show`: a new header, and the target goes back to the test action. */
  attach(ref: TraceRef): void {
    if (!this.shown || refKey(this.shown) !== refKey(ref)) this.selected = null;
    this.shown = ref;
    this.render();
    if (this.current) this.onHistory(this.current);
  }

  update(state: TraceLabelState): void {
    this.state = state;
    this.render();
    if (this.current) this.onHistory(this.current);
  }

  /** A history record was opened: the keys now label it. */
  select(index: number): void {
    if (!this.shown || index >= this.shown.index) return;
    this.selected = index;
    this.render();
  }

  private get current(): TraceLabelState | undefined {
    const s = this.state;
    return s && this.shown && refKey(s.ref) === refKey(this.shown) ? s : undefined;
  }

  private get target(): TraceLabelTarget {
    return this.selected === null ? { kind: 'action' } : { kind: 'history', historyIndex: this.selected };
  }

  private applied(target: LabelTarget): AppliedLabel[] {
    return this.current?.applied.filter((a) => sameTarget(a.target, target)) ?? [];
  }

  private toggle(labelId: string): void {
    const state = this.current;
    if (!state || state.error) return;
    this.post({ kind: 'toggle', ref: state.ref, labelId, target: this.target });
  }

  private chip(c: LabelChip, state: TraceLabelState): HTMLElement {
    const on = this.applied(this.target).find((a) => a.labelId === c.id);
    const stale = on?.staleness === 'stale';
    const help = [
      `${c.name}: ${c.description}`,
      c.key ? `Key ${c.key} toggles it on ${describeTarget(this.target)}.` : 'No key: click to toggle.',
      stale ? STALE_HELP : '',
    ]
      .filter(Boolean)
      .join('\n');
    return labelChip(c, { applied: !!on, stale, suggested: false, disabled: state.error !== null, help }, () =>
      this.toggle(c.id),
    );
  }

  private render(): void {
    const header = this.root.querySelector('.trace-header');
    if (!header) return;
    const old = header.querySelector('.labels-bar');
    const state = this.current;
    if (!state) {
      old?.remove();
      return;
    }
    const back = el('button', {
      className: 'link-button',
      text: 'whole test action (Esc)',
      attrs: { type: 'button', tabindex: '-1' },
    });
    back.addEventListener('click', () => {
      this.selected = null;
      this.render();
    });
    const listed = state.applied.filter(
      (a) => a.target.kind === 'history' || a.staleness === 'stale' || a.note || !a.known,
    );
    const bar = el(
      'section',
      {
        className: 'labels-bar',
        attrs: {
          'aria-label': 'Labels',
          'data-run': state.run,
          'data-target': this.selected === null ? 'action' : String(this.selected),
        },
      },
      [
        el('div', { className: 'labels-row' }, [
          el('span', { className: 'labels-title', text: 'Labels' }),
          el('span', { className: 'labels-target' }, [
            'on ',
            el('b', { text: describeTarget(this.target) }),
            this.selected !== null ? ' · ' : null,
            this.selected !== null ? back : null,
          ]),
          ...state.labels.map((c) => this.chip(c, state)),
        ]),
        state.error ? el('p', { className: 'labels-error', text: `Labelling is unavailable: ${state.error}` }) : null,
        state.labelSetNote ? el('p', { className: 'labels-error', text: state.labelSetNote }) : null,
        listed.length
          ? el('div', { className: 'labels-line applied-list' }, [
              el('span', { className: 'line-title', text: 'Yours:' }),
              ...listed.map(appliedEntry),
            ])
          : null,
        state.flash
          ? el('p', {
              className: `labels-flash ${state.flash.kind}`,
              text: state.flash.text,
              attrs: { role: 'status' },
            })
          : null,
        el('div', { className: 'labels-help' }, [
          keyHelp(keyRange(state.labels), 'toggle'),
          keyHelp('u', 'undo'),
          keyHelp('Esc', 'test action'),
          el('span', { text: 'open a history row first to label that record' }),
        ]),
      ],
    );
    if (old) old.replaceWith(bar);
    else header.appendChild(bar);
  }

  private onKeydown(e: KeyboardEvent): void {
    if (!isPageKey(e) || !this.current) return;
    if (isUndoChord(e)) {
      e.preventDefault();
      this.post({ kind: 'undo' });
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'u') {
      e.preventDefault();
      this.post({ kind: 'undo' });
      return;
    }
    if (e.key === 'Escape' && this.selected !== null) {
      e.preventDefault();
      this.selected = null;
      this.render();
      return;
    }
    const def = this.current.labels.find((l) => l.key === e.key);
    if (def) {
      e.preventDefault();
      this.toggle(def.id);
    }
  }
}

function appliedEntry(a: AppliedLabel): HTMLElement {
  const dataTarget = a.target.kind === 'history' ? String(a.target.historyIndex) : 'action';
  return appliedItem(a, describeTarget(a.target), dataTarget, STALE_HELP);
}
