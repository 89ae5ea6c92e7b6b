// A virtualised list: only the rows in (and near) the viewport exist in the DOM, so 15,000 steps scroll smoothly.
// Fixed row height; rows are placed through the CSSOM (allowed by the CSP, unlike style attributes). Keyboard: the
// list is one tab stop (role listbox); arrows, Page Up/Down, Home/End move the active row, Enter opens it.
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
}

let lists = 0;

export class VirtualList<T> {
  readonly element: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly id = `vlist-${++lists}`;
  private items: readonly T[] = [];
  private active = -1;
  private frame = 0;
  private readonly overscan = 8;

  constructor(private readonly opts: VirtualListOptions<T>) {
    this.spacer = el('div', { className: 'vlist-spacer' });
    this.element = el('div', { className: 'vlist', attrs: { role: 'listbox', tabindex: '0', 'aria-label': opts.label } }, [this.spacer]);
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('click', (e) => {
      const row = (e.target as Element | null)?.closest<HTMLElement>('.vrow');
      const i = row ? Number(row.dataset.index) : NaN;
      if (Number.isInteger(i) && this.items[i] !== undefined) {
        this.setActive(i);
        this.opts.onOpen(this.items[i], i);
      }
    });
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    this.element.addEventListener('focus', () => {
      if (this.active < 0 && this.items.length) this.setActive(0);
    });
  }

  setItems(items: readonly T[]): void {
    this.items = items;
    this.active = items.length ? Math.min(Math.max(this.active, 0), items.length - 1) : -1;
    this.spacer.style.height = `${items.length * this.opts.rowHeight}px`;
    this.element.style.height = `${Math.min(this.opts.maxHeight, Math.max(1, items.length) * this.opts.rowHeight + 2)}px`;
    this.element.setAttribute('aria-rowcount', String(items.length));
    this.element.scrollTop = 0;
    this.render();
  }

  get length(): number {
    return this.items.length;
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
    const last = Math.min(this.items.length, Math.ceil((this.element.scrollTop + viewport) / h) + this.overscan);
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const row = el('div', {
        className: `vrow${i === this.active ? ' active' : ''}${i % 2 ? ' odd' : ''}`,
        attrs: {
          role: 'option',
          id: `${this.id}-${i}`,
          'data-index': String(i),
          'data-key': this.opts.key(this.items[i]),
          'aria-posinset': String(i + 1),
          'aria-setsize': String(this.items.length),
          'aria-selected': String(i === this.active),
        },
      });
      row.style.top = `${i * h}px`;
      row.style.height = `${h}px`;
      this.opts.render(this.items[i], i, row);
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
    const n = this.items.length;
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
      this.opts.onOpen(this.items[this.active], this.active);
    }
  }
}
