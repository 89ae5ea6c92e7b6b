// A virtualised list: only the rows in (and near) the viewport exist in the DOM, so 15,000 steps scroll smoothly.
// Fixed row height; rows are placed through the CSSOM (allowed by the CSP, unlike style attributes). Keyboard: the
// list is one tab stop (role listbox); arrows, Page Up/Down, Home/End move the active row, Enter opens it.
// Items come from an array (setItems) or from a lazy source (setSource) whose rows arrive later: onRange asks for
// the rows about to show, renderPending draws the ones not there yet, and refresh() redraws when they arrive.
import { el } from './dom';

export interface VirtualListOptions<T> {
  rowHeight: number;
  /** the viewport's largest height in pixels */
  maxHeight: number;
  label: string;
  key(item: T): string;
  /** fills a row element (already positioned and labelled) */
  render(item: T, index: number, row: HTMLElement): void;
  onOpen(item: T, index: number): void;
  /** lazy sources: the rows [first, last) are about to show */
  onRange?(first: number, last: number): void;
  /** lazy sources: fills a row whose item has not arrived */
  renderPending?(index: number, row: HTMLElement): void;
}

let lists = 0;

export class VirtualList<T> {
  readonly element: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly id = `vlist-${++lists}`;
  private count = 0;
  private get: (i: number) => T | undefined = () => undefined;
  private active = -1;
  private frame = 0;
  private readonly overscan = 8;

  constructor(private readonly opts: VirtualListOptions<T>) {
    this.spacer = el('div', { className: 'vlist-spacer' });
    this.element = el(
      'div',
      { className: 'vlist', attrs: { role: 'listbox', tabindex: '0', 'aria-label': opts.label } },
      [this.spacer],
    );
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('click', (e) => {
      const row = (e.target as Element | null)?.closest<HTMLElement>('.vrow');
      const i = row ? Number(row.dataset.index) : NaN;
      const item = Number.isInteger(i) ? this.get(i) : undefined;
      if (item !== undefined) {
        this.setActive(i);
        this.opts.onOpen(item, i);
      }
    });
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.element.addEventListener('focus', () => {
      if (this.active < 0 && this.count) this.setActive(0);
    });
  }

  setItems(items: readonly T[]): void {
    this.setSource(items.length, (i) => items[i]);
  }

  /** A list of `count` rows whose items `get` returns once they are there (undefined before). */
  setSource(count: number, get: (i: number) => T | undefined): void {
    this.count = count;
    this.get = get;
    this.active = count ? Math.min(Math.max(this.active, 0), count - 1) : -1;
    this.spacer.style.height = `${count * this.opts.rowHeight}px`;
    this.element.style.height = `${Math.min(this.opts.maxHeight, Math.max(1, count) * this.opts.rowHeight + 2)}px`;
    this.element.setAttribute('aria-rowcount', String(count));
    this.element.scrollTop = 0;
    this.render();
  }

  /** Redraws the rows shown (after items of a lazy source arrived), keeping the scroll position. */
  refresh(): void {
    this.render();
  }

  /** Makes row `i` the active one and scrolls it into view. */
  reveal(i: number): void {
    if (i >= 0 && i < this.count) this.setActive(i);
  }

  get length(): number {
    return this.count;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const h = this.opts.rowHeight;
    const viewport = this.element.clientHeight || this.opts.maxHeight;
    const first = Math.max(0, Math.floor(this.element.scrollTop / h) - this.overscan);
    const last = Math.min(this.count, Math.ceil((this.element.scrollTop + viewport) / h) + this.overscan);
    this.opts.onRange?.(first, last);
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const item = this.get(i);
      const row = el('div', {
        className: `vrow${i === this.active ? ' active' : ''}${i % 2 ? ' odd' : ''}`,
        attrs: {
          role: 'option',
          id: `${this.id}-${i}`,
          'data-index': String(i),
          'data-key': item === undefined ? '' : this.opts.key(item),
          'aria-posinset': String(i + 1),
          'aria-setsize': String(this.count),
          'aria-selected': String(i === this.active),
        },
      });
      row.style.top = `${i * h}px`;
      row.style.height = `${h}px`;
      if (item !== undefined) this.opts.render(item, i, row);
      else this.opts.renderPending?.(i, row);
      rows.push(row);
    }
    this.spacer.replaceChildren(...rows);
    if (this.active >= 0) this.element.setAttribute('aria-activedescendant', `${this.id}-${this.active}`);
    else this.element.removeAttribute('aria-activedescendant');
  }

  private setActive(i: number): void {
    this.active = i;
    const h = this.opts.rowHeight;
    const top = i * h;
    const view = this.element.clientHeight;
    if (top < this.element.scrollTop) this.element.scrollTop = top;
    else if (top + h > this.element.scrollTop + view) this.element.scrollTop = top + h - view;
    this.render();
  }

  private onKey(e: KeyboardEvent): void {
    const n = this.count;
    if (!n) return;
    const page = Math.max(1, Math.floor(this.element.clientHeight / this.opts.rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: this.active + 1,
      ArrowUp: this.active - 1,
      PageDown: this.active + page,
      PageUp: this.active - page,
      Home: 0,
      End: n - 1,
    };
    if (e.key in moves) {
      e.preventDefault();
      this.setActive(Math.min(n - 1, Math.max(0, moves[e.key])));
    } else if (e.key === 'Enter' && this.active >= 0) {
      e.preventDefault();
      const item = this.get(this.active);
      if (item !== undefined) this.opts.onOpen(item, this.active);
    }
  }
}
