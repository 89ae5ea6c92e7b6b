import { describe, expect, it } from 'vitest';
import {
  array,
  arrayOf,
  bool,
  claim,
  count,
  type Guard,
  type Infer,
  int,
  isRecord,
  literal,
  message,
  messages,
  nullable,
  num,
  object,
  oneOf,
  optional,
  recordOf,
  refine,
  safeInt,
  shapeOf,
  str,
  tagged,
  union,
  variants,
} from '../../src/core/guards';

const accepts = <T>(g: Guard<T>, values: unknown[]) => {
  for (const v of values) expect(g(v), JSON.stringify(v) ?? String(v)).toBe(true);
};
const rejects = <T>(g: Guard<T>, values: unknown[]) => {
  for (const v of values) expect(g(v), JSON.stringify(v) ?? String(v)).toBe(false);
};

describe('guard primitives', () => {
  it('isRecord: plain objects, not null, arrays or primitives', () => {
    accepts(isRecord, [{}, { a: 1 }, Object.create(null)]);
    rejects(isRecord, [null, undefined, [], [1], 'x', 1, true]);
  });

  it('numbers: num takes any number, int integers, safeInt safe integers, count those ≥ 0', () => {
    accepts(num, [0, -1.5, 1e300]);
    rejects(num, ['1', null, undefined, {}]);
    accepts(int, [0, -3, 2 ** 60]);
    rejects(int, [1.5, '1', NaN, Infinity]);
    accepts(safeInt, [0, -3, Number.MAX_SAFE_INTEGER]);
    rejects(safeInt, [2 ** 60, 1.5, '2']);
    accepts(count, [0, 1, Number.MAX_SAFE_INTEGER]);
    rejects(count, [-1, 0.5, 2 ** 60, '3', null]);
  });

  it('str, bool, array', () => {
    accepts(str, ['', 'x']);
    rejects(str, [1, null, undefined, ['x']]);
    accepts(bool, [true, false]);
    rejects(bool, [0, 1, 'true', null]);
    accepts(array, [[], [1, 'x']]);
    rejects(array, [{}, { length: 0 }, 'ab', null]);
  });

  it('literal and oneOf compare exactly', () => {
    const delta = literal(1, -1);
    accepts(delta, [1, -1]);
    rejects(delta, ['1', 0, 2, true]);
    const nothing = literal(null);
    accepts(nothing, [null]);
    rejects(nothing, [undefined, 0, '']);
    const dir = oneOf(['next', 'previous'] as const);
    accepts(dir, ['next', 'previous']);
    rejects(dir, ['Next', 'nex', '', 1, null, ['next']]);
  });

  it('arrayOf checks every item; recordOf every value', () => {
    const strings = arrayOf(str);
    accepts(strings, [[], ['a', 'b']]);
    rejects(strings, [['a', 1], [undefined], 'a', { 0: 'a' }]);
    const lists = recordOf(array);
    accepts(lists, [{}, { a: [], b: [1] }]);
    rejects(lists, [{ a: [], b: 'x' }, [], null]);
  });

  it('nullable admits null only; optional admits undefined only', () => {
    const n = nullable(str);
    accepts(n, [null, 'x']);
    rejects(n, [undefined, 1]);
    const o = optional(str);
    accepts(o, [undefined, 'x']);
    rejects(o, [null, 1]);
  });

  it('union, refine', () => {
    const u = union(str, num);
    accepts(u, ['a', 1]);
    rejects(u, [null, true, []]);
    const range = refine(object({ from: count, to: count }), (r) => r.to >= r.from);
    accepts(range, [
      { from: 1, to: 1 },
      { from: 0, to: 5 },
    ]);
    rejects(range, [{ from: 2, to: 1 }, { from: -1, to: 1 }, { from: 0 }]);
  });
});

describe('object shapes', () => {
  const point = object({ x: num, y: num, label: optional(str) });

  it('requires every key of the shape, allows optional keys to be absent, ignores extra keys', () => {
    accepts(point, [
      { x: 1, y: 2 },
      { x: 1, y: 2, label: 'p' },
      { x: 1, y: 2, label: undefined },
      { x: 1, y: 2, z: 'extra' },
    ]);
    rejects(point, [{ x: 1 }, { x: 1, y: '2' }, { x: 1, y: 2, label: null }, { x: 1, y: 2, label: 3 }, [1, 2], null]);
  });

  it('nests', () => {
    const line = object({ from: point, to: point, tags: arrayOf(str) });
    accepts(line, [{ from: { x: 0, y: 0 }, to: { x: 1, y: 1 }, tags: [] }]);
    rejects(line, [
      { from: { x: 0, y: 0 }, to: { x: 1 }, tags: [] },
      { from: { x: 0, y: 0 }, to: { x: 1, y: 1 }, tags: [1] },
    ]);
  });

  it('infers the type: required keys, optional keys, nested shapes', () => {
    const p: Infer<typeof point> = { x: 1, y: 2 };
    const q: Infer<typeof point> = { x: 1, y: 2, label: 'q' };
    // @ts-expect-error y is required
    const r: Infer<typeof point> = { x: 1 };
    expect([p, q, r].length).toBe(3);
  });

  it('shapeOf and claim check a part of a larger type, and the compiler checks that the part fits', () => {
    interface Model {
      name: string;
      rows: { id: number }[];
      extra: { deep: boolean };
    }
    const model: Guard<Model> = shapeOf<Model>()({ name: str, rows: array });
    accepts(model, [{ name: 'm', rows: [] }]);
    rejects(model, [{ name: 'm' }, { name: 1, rows: [] }, null]);
    // @ts-expect-error name is a string in Model: a shape checking a number does not fit
    const wrong: Guard<Model> = shapeOf<Model>()({ name: num });
    const rows: Guard<Model['rows']> = claim<Model['rows']>()(array);
    accepts(rows, [[], [{ id: 1 }]]);
    rejects(rows, [{}, 'rows']);
    // @ts-expect-error rows are not strings
    const wrongRows: Guard<Model['rows']> = claim<Model['rows']>()(arrayOf(str));
    expect([wrong, wrongRows].length).toBe(2);
  });
});

describe('tagged variants and messages', () => {
  const ready = message('ready');
  const navigate = message('navigate', { delta: literal(1, -1) });
  const rows = message('rows', { from: count, to: count }, (m) => m.to - m.from <= 10);
  const isIn = messages(ready, navigate, rows);
  type In = Infer<typeof isIn>;

  it('a message checks its type and its fields', () => {
    accepts(navigate, [{ type: 'navigate', delta: 1 }]);
    rejects(navigate, [
      { type: 'navigate' },
      { type: 'navigate', delta: 2 },
      { type: 'ready', delta: 1 },
      { delta: 1 },
    ]);
    accepts(ready, [{ type: 'ready' }, { type: 'ready', extra: 1 }]);
    rejects(ready, [{ type: 'Ready' }, {}, 'ready', null]);
  });

  it('a message with a further check applies it after the fields', () => {
    accepts(rows, [{ type: 'rows', from: 0, to: 10 }]);
    rejects(rows, [
      { type: 'rows', from: 0, to: 11 },
      { type: 'rows', from: 0 },
      { type: 'rows', from: '0', to: 1 },
    ]);
  });

  it('messages dispatch on type: unknown types and malformed known ones fail', () => {
    accepts(isIn, [{ type: 'ready' }, { type: 'navigate', delta: -1 }, { type: 'rows', from: 3, to: 4 }]);
    rejects(isIn, [
      { type: 'html', html: '<b>' },
      { type: 'navigate', delta: 0 },
      { type: 'toString' },
      { type: '__proto__' },
      {},
      null,
      [],
    ]);
  });

  it('the union type narrows on type', () => {
    const describe = (m: In): string => {
      switch (m.type) {
        case 'ready':
          return 'ready';
        case 'navigate':
          return `navigate ${m.delta}`;
        case 'rows':
          return `rows ${m.from}-${m.to}`;
      }
    };
    expect(describe({ type: 'rows', from: 1, to: 2 })).toBe('rows 1-2');
    // @ts-expect-error delta is 1 or -1
    const bad: In = { type: 'navigate', delta: 2 };
    expect(bad).toBeDefined();
  });

  it('variants on another key (actions tagged on kind)', () => {
    const action = variants('kind', tagged('kind', 'undo'), tagged('kind', 'toggle', { labelId: str }));
    accepts(action, [{ kind: 'undo' }, { kind: 'toggle', labelId: 'x' }]);
    rejects(action, [{ kind: 'toggle' }, { type: 'undo' }, { kind: 'redo' }]);
  });

  it('refuses two variants with one tag, or a variant tagged on another key', () => {
    expect(() => messages(message('ready'), message('ready', { x: str }))).toThrow(/two variants/);
    // @ts-expect-error the compiler catches it too
    expect(() => variants('kind', tagged('type', 'undo'))).toThrow(/tagged on type/);
  });
});
