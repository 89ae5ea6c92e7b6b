// Runtime guards for the webview protocols (and what the core reads), built from small combinators so that a
// message's TypeScript type and its check come from one definition: `const navigate = message('navigate', { direction: oneOf(NAV_DIRECTIONS) })` and
// `type NavigateMessage = Infer<typeof navigate>`. Free of Node and DOM imports: both sides' bundles use it.
// Objects may carry keys beyond their shape (they are ignored, as JSON messages grow fields over time).

export type Guard<T> = (v: unknown) => v is T;
export type Infer<G> = G extends Guard<infer T> ? T : never;

/** A guard of an object key that may be absent (or undefined). */
export interface OptionalGuard<T> extends Guard<T | undefined> {
  readonly optional: true;
}

// `never` as the parameter makes every guard assignable here: a shape is a record of guards of any type.
type AnyGuard = (v: never) => boolean;
export type Shape = Readonly<Record<string, AnyGuard>>;

type GuardType<G> = G extends (v: unknown) => v is infer T ? T : never;
type OptionalKeys<S> = { [K in keyof S]: S[K] extends OptionalGuard<unknown> ? K : never }[keyof S];
type RequiredKeys<S> = Exclude<keyof S, OptionalKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type ShapeType<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: GuardType<S[K]> } & { [K in OptionalKeys<S>]?: Exclude<GuardType<S[K]>, undefined> }
>;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const anything = (_v: unknown): _v is unknown => true;
export const str = (v: unknown): v is string => typeof v === 'string';
export const num = (v: unknown): v is number => typeof v === 'number';
export const int = (v: unknown): v is number => Number.isInteger(v);
export const safeInt = (v: unknown): v is number => Number.isSafeInteger(v);
/** A safe integer ≥ 0: an index, a length, a generation. */
export const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
export const bool = (v: unknown): v is boolean => typeof v === 'boolean';
export const array = (v: unknown): v is unknown[] => Array.isArray(v);
export const record = isRecord;

type Primitive = string | number | boolean | null;

/** One of the given values (compared with ===). */
export function literal<const L extends readonly Primitive[]>(...values: L): Guard<L[number]> {
  return (v: unknown): v is L[number] => values.includes(v as Primitive);
}

/** One of a constant list's strings, e.g. `oneOf(NAV_DIRECTIONS)`. */
export function oneOf<const T extends string>(values: readonly T[]): Guard<T> {
  return (v: unknown): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);
}

export function arrayOf<T>(item: Guard<T>): Guard<T[]> {
  return (v: unknown): v is T[] => Array.isArray(v) && v.every((x) => item(x));
}

/** An object used as a map: every value passes `value`. */
export function recordOf<T>(value: Guard<T>): Guard<Record<string, T>> {
  return (v: unknown): v is Record<string, T> => isRecord(v) && Object.values(v).every((x) => value(x));
}

export function nullable<T>(g: Guard<T>): Guard<T | null> {
  return (v: unknown): v is T | null => v === null || g(v);
}

export function optional<T>(g: Guard<T>): OptionalGuard<T> {
  return Object.assign((v: unknown): v is T | undefined => v === undefined || g(v), { optional: true as const });
}

export function union<const G extends readonly AnyGuard[]>(...guards: G): Guard<GuardType<G[number]>> {
  return (v: unknown): v is GuardType<G[number]> => guards.some((g) => (g as Guard<unknown>)(v));
}

/** `g`, and a further check on the value it typed (a range, a relation between fields). */
export function refine<T>(g: Guard<T>, check: (v: T) => boolean): Guard<T> {
  return (v: unknown): v is T => g(v) && check(v);
}

function checkShape(shape: Shape, v: Record<string, unknown>): boolean {
  for (const key of Object.keys(shape)) if (!(shape[key] as Guard<unknown>)(v[key])) return false;
  return true;
}

/** An object with (at least) these keys; keys whose guard is `optional(…)` may be absent. */
export function object<const S extends Shape>(shape: S): Guard<ShapeType<S>> {
  return (v: unknown): v is ShapeType<S> => isRecord(v) && checkShape(shape, v);
}

/**
 * A guard that claims a type it checks only in part: the parts a receiver relies on (models built by the core carry
 * more). The compiler checks that `T` fits what `g` checks: when it does not, the result is a `ClaimMismatch`, not a
 * guard, and using it as one is a type error.
 */
export function claim<T>(): <G extends AnyGuard>(
  g: G,
) => T extends GuardType<G> ? Guard<T> : ClaimMismatch<T, GuardType<G>> {
  return ((g: Guard<unknown>) =>
    (v: unknown): v is T =>
      g(v)) as never;
}

/** `claim<T>()(object(shape))`: the object keys a receiver relies on, of a larger type `T`. */
export function shapeOf<T>(): <S extends Shape>(
  shape: S,
) => T extends ShapeType<S> ? Guard<T> : ClaimMismatch<T, ShapeType<S>> {
  return ((shape: Shape) =>
    (v: unknown): v is T =>
      isRecord(v) && checkShape(shape, v)) as never;
}

export interface ClaimMismatch<T, Checked> {
  readonly claimed: T;
  readonly checked: Checked;
}

/** A variant of a tagged union: `key` holds `tag`, and the shape's keys hold what it says. */
export interface TaggedGuard<K extends string, V extends string, T> extends Guard<T> {
  readonly key: K;
  readonly tag: V;
}

type Tagged<K extends string, V extends string, S extends Shape> = Simplify<{ [P in K]: V } & ShapeType<S>>;

// `{}` as the default shape: a message with no fields beyond its tag.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function tagged<const K extends string, const V extends string, const S extends Shape = {}>(
  key: K,
  tag: V,
  shape?: S,
  check?: (v: Tagged<K, V, S>) => boolean,
): TaggedGuard<K, V, Tagged<K, V, S>> {
  const guard = (v: unknown): v is Tagged<K, V, S> =>
    isRecord(v) && v[key] === tag && (!shape || checkShape(shape, v)) && (!check || check(v as Tagged<K, V, S>));
  return Object.assign(guard, { key, tag });
}

/** A protocol message: `{ type, ...shape }`, with an optional further check. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function message<const V extends string, const S extends Shape = {}>(
  type: V,
  shape?: S,
  check?: (v: Tagged<'type', V, S>) => boolean,
): TaggedGuard<'type', V, Tagged<'type', V, S>> {
  return tagged('type', type, shape, check);
}

type AnyTagged<K extends string> = TaggedGuard<K, string, unknown>;

/**
 * The union of tagged variants that share one key (`type` for messages, `kind` for actions). A value is checked by the
 * variant its tag names, so an unknown tag fails at once. Two variants with one tag are a programming error.
 */
export function variants<const K extends string, const G extends readonly AnyTagged<K>[]>(
  key: K,
  ...guards: G
): Guard<GuardType<G[number]>> {
  const byTag = new Map<unknown, AnyTagged<K>>();
  for (const g of guards) {
    if (g.key !== key) throw new Error(`variants(${key}): a variant is tagged on ${g.key}`);
    if (byTag.has(g.tag)) throw new Error(`variants(${key}): two variants are tagged ${g.tag}`);
    byTag.set(g.tag, g);
  }
  return (v: unknown): v is GuardType<G[number]> => {
    if (!isRecord(v)) return false;
    const g = byTag.get(v[key]);
    return g !== undefined && g(v);
  };
}

/** The union of protocol messages, dispatched on `type`. */
export function messages<const G extends readonly AnyTagged<'type'>[]>(...guards: G): Guard<GuardType<G[number]>> {
  return variants('type', ...guards);
}
