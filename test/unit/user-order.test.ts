// Sort Users By…: the pure order (ties by id, missing figures last in either direction), the stored order read
// back, the picker's rows, and the two benchmarks' figures (the core's per-user scores, summed answer counts).
import { describe, expect, it } from 'vitest';
import { userActionCounts, type ActionCounts } from '../../src/core/omni/score';
import { OMNI_ORDER_INFO, shareRight, sortOmniUsers } from '../../src/core/omni/userOrder';
import { predictionKey, type OmniUser, type TestAction } from '../../src/core/omni/types';
import type { UserScore } from '../../src/core/spb/score/step';
import {
  SPB_DEFAULT_ORDER,
  SPB_ORDER_INFO,
  SPB_ORDER_KEYS,
  sortSpbUsers,
  spbUserFigure,
} from '../../src/core/spb/view/userOrder';
import {
  compareFigures,
  describeOrder,
  orderChoices,
  orderSentence,
  parseOrder,
  sortByFigure,
  type Direction,
} from '../../src/core/userOrder';

const items = [
  { id: 'c', v: 0.5 },
  { id: 'a', v: undefined },
  { id: 'b', v: 0.5 },
  { id: 'e', v: NaN },
  { id: 'd', v: 0.1 },
  { id: 'f', v: 0.9 },
];
const ids = (dir: Direction, list = items) =>
  sortByFigure(
    list,
    (x) => x.id,
    (x) => x.v,
    dir,
  ).map((x) => x.id);

describe('sortByFigure', () => {
  it('sorts by the figure, ties by id, undefined and NaN last (by id) in either direction', () => {
    expect(ids('ascending')).toEqual(['d', 'b', 'c', 'f', 'a', 'e']);
    expect(ids('descending')).toEqual(['f', 'b', 'c', 'd', 'a', 'e']);
  });

  it('sorts by id alone in the direction given when there is no figure', () => {
    const by = (dir: Direction) => sortByFigure(items, (x) => x.id, null, dir).map((x) => x.id);
    expect(by('ascending')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(by('descending')).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
  });

  it('orders ids by code unit, not by locale, and leaves its input alone', () => {
    const list = [
      { id: 'we_b', v: 1 },
      { id: 'We_a', v: 1 },
      { id: 'we_a', v: 1 },
    ];
    expect(ids('ascending', list)).toEqual(['We_a', 'we_a', 'we_b']);
    expect(list.map((x) => x.id)).toEqual(['we_b', 'We_a', 'we_a']);
  });

  it('gives the same order whatever the input order (a total order)', () => {
    const shuffled = [items[3], items[5], items[0], items[4], items[1], items[2]];
    expect(ids('descending', shuffled)).toEqual(ids('descending'));
    expect(ids('ascending', [...items].reverse())).toEqual(ids('ascending'));
  });

  it('reads each figure once', () => {
    let reads = 0;
    sortByFigure(
      items,
      (x) => x.id,
      (x) => (reads++, x.v),
      'ascending',
    );
    expect(reads).toBe(items.length);
  });

  it('compareFigures puts missing after defined, and equal figures by id', () => {
    expect(compareFigures({ id: 'z', figure: 0 }, { id: 'a', figure: undefined }, 'descending')).toBeLessThan(0);
    expect(compareFigures({ id: 'a', figure: NaN }, { id: 'z', figure: 1 }, 'ascending')).toBeGreaterThan(0);
    expect(compareFigures({ id: 'a', figure: 1 }, { id: 'b', figure: 1 }, 'descending')).toBeLessThan(0);
    expect(compareFigures({ id: 'a', figure: NaN }, { id: 'b', figure: undefined }, 'descending')).toBeLessThan(0);
  });
});

describe('stored order and picker rows', () => {
  it('reads back a stored order, and the default for anything else', () => {
    const read = (v: unknown) => parseOrder(v, SPB_ORDER_KEYS, SPB_DEFAULT_ORDER);
    expect(read({ key: 'Recall_Novelty', direction: 'descending' })).toEqual({
      key: 'Recall_Novelty',
      direction: 'descending',
    });
    for (const bad of [undefined, null, 'Recall', { key: 'Recall' }, { key: 'nope', direction: 'ascending' }])
      expect(read(bad)).toEqual(SPB_DEFAULT_ORDER);
    expect(read({ key: 'Recall', direction: 'up' })).toEqual(SPB_DEFAULT_ORDER);
  });

  it('describes an order in words', () => {
    expect(describeOrder({ key: 'Recall_Novelty', direction: 'ascending' }, SPB_ORDER_INFO)).toBe(
      'Novelty recall (R_nov), lowest first',
    );
    expect(describeOrder({ key: 'Error_Decay', direction: 'descending' }, SPB_ORDER_INFO)).toBe(
      'Decay error rate (Err_decay), highest first',
    );
    expect(describeOrder({ key: 'labelled', direction: 'descending' }, SPB_ORDER_INFO)).toBe(
      'Labels, labelled first, then by id',
    );
    expect(describeOrder({ key: 'incorrect', direction: 'descending' }, OMNI_ORDER_INFO)).toBe(
      'Wrong answers, most first',
    );
    expect(orderSentence({ key: 'Recall', direction: 'ascending' }, SPB_ORDER_INFO)).toBe(
      'Users listed by Recall (R), lowest first; ties by id, users without the figure last (Sort Users By… changes it).',
    );
    expect(orderSentence({ key: 'file', direction: 'ascending' }, SPB_ORDER_INFO)).toBe(
      'Users listed by File order, as the tasks file lists them (Sort Users By… changes it).',
    );
    expect(orderSentence({ key: 'shareRight', direction: 'ascending' }, OMNI_ORDER_INFO)).toMatch(
      /^Users listed by Share right, lowest first; ties by id/,
    );
  });

  it('lists file order, id, labelled first, R, F1^NS, R_nov, R_stab, the error rates, the current marked, Reverse', () => {
    const rows = orderChoices(SPB_ORDER_KEYS, SPB_ORDER_INFO, { key: 'Recall', direction: 'ascending' });
    expect(rows.map((r) => [r.label, r.description])).toEqual([
      ['File order', 'as the tasks file lists them'],
      ['User id', 'A → Z'],
      ['Labelled first', 'labelled first, then by id'],
      ['R', 'Recall, lowest first · current'],
      ['F1^NS', 'F1 of novelty and stability recall, lowest first'],
      ['R_nov', 'Novelty recall, lowest first'],
      ['R_stab', 'Stability recall, lowest first'],
      ['Err_decay', 'Decay error rate, highest first'],
      ['Err_peer', 'Peer error rate, highest first'],
      ['Err_viral', 'Viral error rate, highest first'],
      ['Err_random', 'Random error rate, highest first'],
      ['Reverse the order', 'Recall (R), highest first'],
    ]);
    expect(rows.filter((r) => r.current).map((r) => r.label)).toEqual(['R']);
    expect(rows.at(-1)!.order).toEqual({ key: 'Recall', direction: 'descending' });
    // Reversed, R is no longer the current row: picking it again goes back to its natural direction.
    const reversed = orderChoices(SPB_ORDER_KEYS, SPB_ORDER_INFO, { key: 'Recall', direction: 'descending' });
    expect(reversed.some((r) => r.current)).toBe(false);
    expect(reversed.at(-1)!.order).toEqual({ key: 'Recall', direction: 'ascending' });
  });
});

const score = (m: Partial<UserScore['metrics']>): UserScore => ({
  steps: 1,
  metrics: {
    Recall: NaN,
    Recall_Novelty: NaN,
    Recall_Stability: NaN,
    Error_Decay: NaN,
    Error_Peer: NaN,
    Error_Viral: NaN,
    Error_Random: NaN,
    ...m,
  },
});

describe('StreamProfileBench users', () => {
  const rows = [
    { user: { userId: 'we_3' }, score: score({ Recall: 0.5, Recall_Novelty: 0.2, Recall_Stability: 0.8 }) },
    { user: { userId: 'we_1' }, score: undefined },
    { user: { userId: 'we_2' }, score: score({ Recall: 0.5, Recall_Novelty: 1, Recall_Stability: 0, Error_Peer: 1 }) },
    { user: { userId: 'we_0' }, score: score({ Recall: 0.1, Recall_Novelty: 0.5, Recall_Stability: 0.5 }) },
  ];
  const order = (key: (typeof SPB_ORDER_KEYS)[number], direction: Direction, labelled = new Set<string>()) =>
    sortSpbUsers(rows, { key, direction }, (r) => labelled.has(r.user.userId)).map((r) => r.user.userId);

  it('takes F1^NS from the core (harmonic mean of R_nov and R_stab per user) and the metrics as scored', () => {
    expect(spbUserFigure('F1NS', rows[0].score)).toBeCloseTo(0.32, 12);
    expect(spbUserFigure('F1NS', rows[2].score)).toBe(0); // a = 1, b = 0
    expect(spbUserFigure('Recall', undefined)).toBeUndefined();
    expect(spbUserFigure('Error_Decay', rows[0].score)).toBeNaN();
  });

  it('sorts by each figure with ties by id and unscored users last', () => {
    expect(order('Recall', 'ascending')).toEqual(['we_0', 'we_2', 'we_3', 'we_1']);
    expect(order('Recall', 'descending')).toEqual(['we_2', 'we_3', 'we_0', 'we_1']);
    expect(order('F1NS', 'ascending')).toEqual(['we_2', 'we_3', 'we_0', 'we_1']);
    expect(order('Recall_Novelty', 'descending')).toEqual(['we_2', 'we_0', 'we_3', 'we_1']);
    // Only we_2 has a defined Err_peer: the others (NaN or unscored) follow by id.
    expect(order('Error_Peer', 'descending')).toEqual(['we_2', 'we_0', 'we_1', 'we_3']);
    expect(order('id', 'ascending')).toEqual(['we_0', 'we_1', 'we_2', 'we_3']);
    expect(order('file', 'ascending')).toEqual(['we_3', 'we_1', 'we_2', 'we_0']);
    expect(order('file', 'descending')).toEqual(['we_0', 'we_2', 'we_1', 'we_3']);
    expect(rows.map((r) => r.user.userId)).toEqual(['we_3', 'we_1', 'we_2', 'we_0']);
  });

  it('puts labelled users first, each group by id', () => {
    expect(order('labelled', 'descending', new Set(['we_3', 'we_1']))).toEqual(['we_1', 'we_3', 'we_0', 'we_2']);
    expect(order('labelled', 'ascending', new Set(['we_3', 'we_1']))).toEqual(['we_0', 'we_2', 'we_1', 'we_3']);
  });
});

describe('OmniBehavior users', () => {
  const action = (userId: string, index: number): TestAction => ({ userId, index }) as TestAction;
  const user = (userId: string, n: number): OmniUser =>
    ({
      userId,
      testActions: Array.from({ length: n }, (_, i) => action(userId, i)),
    }) as unknown as OmniUser;
  const c = (correct: number, incorrect: number, leftOut = 0): ActionCounts => ({
    correct,
    incorrect,
    graded: 1,
    leftOut,
  });

  it('sums the core per-action counts per user, undefined when the run predicted none of its actions', () => {
    const per = new Map([
      [predictionKey('u1', 0), c(1, 2)],
      [predictionKey('u1', 1), c(3, 0, 1)],
    ]);
    const counts = userActionCounts(per, user('u1', 2));
    expect(counts).toEqual({ correct: 4, incorrect: 2, graded: 2, leftOut: 1 });
    expect(userActionCounts(per, user('u2', 2))).toBeUndefined();
    expect(shareRight(counts)).toBeCloseTo(4 / 6, 12);
    expect(shareRight(c(0, 0))).toBeUndefined();
    expect(shareRight(undefined)).toBeUndefined();
  });

  it('sorts by wrong answers, share right and left out, users without a prediction last, ties by id', () => {
    const rows = [
      { userId: 'b', counts: c(1, 3), labelled: false },
      { userId: 'a', counts: undefined, labelled: true },
      { userId: 'd', counts: c(3, 1, 2), labelled: false },
      { userId: 'c', counts: c(0, 3), labelled: true },
    ];
    const order = (key: Parameters<typeof sortOmniUsers>[1]['key'], direction: Direction) =>
      sortOmniUsers(rows, { key, direction }).map((r) => r.userId);
    expect(order('incorrect', 'descending')).toEqual(['b', 'c', 'd', 'a']);
    expect(order('shareRight', 'ascending')).toEqual(['c', 'b', 'd', 'a']);
    expect(order('leftOut', 'descending')).toEqual(['d', 'b', 'c', 'a']);
    expect(order('labelled', 'descending')).toEqual(['a', 'c', 'b', 'd']);
    expect(order('id', 'descending')).toEqual(['d', 'c', 'b', 'a']);
  });
});
