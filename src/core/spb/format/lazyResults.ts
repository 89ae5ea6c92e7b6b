// A results file's rows as the Map every reader expects, filled from the index only when a reader needs a row.
// Scoring reads the pick tables the index gave (score/table.ts) and never fills it, so that a warm open of a folder
// with many runs builds no result objects at all; the step view, the labels and the audit fill the maps they read.
import type { UserResult } from '../types';

export class LazyResults extends Map<string, UserResult> {
  private pending: (() => Map<string, UserResult>) | undefined;

  /** `rows`: how many rows `fill` will give (the scorer compares it with its table's size before filling). */
  constructor(
    readonly rows: number,
    fill: () => Map<string, UserResult>,
  ) {
    super();
    this.pending = fill;
  }

  /** Whether the rows are still in the index only. */
  get isPending(): boolean {
    return this.pending !== undefined;
  }

  private fill(): void {
    const fill = this.pending;
    if (!fill) return;
    this.pending = undefined;
    for (const [k, v] of fill()) super.set(k, v);
  }

  override get(key: string): UserResult | undefined {
    this.fill();
    return super.get(key);
  }
  override has(key: string): boolean {
    this.fill();
    return super.has(key);
  }
  override set(key: string, value: UserResult): this {
    this.fill();
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    this.fill();
    return super.delete(key);
  }
  override clear(): void {
    this.pending = undefined;
    super.clear();
  }
  override forEach(
    cb: (value: UserResult, key: string, map: Map<string, UserResult>) => void,
    thisArg?: unknown,
  ): void {
    this.fill();
    super.forEach(cb, thisArg);
  }
  override keys(): MapIterator<string> {
    this.fill();
    return super.keys();
  }
  override values(): MapIterator<UserResult> {
    this.fill();
    return super.values();
  }
  override entries(): MapIterator<[string, UserResult]> {
    this.fill();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[string, UserResult]> {
    return this.entries();
  }
}

// Map's size is an accessor on Map.prototype; the known count answers until the rows are filled.
Object.defineProperty(LazyResults.prototype, 'size', {
  get(this: LazyResults): number {
    return this.isPending ? this.rows : (Reflect.get(Map.prototype, 'size', this) as number);
  },
});
