// What the model saw, as a virtualised list: one row per message of the history (index, session, role, the first
// words), session openings marked; rows arrive from the extension host in windows of ROWS_WINDOW as the list
// scrolls, and a row opened shows its whole message below the list.
import {
  ROWS_WINDOW,
  type PmHistoryRow,
  type WebviewToExtension,
} from '../../../src/shared/personamem/questionProtocol';
import { el, icon } from '../../shared/dom';
import { VirtualList } from '../../shared/vlist';

const ROW_HEIGHT = 24;

export class HistoryUi {
  readonly element: HTMLElement;
  private readonly rows = new Map<number, PmHistoryRow>();
  private readonly asked = new Set<number>();
  private readonly list: VirtualList<PmHistoryRow>;
  private readonly detail: HTMLElement;
  private opened: number | undefined;
  /** messages with PI Audit findings (pi.ts): their rows carry a shield */
  private flagged = new Set<number>();
  /** Called when a message's whole text is shown (pi.ts marks its findings there). */
  onShown: ((index: number) => void) | undefined;

  constructor(
    private readonly generation: number,
    private readonly count: number,
    private readonly post: (msg: WebviewToExtension) => void,
  ) {
    this.list = new VirtualList<PmHistoryRow>({
      rowHeight: ROW_HEIGHT,
      maxHeight: 480,
      label: 'History the model saw',
      key: (r) => String(r.index),
      render: (r, _i, row) => this.renderRow(r, row),
      renderPending: (_i, row) => row.append(el('span', { className: 'pending', text: 'loading…' })),
      onRange: (first, last) => this.ask(first, last),
      onOpen: (r) => this.open(r.index),
    });
    this.detail = el('pre', { className: 'message-detail prose', attrs: { hidden: '' } });
    this.element = el('div', { className: 'history', attrs: { 'data-count': String(count) } }, [
      el('div', { className: 'vrow head' }, [
        el('span', { text: '#' }),
        el('span', { text: 'session' }),
        el('span', { text: 'role' }),
        el('span', { text: 'message' }),
      ]),
      this.list.element,
      this.detail,
    ]);
    this.list.setSource(count, (i) => this.rows.get(i));
  }

  /** Asks for the windows of [first, last) not asked for yet. */
  private ask(first: number, last: number): void {
    for (let w = Math.floor(first / ROWS_WINDOW); w * ROWS_WINDOW < last; w++) {
      if (this.asked.has(w)) continue;
      this.asked.add(w);
      const from = w * ROWS_WINDOW;
      this.post({ type: 'rows', generation: this.generation, from, to: Math.min(this.count, from + ROWS_WINDOW) });
    }
  }

  onRows(generation: number, rows: readonly PmHistoryRow[]): void {
    if (generation !== this.generation) return;
    for (const r of rows) this.rows.set(r.index, r);
    this.list.refresh();
  }

  setFlagged(indices: readonly number[]): void {
    this.flagged = new Set(indices);
    this.list.refresh();
  }

  /** Scrolls to message `index` and opens it. */
  reveal(index: number): void {
    this.list.reveal(index);
    this.open(index);
  }

  private renderRow(r: PmHistoryRow, row: HTMLElement): void {
    if (r.opens) row.classList.add('opens');
    if (this.flagged.has(r.index)) row.classList.add('pi-flagged');
    if (r.index === this.opened) row.classList.add('opened');
    row.classList.add(`role-${r.role.replace(/[^a-z]/gi, '')}`);
    row.append(
      el('span', { className: 'idx' }, [this.flagged.has(r.index) ? icon('shield', 'pi-flag') : null, `#${r.index}`]),
      el('span', { className: 'session', text: r.opens ? `▸ session ${r.session}` : `session ${r.session}` }),
      el('span', { className: 'role', text: r.role }),
      el('span', { className: 'summary', text: r.summary, title: r.summary }),
    );
  }

  private open(index: number): void {
    this.opened = index;
    this.list.refresh();
    this.post({ type: 'message', generation: this.generation, index });
  }

  onMessage(generation: number, index: number, role: string, text: string): void {
    if (generation !== this.generation || index !== this.opened) return;
    this.detail.removeAttribute('hidden');
    this.detail.dataset.index = String(index);
    this.detail.textContent = `#${index} ${role}\n\n${text}`;
    this.onShown?.(index);
  }
}
