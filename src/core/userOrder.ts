// The order the Benchmarks tree lists users in (Sort Users By…): by id, or by one figure per user in a direction. Ties
// are broken by id and users without the figure come last in either direction, so that the order is total and the same
// after every reload. Pure: each format names its own keys and figures (its view's userOrder.ts).

export type Direction = 'ascending' | 'descending';

export interface UserOrder<K extends string = string> {
  key: K;
  direction: Direction;
}

/** What a key is called and how it sorts first; `name` spells out what `label` abbreviates. */
export interface OrderKeyInfo {
  label: string;
  name: string;
  /** a metric's symbol (R, R_nov, Err_decay): the label of a figure, shown after its name */
  symbol?: string;
  /** a per-user figure (not the file, the id or the labels): some users may have none */
  figure?: boolean;
  direction: Direction;
  /** How the order is described: "lowest first", "labelled first, then by id". */
  ascendingText: string;
  descendingText: string;
}

/** The orders every format offers: by id, and labelled first. */
export const ID_ORDER: OrderKeyInfo = {
  label: 'User id',
  name: 'User id',
  direction: 'ascending',
  ascendingText: 'A → Z',
  descendingText: 'Z → A',
};
export const LABELLED_ORDER: OrderKeyInfo = {
  label: 'Labelled first',
  name: 'Labels',
  direction: 'descending',
  ascendingText: 'unlabelled first, then by id',
  descendingText: 'labelled first, then by id',
};

/** UTF-16 code-unit order, the same on every machine (localeCompare depends on the locale). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const missing = (x: number | undefined): boolean => x === undefined || Number.isNaN(x);

/**
 * Compares two (id, figure) pairs: defined figures in `direction`, then undefined or NaN figures; ties by id,
 * ascending. With `figure` null on both, by id in `direction`.
 */
export function compareFigures(
  a: { id: string; figure: number | undefined },
  b: { id: string; figure: number | undefined },
  direction: Direction,
): number {
  const ma = missing(a.figure);
  const mb = missing(b.figure);
  if (ma !== mb) return ma ? 1 : -1;
  if (!ma && a.figure !== b.figure) {
    const d = (a.figure as number) < (b.figure as number) ? -1 : 1;
    return direction === 'ascending' ? d : -d;
  }
  return compareIds(a.id, b.id);
}

/**
 * `items` in a new array, sorted by `figure` (or by id alone when `figure` is null, in `direction`). Each item's id
 * and figure are read once: a platform can hold thousands of users.
 */
export function sortByFigure<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  figure: ((item: T) => number | undefined) | null,
  direction: Direction,
): T[] {
  const keyed = items.map((item) => ({ item, id: idOf(item), figure: figure ? figure(item) : undefined }));
  if (figure) keyed.sort((a, b) => compareFigures(a, b, direction));
  else keyed.sort((a, b) => (direction === 'ascending' ? compareIds(a.id, b.id) : compareIds(b.id, a.id)));
  return keyed.map((k) => k.item);
}

/** A stored order as read back (workspace state): the default when it is not one of `keys` with a direction. */
export function parseOrder<K extends string>(value: unknown, keys: readonly K[], fallback: UserOrder<K>): UserOrder<K> {
  if (typeof value !== 'object' || value === null) return fallback;
  const { key, direction } = value as Record<string, unknown>;
  if (typeof key !== 'string' || !(keys as readonly string[]).includes(key)) return fallback;
  if (direction !== 'ascending' && direction !== 'descending') return fallback;
  return { key: key as K, direction };
}

/** "Novelty recall (R_nov), lowest first": the order in words, for a tooltip or a picker. */
export function describeOrder<K extends string>(order: UserOrder<K>, info: Readonly<Record<K, OrderKeyInfo>>): string {
  const i = info[order.key];
  const name = i.symbol ? `${i.name} (${i.symbol})` : i.name;
  return `${name}, ${order.direction === 'ascending' ? i.ascendingText : i.descendingText}`;
}

/** The order as a sentence for a tooltip, saying where users without the figure go when that can happen. */
export function orderSentence<K extends string>(order: UserOrder<K>, info: Readonly<Record<K, OrderKeyInfo>>): string {
  const tail = info[order.key].figure ? '; ties by id, users without the figure last' : '';
  return `Users listed by ${describeOrder(order, info)}${tail} (Sort Users By… changes it).`;
}

export interface OrderChoice<K extends string> {
  label: string;
  description: string;
  order: UserOrder<K>;
  /** the order now in use */
  current: boolean;
}

/** The rows of Sort Users By…: each key in its natural direction, then "Reverse the order" of the current one. */
export function orderChoices<K extends string>(
  keys: readonly K[],
  info: Readonly<Record<K, OrderKeyInfo>>,
  current: UserOrder<K>,
): OrderChoice<K>[] {
  const rows = keys.map((key) => {
    const i = info[key];
    const order: UserOrder<K> = { key, direction: i.direction };
    const isCurrent = key === current.key && order.direction === current.direction;
    const text = i.direction === 'ascending' ? i.ascendingText : i.descendingText;
    return {
      label: i.label,
      description: (i.symbol ? `${i.name}, ${text}` : text) + (isCurrent ? ' · current' : ''),
      order,
      current: isCurrent,
    };
  });
  const reversed: UserOrder<K> = {
    key: current.key,
    direction: current.direction === 'ascending' ? 'descending' : 'ascending',
  };
  rows.push({
    label: 'Reverse the order',
    description: describeOrder(reversed, info),
    order: reversed,
    current: false,
  });
  return rows;
}
