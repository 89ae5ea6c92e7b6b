// A Map filled by a function the first time it is read, for data a job may never need (rows kept in an index, a
// figure's per-user table): until then it holds nothing, and a known size answers without filling it.
export class LazyMap<K, V> extends Map<K, V> {
  private pending: (() => Iterable<[K, V]>) | undefined;

  /** `known`: how many entries `fill` will give, when the caller knows (size then answers without filling). */
  constructor(
    readonly known: number | undefined,
    fill: () => Iterable<[K, V]>,
  ) {
    super();
    this.pending = fill;
  }

  /** Whether the entries are still unread. */
  get isPending(): boolean {
    return this.pending !== undefined;
  }

  private fill(): void {
    const fill = this.pending;
    if (!fill) return;
    this.pending = undefined;
    for (const [k, v] of fill()) super.set(k, v);
  }

  override get(key: K): V | undefined {
    this.fill();
    return super.get(key);
  }
  override has(key: K): boolean {
    this.fill();
    return super.has(key);
  }
  override set(key: K, value: V): this {
    this.fill();
    return super.set(key, value);
  }
  override delete(key: K): boolean {
    this.fill();
    return super.delete(key);
  }
  override clear(): void {
    this.pending = undefined;
    super.clear();
  }
  override forEach(cb: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    this.fill();
    super.forEach(cb, thisArg);
  }
  override keys(): MapIterator<K> {
    this.fill();
    return super.keys();
  }
  override values(): MapIterator<V> {
    this.fill();
    return super.values();
  }
  override entries(): MapIterator<[K, V]> {
    this.fill();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}

// Map's size is an accessor on Map.prototype; the known count answers until the entries are filled.
Object.defineProperty(LazyMap.prototype, 'size', {
  get(this: LazyMap<unknown, unknown>): number {
    if (this.isPending && this.known === undefined) this.values();
    return this.isPending ? (this.known as number) : (Reflect.get(Map.prototype, 'size', this) as number);
  },
});
